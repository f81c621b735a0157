import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { randomInt } from 'node:crypto'
import WebSocket from 'ws'
import type { FastifyInstance } from 'fastify'
import { DEMO_STAFF_PASSWORD } from '../../server/src/config'
import type { SandboxHis } from '../../server/src/plugins/providers/hisSandbox'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import { priceCatalogue } from '../../server/src/seed/his'
import type { BillPayStart } from '../../types/api/palm'
import type { TodayQueue } from '../../types/api/queue'
import type { HisConsoleQueue, StaffSession } from '../../types/api/workbench'
import { assertBadInput, assertForbidden, assertUnauthorisedCall, callApi, idCardFor, signInUser, startTestApp, type Envelope, type Method, type TestApp } from './harness'
import { addPatient, confirmAtCashier, newKey } from './fixtures'

const A = '/dld-palm/api'
const P = '/dld-doctor/api'
const H = '10392'
const TODAY = `${A}/queue/today`

type Caller = { headers: Record<string, string> }
type User = Caller & { userId: number }
interface Person {
  patientId: number
  idCard: string
  name: string
}
type Frame = { op: string; id?: string; ok?: boolean; data?: unknown; error?: string } & Partial<TodayQueue>

let t: TestApp
let base = ''
let owner: User
let stranger: User
let desk: Caller
let ownerPerson: Person
let strangerPerson: Person

const call = <T = any>(method: Method, url: string, opts: { caller?: Caller; body?: unknown; query?: Record<string, string> } = {}) =>
  callApi<T>(t.app, method, url, opts) as Promise<Envelope<T>>
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date())
const catalogue = priceCatalogue(H)
const drugCode = () => catalogue.find((c) => c.category === 'drug')!.code

async function newPerson(user: User, name: string): Promise<Person> {
  const birth = `19${60 + randomInt(40)}0${1 + randomInt(9)}1${randomInt(10)}`
  const idCard = idCardFor(birth, String(randomInt(1000)).padStart(3, '0'), `33${String(10 + randomInt(89))}02`)
  const patientId = await addPatient(t, user.userId, { name, sex: 1, birthday: '1985-04-12', mobile: '13700000000', idCard })
  return { patientId, idCard, name }
}

/** A prescription for the person at the sandbox HIS, paid through the sandbox cashier: a number at the pharmacy. */
async function payPrescription(caller: Caller, p: Person) {
  const his = t.app.ctx.providers.his as SandboxHis
  const bills = await his.issueOrders({
    hospitalCode: H,
    patient: { cardNo: null, idCard: p.idCard, name: p.name },
    visitNo: `MZQUEUE${Date.now()}${randomInt(1000)}`,
    visitDate: today(),
    deptName: '呼吸与危重症医学科',
    doctorName: '测试医生',
    items: [{ code: drugCode(), quantity: 1 }],
  })
  const env = await call<BillPayStart>('POST', `${A}/payment/init`, {
    caller,
    body: { hospitalCode: H, patientId: p.patientId, billNos: bills.map((b) => b.billNo), returnUrl: '/h5/palm/payment/waitPay', idempotencyKey: newKey('bill') },
  })
  assert.equal(env.code, 200, env.msg)
  assert.ok(env.data.action && env.data.action.kind === 'redirect')
  assert.equal((await confirmAtCashier(t, env.data.action.url)).statusCode, 303)
  await (t.app.ctx.providers.pay.sandbox as SandboxPay).settled()
}

/** A socket of the app (the chat service's endpoint), its replies by id and its pushes. */
class Client {
  pushes: Frame[] = []
  private seq = 0
  private waiting = new Map<string, (f: Frame) => void>()
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      const f = JSON.parse(String(raw)) as Frame
      if (f.op === 'reply' && f.id && this.waiting.has(f.id)) {
        this.waiting.get(f.id)!(f)
        this.waiting.delete(f.id)
      } else this.pushes.push(f)
    })
  }

  static async of(user: User, at = base): Promise<Client> {
    const sig = (await call<{ userSig: string }>('GET', '/dld-im/im/user-sig', { caller: user })).data.userSig
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${at.replace('http', 'ws')}/dld-im/ws?sig=${encodeURIComponent(sig)}`)
      ws.once('open', () => resolve(new Client(ws)))
      ws.once('error', reject)
    })
  }

  request(f: Record<string, unknown>): Promise<Frame> {
    const id = `q${++this.seq}`
    return new Promise((resolve) => {
      this.waiting.set(id, resolve)
      this.ws.send(JSON.stringify({ ...f, id }))
    })
  }

  async pushed(ms = 3000): Promise<Frame | undefined> {
    const until = Date.now() + ms
    while (!this.pushes.length && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
    return this.pushes[0]
  }

  close() {
    this.ws.close()
  }
}

async function listen(app: FastifyInstance) {
  await app.listen({ port: 0, host: '127.0.0.1' })
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
}

/** The console's queue of a ticket's place and window. */
async function queueOf(place: string, window: string) {
  const env = await call<HisConsoleQueue[]>('GET', `${P}/his/queues`, { caller: desk })
  assert.equal(env.code, 200, env.msg)
  return env.data.find((q) => q.place === place && q.window === window)!
}

const callNext = async (queueId: number) => assert.equal((await call('POST', `${P}/his/queues/${queueId}/call`, { caller: desk })).code, 200)

before(async () => {
  t = await startTestApp()
  base = await listen(t.app)
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  ownerPerson = await newPerson(owner, '陈志强')
  strangerPerson = await newPerson(stranger, '刘秀英')
  const env = await call<StaffSession>('POST', `${P}/login`, { body: { login: '10392001', password: DEMO_STAFF_PASSWORD } })
  assert.equal(env.code, 200, env.msg)
  desk = { headers: { authorization: `Bearer ${env.data.token}` } }
})
after(async () => t.close())

describe('GET /dld-palm/api/queue/today', () => {
  it('asks who is calling', async () => {
    await assertUnauthorisedCall(t.app, 'GET', TODAY, { query: { hospitalCode: H } })
  })

  it('refuses a query without a hospital or with a malformed patient', async () => {
    assertBadInput(await call('GET', TODAY, { caller: owner }))
    assertBadInput(await call('GET', TODAY, { caller: owner, query: { hospitalCode: H, patientId: 'abc' } }))
  })

  it('refuses someone else’s patient (2999)', async () => {
    assertForbidden(await call('GET', TODAY, { caller: owner, query: { hospitalCode: H, patientId: String(strangerPerson.patientId) } }))
  })

  it('answers nothing before a bill is paid', async () => {
    const env = await call<TodayQueue>('GET', TODAY, { caller: owner, query: { hospitalCode: H, patientId: String(ownerPerson.patientId) } })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(env.data.tickets, [])
  })

  it('lists the number of a bill paid today with the place, window and who is ahead', async () => {
    await payPrescription(stranger, strangerPerson)
    await payPrescription(owner, ownerPerson)
    const env = await call<TodayQueue>('GET', TODAY, { caller: owner, query: { hospitalCode: H, patientId: String(ownerPerson.patientId) } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.tickets.length, 1)
    const [ticket] = env.data.tickets
    assert.equal(ticket!.kind, 'pharmacy')
    assert.equal(ticket!.status, 'waiting')
    assert.equal(ticket!.patientId, ownerPerson.patientId)
    assert.equal(ticket!.patientName, '陈*强')
    assert.match(ticket!.ticketNo, /^[A-Z]+\d{3}$/)
    assert.ok(ticket!.place && ticket!.window && ticket!.location)
    assert.ok(ticket!.guide.includes(ticket!.window))
    const queue = await queueOf(ticket!.place, ticket!.window)
    assert.equal(ticket!.ahead, queue.waiting - 1)
    // without a patient: every patient of the caller, never another user's
    const all = await call<TodayQueue>('GET', TODAY, { caller: owner, query: { hospitalCode: H } })
    assert.deepEqual(all.data.tickets, env.data.tickets)
    const theirs = await call<TodayQueue>('GET', TODAY, { caller: stranger, query: { hospitalCode: H } })
    assert.deepEqual(theirs.data.tickets.map((x) => x.patientId), [strangerPerson.patientId])
  })
})

describe('queue pushes on the chat socket ({op:"queue"})', () => {
  it('refuses a subscription to someone else’s patient', async () => {
    const phone = await Client.of(owner)
    const reply = await phone.request({ op: 'queue', hospitalCode: H, patientId: strangerPerson.patientId })
    assert.equal(reply.ok, false)
    assert.equal(reply.error, '暂无权限')
    phone.close()
  })

  it('pushes the new numbers to the patient when the window calls, on another server process too, and nothing to others', async () => {
    const twin = await t.twin()
    const twinBase = await listen(twin.app)
    const phone = await Client.of(owner, twinBase) // on the other process: the call is made on this one
    const bystander = await Client.of(stranger)
    const subscribed = await phone.request({ op: 'queue', hospitalCode: H, patientId: ownerPerson.patientId })
    assert.equal(subscribed.ok, true, subscribed.error)
    const before = (subscribed.data as TodayQueue).tickets[0]!
    // the stranger waits in the pharmacy too, but maybe at another window: give them a queue of their own to watch
    const theirs = (await call<TodayQueue>('GET', TODAY, { caller: stranger, query: { hospitalCode: H } })).data.tickets[0]!
    assert.equal((await bystander.request({ op: 'queue', hospitalCode: H })).ok, true)

    const queue = await queueOf(before.place, before.window)
    await callNext(queue.id)
    const push = await phone.pushed()
    assert.ok(push, 'a push after the call')
    assert.equal(push.op, 'queueChanged')
    assert.equal(push.hospitalCode, H)
    const after = push.tickets![0]!
    assert.equal(after.ticketNo, before.ticketNo)
    if (before.ahead > 0) assert.equal(after.ahead, before.ahead - 1)
    else assert.equal(after.status, 'called')
    // what the page would read is what was pushed
    const now = await call<TodayQueue>('GET', TODAY, { caller: owner, query: { hospitalCode: H, patientId: String(ownerPerson.patientId) } })
    assert.deepEqual(now.data.tickets, push.tickets)

    const sameQueue = theirs.place === before.place && theirs.window === before.window
    if (!sameQueue) assert.equal(await bystander.pushed(500), undefined, 'another user’s queue did not move')
    else assert.equal((await bystander.pushed())!.tickets![0]!.patientId, strangerPerson.patientId, 'only their own numbers')

    // unsubscribed: nothing more
    assert.equal((await phone.request({ op: 'unqueue' })).ok, true)
    phone.pushes.length = 0
    await callNext(queue.id)
    assert.equal(await phone.pushed(500), undefined)
    phone.close()
    bystander.close()
    await twin.close()
  })

  it('pushes nothing to a doctor’s connection, which cannot subscribe', async () => {
    const { localSig } = await import('../../server/src/plugins/providers/im')
    const sig = localSig(t.config.secret, 'd_1', Math.floor(Date.now() / 1000) + 600)
    const ws = new WebSocket(`${base.replace('http', 'ws')}/dld-im/ws?sig=${encodeURIComponent(sig)}`)
    await new Promise((r) => ws.once('open', r))
    const reply = await new Promise<Frame>((resolve) => {
      ws.on('message', (raw) => resolve(JSON.parse(String(raw)) as Frame))
      ws.send(JSON.stringify({ op: 'queue', id: 'x', hospitalCode: H }))
    })
    assert.equal(reply.ok, false)
    ws.close()
  })
})
