import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomInt } from 'node:crypto'
import { and, count, eq, like } from 'drizzle-orm'
import { hisBills } from '../../server/src/db/schema'
import { hmacHex } from '../../server/src/crypto'
import { AppError } from '../../server/src/errors'
import { httpHis, type HisBill } from '../../server/src/plugins/providers/his'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import { priceCatalogue } from '../../server/src/seed/his'
import type { BillPayStart, BillPaymentDetail } from '../../types/api/palm'
import type { SelfServiceBill, SelfServiceItem } from '../../types/api/selfService'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, idCardFor, signInUser, startTestApp, type Envelope, type Method, type TestApp } from './harness'
import { addPatient, confirmAtCashier, newKey } from './fixtures'

const A = '/dld-palm/api'
const H = '10392'
const RETURN_URL = '/h5/palm/payment/waitPay'

type User = { headers: Record<string, string>; userId: number }
interface Person {
  patientId: number
  idCard: string
}

let t: TestApp
let owner: User
let stranger: User
let woman: Person
let man: Person
let strangerPerson: Person

const catalogue = priceCatalogue(H)
const codeOf = (name: string) => catalogue.find((c) => c.name === name)!.code
const priceOf = (code: string) => catalogue.find((c) => c.code === code)!.priceFen
const BLOOD = codeOf('血常规（五分类）')
const LIVER = codeOf('肝功能（11项）')
const HCG = codeOf('人绒毛膜促性腺激素（β-HCG）')
const PSA = codeOf('前列腺特异性抗原')

const call = <T = any>(method: Method, url: string, opts: { caller?: User; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>

/** A person of the given sex and birth year, with a made-up identity number nobody else in this file has. */
async function newPerson(user: User, sex: 1 | 2, year: number, name: string): Promise<Person> {
  const birth = `${year}${String(1 + randomInt(12)).padStart(2, '0')}${String(1 + randomInt(28)).padStart(2, '0')}`
  const seq = `${String(randomInt(100)).padStart(2, '0')}${sex === 1 ? 1 + 2 * randomInt(5) : 2 * randomInt(5)}`
  const idCard = idCardFor(birth, seq, `33${String(10 + randomInt(89))}02`)
  const patientId = await addPatient(t, user.userId, { name, sex, birthday: `${birth.slice(0, 4)}-${birth.slice(4, 6)}-${birth.slice(6)}`, mobile: '13700000000', idCard })
  return { patientId, idCard }
}

const dict = (caller: User | undefined, p: Person) => call<SelfServiceItem[]>('POST', `${A}/diagnosis/dict`, { caller, body: { hospitalCode: H, patientId: p.patientId } })
const order = (caller: User, p: Person, codes: string[], idempotencyKey = newKey('self')) =>
  call<SelfServiceBill>('POST', `${A}/diagnosis/onLine/clinicalBill`, { caller, body: { hospitalCode: H, patientId: p.patientId, codes, idempotencyKey } })
const billsOf = (visitNoLike = 'ZZ%') => t.database.db.select({ n: count() }).from(hisBills).where(and(eq(hisBills.hospitalCode, H), like(hisBills.visitNo, visitNoLike)))

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  const year = new Date().getFullYear()
  woman = await newPerson(owner, 2, year - 30, '林晓燕')
  man = await newPerson(owner, 1, year - 52, '王建国')
  strangerPerson = await newPerson(stranger, 2, year - 35, '刘秀英')
})
after(() => t.close())

describe('POST /dld-palm/api/diagnosis/dict', () => {
  const url = `${A}/diagnosis/dict`

  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', url, { body: { hospitalCode: H, patientId: woman.patientId } })
  })

  it('refuses bad input', async () => {
    assertBadInput(await call('POST', url, { caller: owner, body: { hospitalCode: H } }))
    assertBadInput(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: 'abc' } }))
  })

  it('answers 2999 for someone else’s patient', async () => {
    assertForbidden(await dict(owner, strangerPerson))
    assertForbidden(await dict(stranger, woman))
  })

  it('lists the tests with catalogue name, price and notes, and for this patient what is allowed and why not', async () => {
    const forWoman = await dict(owner, woman)
    assert.equal(forWoman.code, 200, forWoman.msg)
    const blood = forWoman.data.find((i) => i.code === BLOOD)!
    assert.deepEqual({ name: blood.name, priceFen: blood.priceFen, allowed: blood.allowed, reason: blood.reason }, { name: '血常规（五分类）', priceFen: priceOf(BLOOD), allowed: true, reason: null })
    assert.match(forWoman.data.find((i) => i.code === LIVER)!.notes, /空腹/)
    assert.equal(forWoman.data.find((i) => i.code === HCG)!.allowed, true)
    const psaForWoman = forWoman.data.find((i) => i.code === PSA)!
    assert.deepEqual([psaForWoman.allowed, psaForWoman.reason, psaForWoman.audience], [false, '仅限男性', '仅限45岁及以上男性'])

    const forMan = await dict(owner, man)
    assert.equal(forMan.data.find((i) => i.code === PSA)!.allowed, true)
    assert.deepEqual(
      [forMan.data.find((i) => i.code === HCG)!.allowed, forMan.data.find((i) => i.code === HCG)!.reason],
      [false, '仅限女性'],
    )
  })
})

describe('POST /dld-palm/api/diagnosis/onLine/clinicalBill', () => {
  const url = `${A}/diagnosis/onLine/clinicalBill`

  it('answers 401 without a sign-in and 403 before a mobile is bound', async () => {
    await assertUnauthorisedCall(t.app, 'POST', url, { body: { hospitalCode: H, patientId: woman.patientId, codes: [BLOOD], idempotencyKey: newKey('self') } })
  })

  it('refuses bad input: no tests, a malformed code, no key, a test that is not self-service', async () => {
    const body = { hospitalCode: H, patientId: woman.patientId, idempotencyKey: newKey('self') }
    assertBadInput(await call('POST', url, { caller: owner, body: { ...body, codes: [] } }), /请选择检验项目/)
    assertBadInput(await call('POST', url, { caller: owner, body: { ...body, codes: ['JY;drop'] } }))
    assertBadInput(await call('POST', url, { caller: owner, body: { hospitalCode: H, patientId: woman.patientId, codes: [BLOOD] } }))
    const before = (await billsOf())[0]!.n
    assertBadInput(await order(owner, woman, [codeOf('降钙素原')]), '降钙素原不能自助开单')
    assert.equal((await billsOf())[0]!.n, before)
  })

  it('answers 2999 for someone else’s patient, and makes nothing', async () => {
    const before = (await billsOf())[0]!.n
    assertForbidden(await order(owner, strangerPerson, [BLOOD]))
    assert.equal((await billsOf())[0]!.n, before)
  })

  it('refuses a test the patient may not order, saying why, and makes no bill for the rest either', async () => {
    const before = (await billsOf())[0]!.n
    assertBadInput(await order(owner, woman, [BLOOD, PSA]), '前列腺特异性抗原仅限男性，不能为该就诊人开单')
    assertBadInput(await order(owner, man, [HCG]), '人绒毛膜促性腺激素（β-HCG）仅限女性，不能为该就诊人开单')
    assert.equal((await billsOf())[0]!.n, before)
  })

  it('makes one unpaid bill the patient pays with payment/init; the same key answers the same bill', async () => {
    const key = newKey('self')
    const made = await order(owner, woman, [BLOOD, LIVER, BLOOD], key)
    assert.equal(made.code, 200, made.msg)
    assert.equal(made.data.billNos.length, 1)
    assert.equal(made.data.amountFen, priceOf(BLOOD) + priceOf(LIVER))
    assert.deepEqual(made.data.items.map((i) => i.code).sort(), [BLOOD, LIVER].sort())
    assert.equal(made.data.place, '检验科采血处')

    const again = await order(owner, woman, [LIVER, BLOOD], key)
    assert.deepEqual(again.data, made.data)
    const [row] = await t.database.db.select().from(hisBills).where(eq(hisBills.billNo, made.data.billNos[0]!))
    assert.equal(row!.status, 'unpaid')
    assert.equal(row!.deptName, '自助开单')
    assert.equal((await billsOf(row!.visitNo))[0]!.n, 1)

    // the same key for other tests is a different request
    assert.equal((await order(owner, woman, [BLOOD], key)).code, 409)

    // it is among the patient's unpaid bills, and paid like any bill
    const unpaid = await call<{ bills: { billNo: string }[] }[]>('POST', `${A}/payment/unpaid/list`, { caller: owner, body: { hospitalCode: H, patientId: woman.patientId } })
    assert.ok(unpaid.data.some((v) => v.bills.some((b) => b.billNo === made.data.billNos[0])))
    const start = await call<BillPayStart>('POST', `${A}/payment/init`, {
      caller: owner,
      body: { hospitalCode: H, patientId: woman.patientId, billNos: made.data.billNos, returnUrl: RETURN_URL, idempotencyKey: newKey('bill') },
    })
    assert.equal(start.code, 200, start.msg)
    assert.equal(start.data.record.amountFen, made.data.amountFen)
    assert.ok(start.data.action && start.data.action.kind === 'redirect')
    assert.equal((await confirmAtCashier(t, start.data.action.url)).statusCode, 303)
    await (t.app.ctx.providers.pay.sandbox as SandboxPay).settled()
    const record = await call<BillPaymentDetail>('GET', `${A}/payment/detail`, { caller: owner, query: { id: String(start.data.record.id) } })
    assert.equal(record.data.status, 'paid')
    const [paid] = await t.database.db.select().from(hisBills).where(eq(hisBills.billNo, made.data.billNos[0]!))
    assert.equal(paid!.status, 'paid')

    // asking again with the key after paying answers the same (now paid) bill, and makes nothing new
    assert.deepEqual((await order(owner, woman, [BLOOD, LIVER], key)).data.billNos, made.data.billNos)
  })

  it('answers copies of one request sent at once with one bill', async () => {
    const key = newKey('self')
    const answers = await Promise.all([1, 2, 3].map(() => order(owner, man, [BLOOD, PSA], key)))
    for (const a of answers) assert.equal(a.code, 200, a.msg)
    assert.equal(new Set(answers.map((a) => a.data.billNos.join())).size, 1)
    const [row] = await t.database.db.select().from(hisBills).where(eq(hisBills.billNo, answers[0]!.data.billNos[0]!))
    assert.equal((await billsOf(row!.visitNo))[0]!.n, 1)
  })
})

/** A small HIS speaking the documented self-service contract: checks the signature, makes bills once per requestNo. */
function standInHis(appId: string, secret: string) {
  const calls: { path: string; body: Record<string, unknown> }[] = []
  const made = new Map<string, HisBill[]>()
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (raw += chunk))
    req.on('end', () => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(body))
      }
      if (req.headers['x-app-id'] !== appId || req.headers['x-signature'] !== hmacHex(secret, raw)) return reply(401, { code: 401, msg: 'bad signature' })
      const body = JSON.parse(raw) as { requestNo: string; items: { code: string; quantity: number }[]; patient: { idCard: string | null } }
      const path = (req.url ?? '').replace(/^\/his/, '')
      calls.push({ path, body })
      if (path !== '/orders/self-service') return reply(404, {})
      if (!body.patient.idCard) return reply(200, { code: 1, msg: '医院系统无法识别该患者' })
      if (body.items.some((i) => i.code === 'BAD')) return reply(200, { code: 0, data: { bills: [{ billNo: 'B1' }] } })
      const bills = made.get(body.requestNo) ?? [
        {
          billNo: `B${made.size + 1}`,
          visitNo: body.requestNo,
          visitDate: '2026-11-20',
          deptName: '自助开单',
          doctorName: '自助开单',
          title: '检验申请',
          category: 'lab' as const,
          place: '检验科采血处',
          status: 'unpaid' as const,
          amountFen: 2100 * body.items.length,
          orderedAt: '2026-11-20T02:00:00.000Z',
          performed: false,
          items: body.items.map((i) => ({ code: i.code, name: i.code, spec: '项', unit: '项', quantity: i.quantity, unitPriceFen: 2100, amountFen: 2100 })),
        },
      ]
      made.set(body.requestNo, bills)
      return reply(200, { code: 0, data: { bills } })
    })
  })
  return {
    calls,
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/his`
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

describe('the HIS adapter (httpHis): self-service orders against a stand-in of the documented contract', () => {
  const standIn = standInHis('app-self', 'secret-self')
  let his: ReturnType<typeof httpHis>
  const patient = { cardNo: null, idCard: '330102199001011234', name: '林晓燕' }

  before(async () => {
    his = httpHis({ url: await standIn.start(), appId: 'app-self', secret: 'secret-self' })
  })
  after(() => standIn.close())

  it('posts the signed request and answers the bills; the same requestNo answers the same bills', async () => {
    const items = [{ code: 'JY0001', quantity: 1 }]
    const first = await his.selfServiceOrder({ hospitalCode: H, patient, requestNo: 'ZZ0001', items })
    assert.equal(first.length, 1)
    assert.equal(first[0]!.status, 'unpaid')
    assert.deepEqual(standIn.calls.at(-1), { path: '/orders/self-service', body: { hospitalCode: H, patient, requestNo: 'ZZ0001', items } })
    assert.deepEqual(await his.selfServiceOrder({ hospitalCode: H, patient, requestNo: 'ZZ0001', items }), first)
  })

  it('passes the HIS’s refusal on for the patient to read, and treats an answer without its fields as a failure', async () => {
    await assert.rejects(
      his.selfServiceOrder({ hospitalCode: H, patient: { ...patient, idCard: null }, requestNo: 'ZZ0002', items: [{ code: 'JY0001', quantity: 1 }] }),
      (err: unknown) => err instanceof AppError && err.message === '医院系统无法识别该患者',
    )
    await assert.rejects(
      his.selfServiceOrder({ hospitalCode: H, patient, requestNo: 'ZZ0003', items: [{ code: 'BAD', quantity: 1 }] }),
      (err: unknown) => !(err instanceof AppError) && err instanceof Error && /without its fields/.test(err.message),
    )
  })
})
