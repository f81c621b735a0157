import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { deflateSync } from 'node:zlib'
import { eq, sql } from 'drizzle-orm'
import { accompanies, healthCardCodes, patientCards, patients } from '../../server/src/db/schema'
import { DEMO_CARDS_DIR } from '../../server/src/routes/sandbox/healthCard'
import { SANDBOX_HEALTH_CARD_HOLDERS } from '../../server/src/plugins/providers/healthCard'
import { renderSVG } from 'uqr'
import { startTestApp, signInWechat, signInUser, envelopeOf, randomIp, DEMO, type Envelope, type TestApp, assertBadInput, assertForbidden } from './harness'

/** Collects what the server logs. */
class LogCapture extends Writable {
  lines: string[] = []
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void) {
    this.lines.push(chunk.toString('utf8'))
    done()
  }
  get text() {
    return this.lines.join('')
  }
}

type Caller = { headers: Record<string, string>; userId?: number; ip?: string }

const log = new LogCapture()
let t: TestApp
let owner: Caller

before(async () => {
  t = await startTestApp({ config: { logLevel: 'info' }, logStream: log })
  owner = await signInUser(t.app)
})
after(() => t.close())

// ---- people made up for this file ------------------------------------------------------------------------------

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
const checkChar = (first17: string) => '10X98765432'[[...first17].reduce((s, d, i) => s + Number(d) * WEIGHTS[i]!, 0) % 11]!
/** Every identity number this file sends, so the log and the table can be searched for them afterwards. */
const USED_IDS = new Set<string>()
const USED_NAMES = new Set<string>()
const USED_MOBILES = new Set<string>()
const named = (...names: string[]) => names.forEach((n) => USED_NAMES.add(n))
let serial = 0

/** A valid 18-character identity number born on `birth` (YYYYMMDD); odd 17th digit male. */
function newIdCard(birth = '19900307', male = true): string {
  serial += 1
  const seq = String(((serial * 2) % 1000) + (male ? 1 : 0)).padStart(3, '0')
  const first17 = `110101${birth}${seq}`
  const id = first17 + checkChar(first17)
  USED_IDS.add(id)
  return id
}
function newMobile(): string {
  const m = `135${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`
  USED_MOBILES.add(m)
  return m
}
const NAMES = ['陈静怡', '刘德华', '黄志强', '周晓燕', '吴建国', '徐丽娟', '孙浩然', '马文博', '朱雅琴', '胡海峰', '郭晓东', '何美玲', '高文杰', '林雨桐', '罗志伟', '郑秀兰', '梁思远', '谢婉清', '宋子豪', '唐雅婷']
function newName(): string {
  const name = NAMES[serial % NAMES.length]! + ['', '明', '华', '平'][Math.floor(serial / NAMES.length) % 4]!
  serial += 1
  USED_NAMES.add(name)
  return name
}
const yearsAgo = (years: number, monthDay = '01-01') => `${new Date().getFullYear() - years}-${monthDay}`
const compact = (date: string) => date.replace(/-/g, '')
/** The same number with a wrong check character. */
const badChecksum = (id: string) => id.slice(0, 17) + (id[17] === '0' ? '1' : '0')

// ---- calls, as the app makes them (identity numbers base64-encoded, spec §3) ----------------------------------

const SENSITIVE = new Set(['idCard', 'guardianIdCard', 'hisMedCardNo'])
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64')
const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8')
function encode(body: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, SENSITIVE.has(k) && typeof v === 'string' && v ? b64(v) : v]))
}
/** What the app's request layer does to an answer: sensitive fields decoded. */
function decode<T>(value: T): T {
  if (Array.isArray(value)) return value.map(decode) as T
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SENSITIVE.has(k) && typeof v === 'string' && v ? unb64(v) : decode(v)]),
    ) as T
  }
  return value
}

async function call<T = any>(method: 'GET' | 'POST', url: string, opts: { caller?: Caller; body?: Record<string, unknown>; query?: Record<string, string> } = {}) {
  const res = await t.app.inject({
    method,
    url,
    headers: opts.caller?.headers ?? {},
    remoteAddress: randomIp(),
    ...(opts.query ? { query: opts.query } : {}),
    ...(opts.body ? { payload: encode(opts.body) } : {}),
  })
  const env = envelopeOf<T>(res)
  return { ...env, data: decode(env.data) } as Envelope<T>
}

interface PatientView {
  id: number
  name: string
  idCard: string
  mobile: string
  sex: 1 | 2
  sexText: string
  birthday: string
  age: number
  relation: string
  source: string
  neonate: boolean
  isDefault: boolean
  hisMedCardNo: string
  complete: boolean
  missing: string[]
  guardianName?: string
  guardianIdCard?: string
}

const P = '/dld-palm/api/patient'

async function patientSmsCode(mobile: string, caller: Caller = owner): Promise<string> {
  const env = await call<{ devCode: string }>('POST', '/dld-auth/token/smsBindCode', { caller, body: { mobile, purpose: 'patient' } })
  assert.equal(env.code, 200, env.msg)
  return env.data.devCode
}

/** Binds by identity card with a fresh mobile and its code unless the body says otherwise. */
async function bind(body: Record<string, unknown>, caller: Caller = owner) {
  const mobile = (body.mobile as string | undefined) ?? newMobile()
  const code = body.code ?? (await patientSmsCode(mobile, caller))
  return call<PatientView>('POST', `${P}/bind`, { caller, body: { relation: '其他', ...body, mobile, code } })
}

async function bindOk(body: Record<string, unknown> = {}, caller: Caller = owner) {
  const idCard = (body.idCard as string | undefined) ?? newIdCard()
  const name = (body.name as string | undefined) ?? newName()
  const env = await bind({ ...body, idCard, name }, caller)
  assert.equal(env.code, 200, env.msg)
  return { ...env.data, plainIdCard: idCard, plainName: name }
}

const list = (caller: Caller = owner, hospitalCode?: string) =>
  call<PatientView[]>('GET', `${P}/list`, { caller, ...(hospitalCode ? { query: { hospitalCode } } : {}) })
const listIds = async (caller: Caller = owner) => (await list(caller)).data.map((p) => p.id)
const detail = (id: number, caller: Caller = owner) => call<PatientView>('GET', `${P}/${id}`, { caller })

/** A signed-in user with no patients yet. */
const freshUser = () => signInUser(t.app)

function assertDenied(env: Envelope, expected: 401 | 403) {
  assert.equal(env.code, expected)
  assert.equal(env.data, null)
  if (expected === 403) assert.equal(env.msg, '请先绑定手机号')
}

async function assertUnauthorised(method: 'GET' | 'POST', url: string, opts: { body?: Record<string, unknown>; query?: Record<string, string> } = {}) {
  assertDenied(await call(method, url, opts), 401)
  const identity = await signInWechat(t.app)
  assertDenied(await call(method, url, { ...opts, caller: identity }), 403)
}



const INCOMPLETE = '当前就诊人信息不完整，请先完善就诊人信息。'

// ---- the SMS code purpose -------------------------------------------------------------------------------------

describe('POST /dld-auth/token/smsBindCode (purpose)', () => {
  it('refuses an unknown purpose', async () => {
    const env = await call('POST', '/dld-auth/token/smsBindCode', { caller: owner, body: { mobile: newMobile(), purpose: 'login' } })
    assertBadInput(env, /^参数错误：purpose/)
  })

  it("a 'bind' code does not bind a patient, a 'patient' code does", async () => {
    const u = await freshUser()
    const mobile = newMobile()
    const bindCode = await call<{ devCode: string }>('POST', '/dld-auth/token/smsBindCode', { caller: u, body: { mobile } })
    assert.equal(bindCode.code, 200)
    const refused = await bind({ idCard: newIdCard(), name: newName(), mobile, code: bindCode.data.devCode }, u)
    assertBadInput(refused, '验证码已失效，请重新获取')
    assert.deepEqual(await listIds(u), [])
  })
})

// ---- binding by identity card -------------------------------------------------------------------------------

describe('POST /dld-palm/api/patient/bind (new patient)', () => {
  it('answers 401 without a token and 403 to an identity without a bound mobile', async () => {
    await assertUnauthorised('POST', `${P}/bind`, { body: { name: newName(), idCard: newIdCard(), mobile: newMobile(), code: '123456', relation: '其他' } })
  })

  it('refuses bad input with the reason, and binds nothing', async () => {
    const u = await freshUser()
    const good = { name: newName(), idCard: newIdCard(), relation: '其他' }
    const valid = newIdCard()
    const cases: [Record<string, unknown>, RegExp | string][] = [
      [{ ...good, idCard: valid.slice(0, 17) }, /^参数错误：idCard 身份证号码不正确$/],
      [{ ...good, idCard: `${valid}0` }, /身份证号码不正确/],
      [{ ...good, idCard: badChecksum(valid) }, /身份证号码不正确/],
      [{ ...good, idCard: '11010119900230123X' }, /身份证号码不正确/], // 30 February
      [{ ...good, idCard: `110101${new Date().getFullYear() + 1}0101001` + checkChar(`110101${new Date().getFullYear() + 1}0101001`) }, /身份证号码不正确/],
      [{ ...good, idCard: 12345 }, /^参数错误：idCard/],
      [{ ...good, name: '' }, /^参数错误：name 请输入姓名$/],
      [{ ...good, name: '   ' }, /请输入姓名/],
      [{ ...good, name: '张'.repeat(200) }, /姓名不能超过20个字/],
      [{ ...good, name: 'Tom Lee' }, /姓名只能包含汉字和“·”/],
      [{ ...good, name: '<script>' }, /姓名只能包含汉字和“·”/],
      [{ ...good, relation: '邻居' }, '与就诊人关系不正确'],
      [{ ...good, relation: '' }, /请选择与就诊人的关系/],
      [{ ...good, mobile: '1234', code: '123456' }, /手机号格式不正确/],
      [{ ...good, code: '12ab56' }, /请输入6位验证码/],
      [{ ...good, isDefault: 'maybe' }, /^参数错误：isDefault/],
      [{ ...good, source: 'camera' }, /^参数错误：source/],
      [{ ...good, hospitalCode: 'x'.repeat(40) }, /^参数错误：hospitalCode/],
    ]
    for (const [body, message] of cases) assertBadInput(await bind(body, u), message)
    assert.deepEqual(await listIds(u), [])
  })

  it('binds from a form-encoded body, as the app sends it (spec §8), with the identity number base64-encoded', async () => {
    const u = await freshUser()
    const mobile = newMobile()
    const idCard = newIdCard()
    const name = newName()
    const code = await patientSmsCode(mobile, u)
    const res = await t.app.inject({
      method: 'POST',
      url: `${P}/bind`,
      headers: { ...u.headers, 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress: randomIp(),
      payload: new URLSearchParams({ name, idCard: b64(idCard), mobile, code, relation: '其他' }).toString(),
    })
    const env = envelopeOf<PatientView>(res)
    assert.equal(env.code, 200, env.msg)
    assert.equal(unb64(env.data.idCard).slice(-4), idCard.slice(-4))
    assert.deepEqual(await listIds(u), [env.data.id])
  })

  it('refuses a wrong SMS code and binds nothing; the right code still works after it', async () => {
    const u = await freshUser()
    const mobile = newMobile()
    const code = await patientSmsCode(mobile, u)
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0')
    const idCard = newIdCard()
    const name = newName()
    assertBadInput(await bind({ idCard, name, mobile, code: wrong }, u), '验证码错误')
    assert.deepEqual(await listIds(u), [])
    const ok = await bind({ idCard, name, mobile, code }, u)
    assert.equal(ok.code, 200)
    // a code works once
    const other = await bind({ idCard: newIdCard(), name: newName(), mobile, code }, u)
    assertBadInput(other, '验证码已失效，请重新获取')
  })

  it("needs no second code for the account's own verified mobile; any other mobile still needs its code", async () => {
    const u = await freshUser()
    const other = newMobile()
    // another mobile without a code: refused, nothing bound
    for (const code of [undefined, '']) {
      const refused = await call('POST', `${P}/bind`, { caller: u, body: { name: newName(), idCard: newIdCard(), mobile: other, relation: '其他', ...(code === undefined ? {} : { code }) } })
      assertBadInput(refused, '请输入验证码')
    }
    assert.deepEqual(await listIds(u), [])
    // the mobile the holder verified when binding the account: bound at once, no code asked
    const self = await call<PatientView>('POST', `${P}/bind`, { caller: u, body: { name: newName(), idCard: newIdCard(), mobile: u.mobile, relation: '本人' } })
    assert.equal(self.code, 200, self.msg)
    assert.deepEqual(await listIds(u), [self.data.id])
    // someone else's account mobile is not this account's: it needs its code
    const stranger = await freshUser()
    assertBadInput(await call('POST', `${P}/bind`, { caller: u, body: { name: newName(), idCard: newIdCard(), mobile: stranger.mobile, relation: '其他' } }), '请输入验证码')
    // changing a patient's mobile to the account's own needs no code either
    const child = await bindOk({}, u)
    const changed = await call<PatientView>('POST', `${P}/bind`, { caller: u, body: { id: child.id, mobile: u.mobile } })
    assert.equal(changed.code, 200, changed.msg)
    assert.equal(changed.data.mobile, u.mobile)
  })

  it('binds: sex and birthday come from the number only, the first patient is default, the answer is masked', async () => {
    named('欧阳娜娜')
    const u = await freshUser()
    const idCard = newIdCard('19850615', false)
    const mobile = newMobile()
    const env = await bind({ name: '欧阳娜娜', idCard, mobile, relation: '本人', sex: 1, birthday: '2000-01-01', age: 3 }, u)
    assert.equal(env.code, 200, env.msg)
    const p = env.data
    assert.equal(p.sex, 2)
    assert.equal(p.sexText, '女')
    assert.equal(p.birthday, '1985-06-15')
    assert.ok(p.age >= 39)
    assert.equal(p.name, '欧**娜')
    assert.equal(p.idCard, `${idCard.slice(0, 6)}********${idCard.slice(-4)}`)
    assert.equal(p.mobile, `${mobile.slice(0, 3)}****${mobile.slice(-4)}`)
    assert.equal(p.relation, '本人')
    assert.equal(p.source, 'idCard')
    assert.equal(p.isDefault, true)
    assert.equal(p.complete, true)
    assert.deepEqual(p.missing, [])
    assert.equal(p.neonate, false)
    assert.equal(p.hisMedCardNo, '')
  })

  it('accepts a 15-digit number and a lowercase x, and keeps the check character upper case', async () => {
    const u = await freshUser()
    const fifteen = '110101880307452' // 1988-03-07, even last digit: female
    USED_IDS.add(fifteen)
    const a = await bindOk({ idCard: fifteen }, u)
    assert.equal(a.birthday, '1988-03-07')
    assert.equal(a.sex, 2)
    let withX = newIdCard()
    while (!withX.endsWith('X')) withX = newIdCard()
    const b = await bindOk({ idCard: withX.toLowerCase() }, u)
    assert.ok(b.idCard.endsWith(withX.slice(-4)))
    assert.equal((await detail(b.id, u)).data.idCard, withX)
  })

  it('binds a person once per account (409), but another account may bind them too', async () => {
    const u = await freshUser()
    const idCard = newIdCard()
    await bindOk({ idCard }, u)
    const again = await bind({ idCard, name: newName() }, u)
    assert.equal(again.code, 409)
    assert.equal(again.msg, '该就诊人已绑定')
    assert.equal(again.data, null)
    assert.equal((await listIds(u)).length, 1)
    const v = await freshUser()
    await bindOk({ idCard }, v)
  })

  it('allows one “本人” per account', async () => {
    const u = await freshUser()
    await bindOk({ relation: '本人' }, u)
    const second = await bind({ idCard: newIdCard(), name: newName(), relation: '本人' }, u)
    assert.equal(second.code, 409)
    assert.equal(second.msg, '已绑定“本人”，请选择其他关系')
    assert.equal((await listIds(u)).length, 1)
  })

  it('isDefault moves the default; exactly one default remains', async () => {
    const u = await freshUser()
    const a = await bindOk({}, u)
    const b = await bindOk({}, u)
    assert.equal(b.isDefault, false)
    const c = await bindOk({ isDefault: 'true' }, u)
    assert.equal(c.isDefault, true)
    const rows = (await list(u)).data
    assert.deepEqual(rows.map((p) => [p.id, p.isDefault]), [[c.id, true], [a.id, false], [b.id, false]])
  })

  it(`binds at most 5 patients per account`, async () => {
    const u = await freshUser()
    for (let i = 0; i < 5; i++) await bindOk({}, u)
    const sixth = await bind({ idCard: newIdCard(), name: newName() }, u)
    assertBadInput(sixth, '最多绑定5位就诊人')
    assert.equal((await listIds(u)).length, 5)
  })

  it('concurrent binds cannot pass the limit', async () => {
    const u = await freshUser()
    for (let i = 0; i < 3; i++) await bindOk({}, u)
    const bodies = await Promise.all(
      [0, 1, 2, 3].map(async () => {
        const mobile = newMobile()
        return { idCard: newIdCard(), name: newName(), relation: '其他', mobile, code: await patientSmsCode(mobile, u) }
      }),
    )
    const results = await Promise.all(bodies.map((body) => call('POST', `${P}/bind`, { caller: u, body })))
    assert.equal(results.filter((r) => r.code === 200).length, 2)
    for (const r of results.filter((r) => r.code !== 200)) assertBadInput(r, '最多绑定5位就诊人')
    const rows = (await list(u)).data
    assert.equal(rows.length, 5)
    assert.equal(rows.filter((p) => p.isDefault).length, 1)
  })

  it('files the patient at a hospital at once when hospitalCode is given; an unknown hospital is 404', async () => {
    const u = await freshUser()
    const p = await bindOk({ hospitalCode: DEMO.both.code }, u)
    assert.match(p.hisMedCardNo, new RegExp(`^${DEMO.both.code}\\d{8}$`))
    const there = (await list(u, DEMO.both.code)).data[0]!
    assert.equal(there.hisMedCardNo, p.hisMedCardNo)
    assert.equal((await list(u, DEMO.palm.code)).data[0]!.hisMedCardNo, '')
    const unknown = await bind({ idCard: newIdCard(), name: newName(), hospitalCode: '99999' }, u)
    assert.equal(unknown.code, 404)
    assert.equal(unknown.msg, '医院不存在')
    assert.equal((await listIds(u)).length, 1)
  })
})

// ---- completing and editing -----------------------------------------------------------------------------------

describe('POST /dld-palm/api/patient/bind (with id: complete or edit)', () => {
  it('answers 401 and 403', async () => {
    await assertUnauthorised('POST', `${P}/bind`, { body: { id: 1, relation: '父母' } })
  })

  it("answers 2999 for someone else's patient, a missing one, or an unbound one, and changes nothing", async () => {
    const u = await freshUser()
    const theirs = await bindOk({ relation: '配偶' }, u)
    for (const id of [theirs.id, 999999]) assertForbidden(await call('POST', `${P}/bind`, { caller: owner, body: { id, relation: '父母' } }))
    assert.equal((await detail(theirs.id, u)).data.relation, '配偶')
    const mine = await bindOk({}, owner)
    await call('POST', `${P}/unbind/${mine.id}`, { caller: owner })
    assertForbidden(await call('POST', `${P}/bind`, { caller: owner, body: { id: mine.id, relation: '父母' } }))
  })

  it('refuses bad input with the reason and changes nothing', async () => {
    const u = await freshUser()
    const p = await bindOk({ relation: '其他' }, u)
    const before = (await detail(p.id, u)).data
    const cases: [Record<string, unknown>, RegExp | string][] = [
      [{ id: 'abc' }, /^参数错误：id/],
      [{ id: -1 }, /^参数错误：id/],
      [{ id: p.id, name: '张'.repeat(200) }, /姓名不能超过20个字/],
      [{ id: p.id, idCard: '1234567890' }, /身份证号码不正确/],
      [{ id: p.id, relation: '邻居' }, '与就诊人关系不正确'],
      [{ id: p.id, mobile: '12' }, /手机号格式不正确/],
      [{ id: p.id, mobile: newMobile() }, '请输入验证码'],
      [{ id: p.id, name: '王五' }, '姓名和身份证号不可修改'],
      [{ id: p.id, idCard: newIdCard() }, '姓名和身份证号不可修改'],
      [{ id: p.id, guardianName: '王大', guardianIdCard: newIdCard('19700101') }, '仅无身份证的儿童需要填写监护人信息'],
    ]
    for (const [body, message] of cases) assertBadInput(await call('POST', `${P}/bind`, { caller: u, body }), message)
    assert.deepEqual((await detail(p.id, u)).data, before)
  })

  it('accepts the unchanged name and number back, changes the relation and (with its code) the mobile; answers whole', async () => {
    const u = await freshUser()
    const p = await bindOk({ relation: '其他' }, u)
    const mobile = newMobile()
    const code = await patientSmsCode(mobile, u)
    const env = await call<PatientView>('POST', `${P}/bind`, {
      caller: u,
      body: { id: p.id, name: p.plainName, idCard: p.plainIdCard, relation: '父母', mobile, code, guardianName: '', guardianIdCard: '' },
    })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.name, p.plainName)
    assert.equal(env.data.idCard, p.plainIdCard)
    assert.equal(env.data.mobile, mobile)
    assert.equal(env.data.relation, '父母')
    assert.equal(env.data.guardianName, '')
  })

  it('refuses a second “本人” by edit', async () => {
    const u = await freshUser()
    await bindOk({ relation: '本人' }, u)
    const p = await bindOk({ relation: '其他' }, u)
    const env = await call('POST', `${P}/bind`, { caller: u, body: { id: p.id, relation: '本人' } })
    assert.equal(env.code, 409)
    assert.equal((await detail(p.id, u)).data.relation, '其他')
  })

  it("changes a child's guardian, and refuses a guardian under 18", async () => {
    const u = await freshUser()
    const child = await bindNeonateOk({}, u)
    const young = await call('POST', `${P}/bind`, { caller: u, body: { id: child.id, guardianIdCard: newIdCard(compact(yearsAgo(16))) } })
    assertBadInput(young, '监护人须年满18周岁')
    const guardianIdCard = newIdCard('19750101', false)
    named('林美华')
    const env = await call<PatientView>('POST', `${P}/bind`, { caller: u, body: { id: child.id, guardianName: '林美华', guardianIdCard } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.guardianName, '林美华')
    assert.equal(env.data.guardianIdCard, guardianIdCard)
  })
})

// ---- a child without an identity card -------------------------------------------------------------------------

async function bindNeonate(body: Record<string, unknown>, caller: Caller = owner) {
  const mobile = (body.mobile as string | undefined) ?? newMobile()
  const code = body.code ?? (await patientSmsCode(mobile, caller))
  return call<PatientView>('POST', `${P}/bind/neonate`, {
    caller,
    body: { name: newName(), sex: 1, birthday: yearsAgo(1, '03-04'), guardianName: '陈建国', guardianIdCard: newIdCard('19880808'), ...body, mobile, code },
  })
}
async function bindNeonateOk(body: Record<string, unknown> = {}, caller: Caller = owner) {
  const env = await bindNeonate(body, caller)
  assert.equal(env.code, 200, env.msg)
  return env.data
}

describe('POST /dld-palm/api/patient/bind/neonate', () => {
  it('answers 401 and 403', async () => {
    await assertUnauthorised('POST', `${P}/bind/neonate`, {
      body: { name: '小宝', sex: 1, birthday: yearsAgo(1), guardianName: '陈建国', guardianIdCard: newIdCard(), mobile: newMobile(), code: '123456' },
    })
  })

  it('refuses bad input with the reason and binds nothing', async () => {
    const u = await freshUser()
    const tomorrow = new Date(Date.now() + 86_400_000)
    const future = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`
    const cases: [Record<string, unknown>, RegExp | string][] = [
      [{ sex: 'x' }, /^参数错误：sex/],
      [{ sex: 3 }, /请选择性别/],
      [{ birthday: future }, '出生日期不能晚于今天'],
      [{ birthday: '2024-02-30' }, '出生日期不正确'],
      [{ birthday: '20240101' }, /出生日期格式应为YYYY-MM-DD/],
      [{ birthday: yearsAgo(7) }, '6岁及以上儿童请使用身份证绑定'],
      [{ guardianIdCard: newIdCard(compact(yearsAgo(17))) }, '监护人须年满18周岁'],
      [{ guardianIdCard: badChecksum(newIdCard('19800101')) }, /监护人身份证号码不正确/],
      [{ guardianName: '' }, /请输入监护人姓名/],
      [{ name: '' }, /请输入姓名/],
      [{ name: '宝'.repeat(200) }, /姓名不能超过20个字/],
      [{ relation: '本人' }, '儿童就诊人不能选择“本人”'],
      [{ relation: '邻居' }, '与就诊人关系不正确'],
    ]
    for (const [body, message] of cases) assertBadInput(await bindNeonate(body, u), message)
    assert.deepEqual(await listIds(u), [])
  })

  it('binds a child under its guardian: no identity number, relation 子女 by default, complete', async () => {
    named('陈小宝', '陈建国')
    const u = await freshUser()
    const guardianIdCard = newIdCard('19880808')
    const birthday = yearsAgo(2)
    const child = await bindNeonateOk({ name: '陈小宝', sex: 2, birthday, guardianName: '陈建国', guardianIdCard }, u)
    assert.equal(child.name, '陈*宝')
    assert.equal(child.idCard, '')
    assert.equal(child.sex, 2)
    assert.equal(child.birthday, birthday)
    assert.equal(child.age, 2)
    assert.equal(child.relation, '子女')
    assert.equal(child.source, 'neonate')
    assert.equal(child.neonate, true)
    assert.equal(child.complete, true)
    const whole = (await detail(child.id, u)).data
    assert.equal(whole.guardianName, '陈建国')
    assert.equal(whole.guardianIdCard, guardianIdCard)
    // the same child under the same guardian is the same person
    const again = await bindNeonate({ name: '陈小宝', sex: 2, birthday, guardianName: '陈建国', guardianIdCard }, u)
    assert.equal(again.code, 409)
    assert.equal(again.msg, '该就诊人已绑定')
  })
})

// ---- electronic health card ------------------------------------------------------------------------------------

const RETURN_PAGE = '/pages/addPatient/index?from=card'

/** The sandbox page flow a browser walks: refreshUrl -> authorise page -> choose a card -> back with healthCode. */
async function healthCode(holderName: string, caller: Caller = owner): Promise<string> {
  const urlEnv = await call<{ url: string }>('POST', '/thirdParty/tencent-EHealth/refreshUrl', { caller, body: { hospitalCode: DEMO.both.code, redirect: RETURN_PAGE } })
  assert.equal(urlEnv.code, 200, urlEnv.msg)
  const pageRes = await t.app.inject({ method: 'GET', url: urlEnv.data.url })
  assert.equal(pageRes.statusCode, 200)
  assert.match(pageRes.headers['content-type'] as string, /text\/html/)
  assert.ok(pageRes.body.includes(holderName))
  const holder = SANDBOX_HEALTH_CARD_HOLDERS.find((h) => h.name === holderName)!
  const target = new URL(urlEnv.data.url, 'http://localhost')
  const chosen = await t.app.inject({
    method: 'POST',
    url: '/sandbox/ehealth/authorize',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ hospitalCode: target.searchParams.get('hospitalCode')!, redirect: target.searchParams.get('redirect')!, holder: holder.healthCardId }).toString(),
  })
  assert.equal(chosen.statusCode, 302)
  const back = new URL(String(chosen.headers.location), 'http://localhost')
  assert.equal(back.pathname, '/h5/pages/addPatient/index')
  assert.equal(back.searchParams.get('from'), 'card')
  const code = back.searchParams.get('healthCode')
  assert.ok(code)
  return code
}

describe('POST /thirdParty/tencent-EHealth/refreshUrl', () => {
  it('answers 401 without a token; a signed-in identity without a mobile may ask', async () => {
    assertDenied(await call('POST', '/thirdParty/tencent-EHealth/refreshUrl', { body: { hospitalCode: DEMO.both.code, redirect: RETURN_PAGE } }), 401)
    const identity = await signInWechat(t.app)
    const env = await call<{ url: string }>('POST', '/thirdParty/tencent-EHealth/refreshUrl', { caller: identity, body: { hospitalCode: DEMO.both.code, redirect: RETURN_PAGE } })
    assert.equal(env.code, 200)
    const url = new URL(env.data.url, 'http://localhost')
    assert.equal(url.pathname, '/sandbox/ehealth/authorize')
    assert.equal(url.searchParams.get('redirect'), RETURN_PAGE)
    assert.equal(url.searchParams.get('hospitalCode'), DEMO.both.code)
  })

  it('refuses a redirect that is not an app page, and an unknown hospital', async () => {
    for (const redirect of ['https://evil.example/pages/x', '//evil.example/pages/x', '/pages/../../etc', 'pages/addPatient/index', '/admin/index', '/pages\\x', 'javascript:alert(1)', '']) {
      assertBadInput(await call('POST', '/thirdParty/tencent-EHealth/refreshUrl', { caller: owner, body: { hospitalCode: DEMO.both.code, redirect } }), /^参数错误：redirect/)
    }
    const unknown = await call('POST', '/thirdParty/tencent-EHealth/refreshUrl', { caller: owner, body: { hospitalCode: '99999', redirect: RETURN_PAGE } })
    assert.equal(unknown.code, 404)
  })

  it('the sandbox page refuses a foreign redirect too', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/sandbox/ehealth/authorize', query: { hospitalCode: DEMO.both.code, redirect: 'https://evil.example/' } })
    assert.equal(page.statusCode, 400)
    const post = await t.app.inject({
      method: 'POST',
      url: '/sandbox/ehealth/authorize',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ hospitalCode: DEMO.both.code, redirect: '//evil.example/x', holder: SANDBOX_HEALTH_CARD_HOLDERS[0]!.healthCardId }).toString(),
    })
    assert.equal(post.statusCode, 400)
    assert.equal(post.headers.location, undefined)
  })
})

describe('POST /dld-palm/api/patient/bind/eHealth', () => {
  it('answers 401 and 403', async () => {
    await assertUnauthorised('POST', `${P}/bind/eHealth`, { body: { healthCode: 'x', relation: '其他' } })
  })

  it('refuses bad input, and a code the provider never issued', async () => {
    const u = await freshUser()
    assertBadInput(await call('POST', `${P}/bind/eHealth`, { caller: u, body: { healthCode: '', relation: '其他' } }), /健康卡授权码不能为空/)
    assertBadInput(await call('POST', `${P}/bind/eHealth`, { caller: u, body: { healthCode: 'abc', relation: '邻居' } }), '与就诊人关系不正确')
    assertBadInput(await call('POST', `${P}/bind/eHealth`, { caller: u, body: { healthCode: 'made-up', relation: '其他' } }), '健康卡授权已失效，请重新授权')
    assert.deepEqual(await listIds(u), [])
  })

  it('binds the holder the person chose on the authorisation page; the code works once', async () => {
    const u = await freshUser()
    const code = await healthCode('王小明', u)
    const env = await call<PatientView>('POST', `${P}/bind/eHealth`, { caller: u, body: { healthCode: code, relation: '本人' } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.name, '王*明')
    assert.equal(env.data.source, 'eHealth')
    assert.equal(env.data.sex, 1)
    assert.equal(env.data.birthday, '1985-11-03')
    assert.equal(env.data.complete, true)
    assert.equal(env.data.mobile, '136****0001')
    const reuse = await call('POST', `${P}/bind/eHealth`, { caller: u, body: { healthCode: code, relation: '其他' } })
    assertBadInput(reuse, '健康卡授权已失效，请重新授权')
    assert.equal((await listIds(u)).length, 1)
  })

  it('refuses an expired code', async () => {
    const u = await freshUser()
    const code = await healthCode('王小明', u)
    await t.database.db.update(healthCardCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(sql`${healthCardCodes.usedAt} is null`)
    assertBadInput(await call('POST', `${P}/bind/eHealth`, { caller: u, body: { healthCode: code, relation: '其他' } }), '健康卡授权已失效，请重新授权')
  })

  it('a card without a mobile gives an incomplete patient, which cannot be filed until completed', async () => {
    const u = await freshUser()
    const code = await healthCode('赵丽', u)
    const env = await call<PatientView>('POST', `${P}/bind/eHealth`, { caller: u, body: { healthCode: code, relation: '配偶', hospitalCode: DEMO.both.code } })
    assert.equal(env.code, 200, env.msg)
    const p = env.data
    assert.equal(p.complete, false)
    assert.deepEqual(p.missing, ['mobile'])
    assert.equal(p.mobile, '')
    assert.equal(p.hisMedCardNo, '') // not filed: incomplete
    const filing = await call('GET', `${P}/hospital/patient/bind`, { caller: u, query: { id: String(p.id), hospitalCode: DEMO.both.code } })
    assertBadInput(filing, INCOMPLETE)
    // completion: the mobile with its code
    const mobile = newMobile()
    const done = await call<PatientView>('POST', `${P}/bind`, { caller: u, body: { id: p.id, mobile, code: await patientSmsCode(mobile, u) } })
    assert.equal(done.code, 200, done.msg)
    assert.equal(done.data.complete, true)
    assert.equal(done.data.mobile, mobile)
    assert.equal((await call('GET', `${P}/hospital/patient/bind`, { caller: u, query: { id: String(p.id), hospitalCode: DEMO.both.code } })).code, 200)
  })

  it('the same card holder cannot be bound twice to one account', async () => {
    const u = await freshUser()
    assert.equal((await call('POST', `${P}/bind/eHealth`, { caller: u, body: { healthCode: await healthCode('王小明', u), relation: '其他' } })).code, 200)
    const again = await call('POST', `${P}/bind/eHealth`, { caller: u, body: { healthCode: await healthCode('王小明', u), relation: '其他' } })
    assert.equal(again.code, 409)
    assert.equal(again.msg, '该就诊人已绑定')
  })
})

describe('GET /dld-hospital/jkt/photoUrl', () => {
  const QR = '/dld-hospital/jkt/photoUrl'

  it('answers 401 and 403', async () => {
    await assertUnauthorised('GET', QR, { query: { patientId: '1', hospitalCode: DEMO.both.code } })
  })

  it('refuses bad input, someone else’s patient, and a patient bound without a health card', async () => {
    const u = await freshUser()
    const env = await call<PatientView>('POST', `${P}/bind/eHealth`, { caller: u, body: { healthCode: await healthCode('王小明', u), relation: '本人' } })
    assert.equal(env.code, 200, env.msg)
    assertBadInput(await call('GET', QR, { caller: u, query: { patientId: 'x', hospitalCode: DEMO.both.code } }))
    assertBadInput(await call('GET', QR, { caller: u, query: { patientId: String(env.data.id), hospitalCode: 'x'.repeat(40) } }), /^参数错误：hospitalCode/)
    assertForbidden(await call('GET', QR, { caller: owner, query: { patientId: String(env.data.id), hospitalCode: DEMO.both.code } }))
    const typed = await bindOk({}, u)
    assertBadInput(await call('GET', QR, { caller: u, query: { patientId: String(typed.id), hospitalCode: DEMO.both.code } }), '该就诊人未绑定电子健康卡')
  })

  it('draws the card’s dynamic code: the picture is the QR code of its text, which is new on every call', async () => {
    const u = await freshUser()
    const env = await call<PatientView>('POST', `${P}/bind/eHealth`, { caller: u, body: { healthCode: await healthCode('王小明', u), relation: '本人' } })
    const ask = () => call<{ patientId: number; url: string; text: string }>('GET', QR, { caller: u, query: { patientId: String(env.data.id), hospitalCode: DEMO.both.code } })
    const first = await ask()
    assert.equal(first.code, 200, first.msg)
    assert.equal(first.data.patientId, env.data.id)
    assert.ok(first.data.text.startsWith(`${SANDBOX_HEALTH_CARD_HOLDERS[0]!.healthCardId}:`), first.data.text)
    const svg = Buffer.from(first.data.url.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString('utf8')
    assert.equal(svg, renderSVG(first.data.text, { border: 1 }))
    assert.notEqual((await ask()).data.text, first.data.text)
  })
})

// ---- reading ---------------------------------------------------------------------------------------------------

describe('GET /dld-palm/api/patient/list', () => {
  it('answers 401 and 403', async () => {
    await assertUnauthorised('GET', `${P}/list`)
  })

  it('refuses a malformed hospital code', async () => {
    assertBadInput(await list(owner, 'x'.repeat(40)), /^参数错误：hospitalCode/)
  })

  it('lists only the caller’s patients, default first then oldest first, masked', async () => {
    const u = await freshUser()
    assert.deepEqual((await list(u)).data, [])
    const a = await bindOk({}, u)
    const b = await bindOk({}, u)
    const c = await bindOk({}, u)
    await call('POST', `${P}/default/${c.id}`, { caller: u })
    const rows = (await list(u)).data
    assert.deepEqual(rows.map((p) => p.id), [c.id, a.id, b.id])
    for (const [row, bound] of [[rows[1]!, a] as const, [rows[2]!, b] as const]) {
      assert.notEqual(row.idCard, bound.plainIdCard)
      assert.equal(row.idCard, `${bound.plainIdCard.slice(0, 6)}********${bound.plainIdCard.slice(-4)}`)
      assert.ok(row.name.includes('*'))
      assert.match(row.mobile, /^\d{3}\*{4}\d{4}$/)
      assert.equal(row.guardianIdCard, undefined)
    }
    const other = (await list(owner)).data.map((p) => p.id)
    for (const id of [a.id, b.id, c.id]) assert.ok(!other.includes(id))
  })
})

describe('GET /dld-palm/api/patient/info', () => {
  it('answers 401 and 403', async () => {
    await assertUnauthorised('GET', `${P}/info`, { query: { id: '1' } })
  })

  it('refuses a missing or malformed id', async () => {
    assertBadInput(await call('GET', `${P}/info`, { caller: owner }), /^参数错误：id/)
    assertBadInput(await call('GET', `${P}/info`, { caller: owner, query: { id: 'abc' } }), /^参数错误：id/)
  })

  it("answers 2999 for someone else's patient", async () => {
    const u = await freshUser()
    const theirs = await bindOk({}, u)
    assertForbidden(await call('GET', `${P}/info`, { caller: owner, query: { id: String(theirs.id) } }))
  })

  it('answers one patient masked, with whether it is complete', async () => {
    const p = await bindOk({ hospitalCode: DEMO.palm.code })
    const env = await call<PatientView>('GET', `${P}/info`, { caller: owner, query: { id: String(p.id), hospitalCode: DEMO.palm.code } })
    assert.equal(env.code, 200)
    assert.equal(env.data.id, p.id)
    assert.ok(env.data.idCard.includes('********'))
    assert.equal(env.data.complete, true)
    assert.equal(env.data.hisMedCardNo, p.hisMedCardNo)
  })
})

describe('GET /dld-palm/api/patient/:id', () => {
  it('answers 401 and 403', async () => {
    await assertUnauthorised('GET', `${P}/1`)
  })

  it('refuses a malformed id', async () => {
    assertBadInput(await call('GET', `${P}/abc`, { caller: owner }), /^参数错误：id/)
  })

  it("answers 2999 for someone else's patient", async () => {
    const u = await freshUser()
    const theirs = await bindOk({}, u)
    assertForbidden(await detail(theirs.id, owner))
    assertForbidden(await detail(987654, owner))
  })

  it('answers the patient whole, for the edit page', async () => {
    const mobile = newMobile()
    const p = await bindOk({ mobile, code: await patientSmsCode(mobile) })
    const env = await detail(p.id)
    assert.equal(env.code, 200)
    assert.equal(env.data.name, p.plainName)
    assert.equal(env.data.idCard, p.plainIdCard)
    assert.equal(env.data.mobile, mobile)
    assert.equal(env.data.guardianName, '')
    assert.equal(env.data.guardianIdCard, '')
  })
})

describe('GET /dld-palm/api/patient/default', () => {
  it('answers 401 and 403', async () => {
    await assertUnauthorised('GET', `${P}/default`)
  })

  it('answers null before any patient, then the default masked', async () => {
    const u = await freshUser()
    const none = await call('GET', `${P}/default`, { caller: u })
    assert.equal(none.code, 200)
    assert.equal(none.data, null)
    const p = await bindOk({}, u)
    const env = await call<PatientView>('GET', `${P}/default`, { caller: u, query: { hospitalCode: DEMO.both.code } })
    assert.equal(env.data.id, p.id)
    assert.equal(env.data.isDefault, true)
    assert.ok(env.data.name.includes('*'))
  })
})

describe('POST /dld-palm/api/patient/default/:id', () => {
  it('answers 401 and 403', async () => {
    await assertUnauthorised('POST', `${P}/default/1`)
  })

  it('refuses a malformed id', async () => {
    assertBadInput(await call('POST', `${P}/default/x`, { caller: owner }), /^参数错误：id/)
  })

  it("answers 2999 for someone else's patient and moves nothing", async () => {
    const u = await freshUser()
    const theirs = await bindOk({}, u)
    const second = await bindOk({}, u)
    assertForbidden(await call('POST', `${P}/default/${second.id}`, { caller: owner }))
    assert.equal((await call<PatientView>('GET', `${P}/default`, { caller: u })).data.id, theirs.id)
  })

  it('moves the default; exactly one default, also when asked at the same time', async () => {
    const u = await freshUser()
    const ps = [await bindOk({}, u), await bindOk({}, u), await bindOk({}, u)]
    const env = await call<PatientView>('POST', `${P}/default/${ps[1]!.id}`, { caller: u })
    assert.equal(env.code, 200)
    assert.equal(env.data.isDefault, true)
    assert.ok(env.data.name.includes('*'))
    const results = await Promise.all(ps.map((p) => call('POST', `${P}/default/${p.id}`, { caller: u })))
    for (const r of results) assert.equal(r.code, 200)
    const rows = await t.database.db.select().from(patients).where(eq(patients.userId, u.userId))
    assert.equal(rows.filter((r) => r.isDefault).length, 1)
  })
})

describe('POST /dld-palm/api/patient/unbind/:id', () => {
  it('answers 401 and 403', async () => {
    await assertUnauthorised('POST', `${P}/unbind/1`)
  })

  it('refuses a malformed id', async () => {
    assertBadInput(await call('POST', `${P}/unbind/0`, { caller: owner }), /^参数错误：id/)
  })

  it("answers 2999 for someone else's patient and unbinds nothing", async () => {
    const u = await freshUser()
    const theirs = await bindOk({}, u)
    assertForbidden(await call('POST', `${P}/unbind/${theirs.id}`, { caller: owner }))
    assert.deepEqual(await listIds(u), [theirs.id])
  })

  it('unbinds; the oldest remaining patient becomes default; its escorts go too; it can be bound again', async () => {
    const u = await freshUser()
    const a = await bindOk({}, u)
    const b = await bindOk({}, u)
    const c = await bindOk({ isDefault: true }, u)
    const [escort] = await t.database.db
      .insert(accompanies)
      .values({ patientId: c.id, userId: u.userId, nameEnc: 'x', idCardEnc: 'x', personIndex: 'escort-1', mobileEnc: 'x', relation: '配偶' })
      .returning()

    const notDefault = await call<{ defaultPatientId: number | null }>('POST', `${P}/unbind/${b.id}`, { caller: u })
    assert.equal(notDefault.code, 200)
    assert.deepEqual(notDefault.data, { defaultPatientId: null })

    const wasDefault = await call<{ defaultPatientId: number | null }>('POST', `${P}/unbind/${c.id}`, { caller: u })
    assert.deepEqual(wasDefault.data, { defaultPatientId: a.id })
    const rows = (await list(u)).data
    assert.deepEqual(rows.map((p) => [p.id, p.isDefault]), [[a.id, true]])
    const [gone] = await t.database.db.select().from(accompanies).where(eq(accompanies.id, escort!.id))
    assert.ok(gone!.unboundAt)

    // unbinding twice: the patient is no longer the caller's
    assertForbidden(await call('POST', `${P}/unbind/${c.id}`, { caller: u }))
    assertForbidden(await detail(c.id, u))
    // the same person may be bound again
    const again = await bindOk({ idCard: c.plainIdCard }, u)

    const last = await call<{ defaultPatientId: number | null }>('POST', `${P}/unbind/${a.id}`, { caller: u })
    assert.equal(last.data.defaultPatientId, again.id)
  })

  it('unbinding the only patient leaves no default', async () => {
    const u = await freshUser()
    const only = await bindOk({}, u)
    const env = await call('POST', `${P}/unbind/${only.id}`, { caller: u })
    assert.deepEqual(env.data, { defaultPatientId: null })
    assert.equal((await call('GET', `${P}/default`, { caller: u })).data, null)
  })
})

// ---- filing at a hospital ----------------------------------------------------------------------------------------

for (const [url, idKey] of [
  [`${P}/hospital/patient/bind`, 'id'],
  ['/dld-hospital/autoRegister', 'patientId'],
] as const) {
  describe(`GET ${url}`, () => {
    const file = (id: number | string, hospitalCode: string | undefined, caller: Caller = owner) =>
      call<{ patientId: number; hospitalCode: string; hospitalName: string; hisMedCardNo: string; existed: boolean }>('GET', url, {
        caller,
        query: { [idKey]: String(id), ...(hospitalCode ? { hospitalCode } : {}) },
      })

    it('answers 401 and 403', async () => {
      await assertUnauthorised('GET', url, { query: { [idKey]: '1', hospitalCode: DEMO.both.code } })
    })

    it('refuses a missing hospital code or a malformed id', async () => {
      const me = await freshUser()
      const p = await bindOk({}, me)
      assertBadInput(await file(p.id, undefined, me), /^参数错误：hospitalCode/)
      assertBadInput(await file('abc', DEMO.both.code, me), new RegExp(`^参数错误：${idKey}`))
    })

    it("answers 2999 for someone else's patient and files nothing", async () => {
      const u = await freshUser()
      const theirs = await bindOk({}, u)
      assertForbidden(await file(theirs.id, DEMO.both.code))
      assert.equal((await t.database.db.select().from(patientCards).where(eq(patientCards.patientId, theirs.id))).length, 0)
    })

    it('answers 404 for an unknown hospital', async () => {
      const me = await freshUser()
      const p = await bindOk({}, me)
      const env = await file(p.id, '99999', me)
      assert.equal(env.code, 404)
      assert.equal(env.msg, '医院不存在')
    })

    it('files once: the second call answers the same card; two patients get different numbers', async () => {
      const me = await freshUser()
      const p = await bindOk({}, me)
      const first = await file(p.id, DEMO.internet.code, me)
      assert.equal(first.code, 200, first.msg)
      assert.match(first.data.hisMedCardNo, new RegExp(`^${DEMO.internet.code}\\d{8}$`))
      assert.equal(first.data.existed, false)
      assert.equal(first.data.patientId, p.id)
      assert.equal(first.data.hospitalCode, DEMO.internet.code)
      assert.ok(first.data.hospitalName)
      const second = await file(p.id, DEMO.internet.code, me)
      assert.deepEqual(second.data, { ...first.data, existed: true })
      const q = await bindOk({}, me)
      const other = await file(q.id, DEMO.internet.code, me)
      assert.notEqual(other.data.hisMedCardNo, first.data.hisMedCardNo)
      // what the list shows at that hospital
      const row = (await list(me, DEMO.internet.code)).data.find((x) => x.id === p.id)!
      assert.equal(row.hisMedCardNo, first.data.hisMedCardNo)
    })

    it('concurrent calls create one card', async () => {
      const me = await freshUser()
      const p = await bindOk({}, me)
      const results = await Promise.all([0, 1, 2, 3, 4].map(() => file(p.id, DEMO.palm.code, me)))
      for (const r of results) assert.equal(r.code, 200, r.msg)
      assert.equal(new Set(results.map((r) => r.data.hisMedCardNo)).size, 1)
      assert.equal(results.filter((r) => !r.data.existed).length, 1)
      const cards = await t.database.db.select().from(patientCards).where(eq(patientCards.patientId, p.id))
      assert.equal(cards.length, 1)
    })
  })
}

describe('GET /dld-palm/api/patient/hospital/patient/record-info', () => {
  const info = (id: number | string, hospitalCode: string, caller: Caller = owner) =>
    call<{ patientId: number; filed: boolean; hisMedCardNo: string; filedAt: string | null; hospitalName: string }>(
      'GET',
      `${P}/hospital/patient/record-info`,
      { caller, query: { id: String(id), hospitalCode } },
    )

  it('answers 401 and 403', async () => {
    await assertUnauthorised('GET', `${P}/hospital/patient/record-info`, { query: { id: '1', hospitalCode: DEMO.both.code } })
  })

  it('refuses a malformed id', async () => {
    assertBadInput(await info('x', DEMO.both.code), /^参数错误：id/)
  })

  it("answers 2999 for someone else's patient", async () => {
    const u = await freshUser()
    const theirs = await bindOk({}, u)
    assertForbidden(await info(theirs.id, DEMO.both.code))
  })

  it('tells whether and since when the patient is filed', async () => {
    const me = await freshUser()
    const p = await bindOk({}, me)
    const before = await info(p.id, DEMO.both.code, me)
    assert.equal(before.code, 200)
    assert.equal(before.data.filed, false)
    assert.equal(before.data.hisMedCardNo, '')
    assert.equal(before.data.filedAt, null)
    const card = await call<{ hisMedCardNo: string }>('GET', '/dld-hospital/autoRegister', { caller: me, query: { patientId: String(p.id), hospitalCode: DEMO.both.code } })
    const after = await info(p.id, DEMO.both.code, me)
    assert.equal(after.data.filed, true)
    assert.equal(after.data.hisMedCardNo, card.data.hisMedCardNo)
    assert.ok(!Number.isNaN(Date.parse(after.data.filedAt!)))
  })
})

// ---- identity-card photo ------------------------------------------------------------------------------------------

function multipart(name: string, data: Buffer) {
  const boundary = `----PatientTest${randomBytes(8).toString('hex')}`
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`
  return { payload: Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` }
}
async function uploadPicture(data: Buffer, caller: Caller = owner): Promise<string> {
  const body = multipart('idcard.png', data)
  const env = envelopeOf<{ url: string }>(
    await t.app.inject({ method: 'POST', url: '/dld-file/files-upload', payload: body.payload, headers: { ...caller.headers, 'content-type': body.contentType } }),
  )
  assert.equal(env.code, 200, env.msg)
  return env.data.url
}
/** A valid PNG of random pixels: a picture, but not of an identity card. */
function randomPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc32 = (buf: Buffer) => {
    let c = 0xffffffff
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([len, body, crc])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(8, 0)
  ihdr.writeUInt32BE(8, 4)
  ihdr.writeUInt8(8, 8)
  ihdr.writeUInt8(2, 9)
  const rows = Buffer.concat(Array.from({ length: 8 }, () => Buffer.concat([Buffer.from([0]), randomBytes(24)])))
  // a tEXt chunk with another keyword is not a card either
  const note = chunk('tEXt', Buffer.from('Comment\0{"name":"张三"}', 'latin1'))
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), note, chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))])
}
const demoCard = (n: 1 | 2) => readFileSync(join(DEMO_CARDS_DIR, `demo-idcard-${n}.png`))

describe('POST /dld-palm/api/patient/hospital/patient/ocr', () => {
  const ocr = (url: unknown, caller: Caller = owner) => call<Record<string, unknown>>('POST', `${P}/hospital/patient/ocr`, { caller, body: { url } })

  it('answers 401 and 403', async () => {
    await assertUnauthorised('POST', `${P}/hospital/patient/ocr`, { body: { url: '/dld-file/files/aaaaaaaaaaaaaaaaaaaaaa.png' } })
  })

  it('refuses a URL that is not an upload of this server', async () => {
    for (const url of ['', 'https://example.com/a.png', '/dld-file/files/../../etc/passwd', '/dld-file/files/short.png', 42]) {
      assertBadInput(await ocr(url), /^参数错误：url/)
    }
  })

  it("answers 2999 for someone else's upload, or one that was never made", async () => {
    const u = await freshUser()
    const theirs = await uploadPicture(demoCard(1), u)
    assertForbidden(await ocr(theirs))
    assertForbidden(await ocr('/dld-file/files/AAAAAAAAAAAAAAAAAAAAAA.png'))
  })

  it('answers 400 for a picture that is not an identity card', async () => {
    assertBadInput(await ocr(await uploadPicture(randomPng())), '未能识别身份证，请拍摄身份证人像面')
  })

  it('reads the demo cards, and the result binds a patient', async () => {
    const one = await ocr(await uploadPicture(demoCard(1)))
    assert.equal(one.code, 200, one.msg)
    assert.deepEqual(one.data, { name: '张三丰', idCard: '11010519800512001X', sex: 1, birthday: '1980-05-12', nation: '汉', address: '北京市东城区演示街道一号院2号楼301室' })
    const two = await ocr(await uploadPicture(demoCard(2)))
    assert.equal(two.data.name, '李秀英')
    assert.equal(two.data.sex, 2)
    USED_IDS.add('11010519800512001X').add('440305199208170027')
    const u = await freshUser()
    const p = await bindOk({ name: one.data.name, idCard: one.data.idCard, source: 'ocr' }, u)
    assert.equal(p.source, 'ocr')
    assert.equal(p.birthday, '1980-05-12')
  })
})

// ---- the rest: demo files, privacy ---------------------------------------------------------------------------------

describe('sandbox demo cards', () => {
  it('serves the demo identity-card pictures for download', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sandbox/cards/demo-idcard-2.png' })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'image/png')
    assert.ok(res.rawPayload.equals(demoCard(2)))
    assert.ok(res.rawPayload.length < 40 * 1024)
    assert.equal((await t.app.inject({ method: 'GET', url: '/sandbox/cards/../../config.ts' })).statusCode, 404)
  })
})

describe('privacy', () => {
  it('never writes an identity number used in this file to the log', () => {
    const text = log.text
    assert.match(text, /\/dld-palm\/api\/patient\/bind/) // the log was written
    assert.ok(USED_IDS.size > 20)
    for (const id of USED_IDS) {
      assert.ok(!text.includes(id), `identity number ${id.slice(0, 6)}… found in the log`)
      assert.ok(!text.includes(b64(id)), `base64 identity number found in the log`)
    }
  })

  it('keeps identity numbers, names and mobiles unreadable in the database', async () => {
    const dump = JSON.stringify([
      await t.database.db.select().from(patients),
      await t.database.db.select().from(patientCards),
      await t.database.db.select().from(healthCardCodes),
    ])
    assert.ok(dump.length > 1000)
    for (const id of USED_IDS) assert.ok(!dump.includes(id), `identity number ${id.slice(0, 6)}… readable in the database`)
    for (const name of USED_NAMES) assert.ok(!dump.includes(name), `a name is readable in the database`)
    for (const holder of SANDBOX_HEALTH_CARD_HOLDERS) assert.ok(!dump.includes(holder.name) && !dump.includes(holder.idCard))
    for (const mobile of USED_MOBILES) assert.ok(!dump.includes(mobile), `a mobile is readable in the database`)
  })
})
