import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import {
  auditLog,
  departments,
  diseases,
  doctorFans,
  staffAccounts,
  staffSessions,
  doctors,
  hospitalConfigs,
  hospitals,
  inquiries,
  onlineDoctorServices,
  onlineDoctors,
  orders,
  patientCards,
  patients,
  registrations,
  scheduleSlots,
  schedules,
  users,
} from '../../server/src/db/schema'
import { closeExpiredOrders } from '../../server/src/domain/payment'
import { bookRegistration, cancelRegistration, deptSchedule } from '../../server/src/domain/register'
import { ensureSchedules } from '../../server/src/seed/register'
import { seedIfEmpty } from '../../server/src/seed'
import type { SandboxPay } from '../../server/src/plugins/providers/paySandbox'
import { maskIdCard } from '../../src/utils/mask'
import type { RegisterInput } from '../../types/api/register'
import { startTestApp, signInUser, signInWechat, envelopeOf, randomIp, type Envelope, type TestApp, assertBadInput, assertForbidden, until } from './harness'
import { confirmAtCashier, newKey } from './fixtures'

const A = '/dld-palm/api'
const INCOMPLETE = '当前就诊人信息不完整，请先完善就诊人信息。'
const ONE_PER_SEGMENT = '该就诊人在同一科室同一时段已有预约'
const FULL = '该时段号源已约满，请选择其他时段'
const ELDERLY = '65周岁及以上老年人普通号免挂号费'
const RETURN_URL = '/h5/pages/order/register/detail?source=register'

type Caller = { headers: Record<string, string>; userId: number }

let t: TestApp
let owner: Caller
let stranger: Caller
let sandbox: SandboxPay

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
  sandbox = t.app.ctx.providers.pay.sandbox as SandboxPay
})
after(() => t.close())

const db = () => t.database.db

// ---- the clock, read independently of the code under test -------------------------------------------------------

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date())
function plusDays(date: string, n: number) {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + n)
  return d.toISOString().slice(0, 10)
}
/** A Shanghai wall-clock instant. */
const at = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00+08:00`)
const WEEK = ['周日', '周一', '周二', '周三', '周四', '周五', '周六']
const weekOf = (date: string) => WEEK[new Date(`${date}T00:00:00Z`).getUTCDay()]

// ---- calls, as the app makes them --------------------------------------------------------------------------------

const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8')
function decode<T>(value: T): T {
  if (Array.isArray(value)) return value.map(decode) as T
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'hisMedCardNo' && typeof v === 'string' && v ? unb64(v) : decode(v)])) as T
  }
  return value
}

async function call<T = any>(method: 'GET' | 'POST', url: string, opts: { caller?: { headers: Record<string, string> }; body?: unknown; query?: Record<string, string> } = {}) {
  const res = await t.app.inject({
    method,
    url,
    headers: opts.caller?.headers ?? {},
    remoteAddress: randomIp(),
    ...(opts.query ? { query: opts.query } : {}),
    ...(opts.body !== undefined ? { payload: opts.body as Record<string, unknown> } : {}),
  })
  const env = envelopeOf<T>(res)
  return { ...env, data: decode(env.data) } as Envelope<T>
}



/** 401 without a token, 403 for a WeChat identity that has not bound a mobile yet. */
async function assertUnauthorised(method: 'GET' | 'POST', url: string, opts: { body?: unknown; query?: Record<string, string> } = {}) {
  const anonymous = await call(method, url, opts)
  assert.equal(anonymous.code, 401)
  assert.equal(anonymous.data, null)
  const identity = await signInWechat(t.app)
  const unbound = await call(method, url, { ...opts, caller: identity })
  assert.equal(unbound.code, 403)
  assert.equal(unbound.msg, '请先绑定手机号')
}

// ---- people and schedules made up for this file ------------------------------------------------------------------

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
const checkChar = (first17: string) => '10X98765432'[[...first17].reduce((s, d, i) => s + Number(d) * WEIGHTS[i]!, 0) % 11]!
let serial = 0
function newIdCard(birthday: string) {
  serial += 1
  const first17 = `110105${birthday.replace(/-/g, '')}${String(100 + (serial % 900)).slice(-3)}`
  return first17 + checkChar(first17)
}
const newMobile = () => `136${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`
const NAMES = ['张三丰', '李晓明', '王建国', '赵丽华', '陈志强', '刘秀英', '杨海涛', '黄雪梅']
const newName = () => NAMES[serial++ % NAMES.length]!

/** A patient of `userId`, written directly (binding has its own tests); incomplete means without a mobile. */
async function addPatient(userId: number, opts: { birthday?: string; complete?: boolean; name?: string } = {}) {
  const cipher = t.app.ctx.cipher
  const birthday = opts.birthday ?? '1990-03-07'
  const idCard = newIdCard(birthday)
  const name = opts.name ?? newName()
  const [row] = await db()
    .insert(patients)
    .values({
      userId,
      nameEnc: cipher.encrypt(name),
      idCardEnc: cipher.encrypt(idCard),
      personIndex: cipher.blindIndex(`${idCard}:${serial}`),
      mobileEnc: opts.complete === false ? null : cipher.encrypt(newMobile()),
      sex: 1,
      birthday,
      relation: '其他',
      source: 'idCard',
    })
    .returning({ id: patients.id })
  return { id: row!.id, name }
}

async function hospitalId(code: string) {
  const [h] = await db().select({ id: hospitals.id }).from(hospitals).where(eq(hospitals.code, code))
  return h!.id
}

let deptSerial = 0
/** A department of its own under the hospital's first clinic group, so no seeded schedule is in the way. */
async function newDept(code = '10392') {
  const hid = await hospitalId(code)
  let [group] = await db()
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.hospitalId, hid), isNull(departments.parentId)))
    .limit(1)
  if (!group) [group] = await db().insert(departments).values({ hospitalId: hid, name: '测试门诊组' }).returning({ id: departments.id })
  deptSerial += 1
  const [dept] = await db()
    .insert(departments)
    .values({ hospitalId: hid, parentId: group!.id, name: `测试门诊${deptSerial}` })
    .returning({ id: departments.id })
  return { id: dept!.id, hospitalId: hid }
}

async function newDoctor(dept: { id: number; hospitalId: number }, title = '主任医师') {
  const [row] = await db()
    .insert(doctors)
    .values({ hospitalId: dept.hospitalId, deptId: dept.id, name: `测试医生${deptSerial}`, title, speciality: '测试专长' })
    .returning({ id: doctors.id })
  return row!.id
}

interface ScheduleOpts {
  code?: string
  dept?: { id: number; hospitalId: number }
  doctorId?: number | null
  /** Days from today (Shanghai). */
  day?: number
  segment?: 'am' | 'pm'
  registerType?: string
  feeFen?: number
  ranges?: string[]
  perRange?: number
  stopped?: boolean
}

/** A schedule with `perRange` slots in each of its time ranges, numbered in order. */
async function makeSchedule(opts: ScheduleOpts = {}) {
  const dept = opts.dept ?? (await newDept(opts.code))
  const ranges = opts.ranges ?? ['08:00-08:30', '08:30-09:00']
  const perRange = opts.perRange ?? 1
  const visitDate = plusDays(today(), opts.day ?? 2)
  const [s] = await db()
    .insert(schedules)
    .values({
      hospitalId: dept.hospitalId,
      deptId: dept.id,
      doctorId: opts.doctorId ?? null,
      visitDate,
      segment: opts.segment ?? 'am',
      registerType: opts.registerType ?? '普通号',
      feeFen: opts.feeFen ?? 1500,
      totalSlots: ranges.length * perRange,
      stopped: opts.stopped ?? false,
    })
    .returning()
  await db()
    .insert(scheduleSlots)
    .values(ranges.flatMap((timeRange, r) => Array.from({ length: perRange }, (_, k) => ({ scheduleId: s!.id, seq: r * perRange + k + 1, timeRange }))))
  return { ...s!, dept, ranges }
}

const freeSlots = async (scheduleId: number) =>
  (await db().select({ id: scheduleSlots.id }).from(scheduleSlots).where(and(eq(scheduleSlots.scheduleId, scheduleId), isNull(scheduleSlots.registrationId))))
    .length
const registrationsOf = async (userId: number) => (await db().select({ id: registrations.id }).from(registrations).where(eq(registrations.userId, userId))).length

interface RegistrationView {
  id: number
  regNo: string
  status: 'holding' | 'booked' | 'cancelled' | 'expired'
  statusText: string
  hospitalCode: string
  hospitalName: string
  deptName: string
  doctorName: string
  title: string
  registerType: string
  visitDate: string
  week: string
  segment: 'am' | 'pm'
  segmentText: string
  timeRange: string
  seq: number
  feeFen: number
  patientName: string
  hisMedCardNo: string
  holdExpiresAt: string | null
  cancellable: boolean
  insurance: boolean
  order: { orderNo: string; amountFen: number; insuranceFen: number; selfPayFen: number; status: string; expiresAt: string; refundedFen: number } | null
  createdAt: string
}

const book = (caller: Caller, body: Record<string, unknown>, url = `${A}/register`) => call<RegistrationView>('POST', url, { caller, body })
async function bookOk(caller: Caller, body: Record<string, unknown>, url = `${A}/register`) {
  const env = await book(caller, { idempotencyKey: newKey('k'), ...body }, url)
  assert.equal(env.code, 200, env.msg)
  return env.data
}
/** A booking made at the time `now` (the domain call, since the API books at the real time). */
const bookAt = (userId: number, input: RegisterInput, now: Date, opts = { freeOnly: false }) =>
  bookRegistration(db(), t.app.ctx.cipher, t.app.ctx.providers.his, t.app.ctx.hospitals, userId, input, now, opts)
const detail = (caller: Caller, id: number) => call<RegistrationView>('GET', `${A}/register/detail`, { caller, query: { id: String(id) } })

/** Pays a held registration the way a patient does: /register/pay, the sandbox cashier, back to /confirm. */
async function pay(caller: Caller, id: number) {
  const action = await call<{ kind: string; url: string }>('POST', `${A}/register/pay`, { caller, body: { id, returnUrl: RETURN_URL } })
  assert.equal(action.code, 200, action.msg)
  assert.equal(action.data.kind, 'redirect')
  assert.equal((await confirmAtCashier(t, action.data.url)).statusCode, 303)
  const confirmed = await call<RegistrationView>('POST', `${A}/confirm/${id}`, { caller })
  assert.equal(confirmed.code, 200, confirmed.msg)
  await sandbox.settled()
  return confirmed.data
}

// ---- the seeded rolling window (first: later tests add departments of their own) ----------------------------------

describe('seeded schedules (the rolling window)', () => {
  it('has 14 days of schedules, about one in fifteen stopped, and full ones booked for real', async () => {
    const rows = await db()
      .select({ id: schedules.id, stopped: schedules.stopped, total: schedules.totalSlots, visitDate: schedules.visitDate, fee: schedules.feeFen, type: schedules.registerType })
      .from(schedules)
      .where(sql`${schedules.visitDate} >= ${today()}`)
    const dates = new Set(rows.map((r) => r.visitDate))
    assert.equal(dates.size, 14)
    const stopped = rows.filter((r) => r.stopped).length / rows.length
    assert.ok(stopped > 0.03 && stopped < 0.12, `stopped share ${stopped}`)
    for (const r of rows) {
      assert.ok(Number.isInteger(r.fee), 'fees in fen')
      if (r.type === '普通号') assert.ok(r.fee >= 1000 && r.fee <= 2500, `普通号 ${r.fee}`)
      else assert.ok(r.fee >= 3000 && r.fee <= 10000, `${r.type} ${r.fee}`)
    }
    const full = await db().execute(sql`
      select s.id, s.total_slots,
        (select count(*)::int from ${scheduleSlots} x where x.schedule_id = s.id and x.registration_id is null) as free,
        (select count(*)::int from ${registrations} r join ${scheduleSlots} x on x.id = r.slot_id and x.registration_id = r.id
          where r.schedule_id = s.id and r.status = 'booked') as booked
      from ${schedules} s where s.visit_date >= ${today()} and not s.stopped`)
    const fullRows = (full as unknown as { rows: { id: number; total_slots: number; free: number; booked: number }[] }).rows.filter((r) => r.free === 0)
    assert.ok(fullRows.length > 0, 'some schedules are full')
    for (const r of fullRows) assert.equal(r.booked, r.total_slots, `schedule ${r.id} is full of real bookings`)
  })

  it('ensureSchedules is idempotent and adds only the day that comes into the window', async () => {
    const count = async () => ((await db().execute(sql`select count(*)::int as n from ${schedules}`)) as unknown as { rows: { n: number }[] }).rows[0]!.n
    const before = await count()
    assert.equal(await ensureSchedules(db(), today()), 0)
    assert.equal(await count(), before)
    const added = await ensureSchedules(db(), plusDays(today(), 1))
    assert.ok(added > 0)
    assert.equal(await count(), before + added)
    const newDay = await db().select({ id: schedules.id }).from(schedules).where(eq(schedules.visitDate, plusDays(today(), 14)))
    assert.equal(newDay.length, added)
    assert.equal(await ensureSchedules(db(), plusDays(today(), 1)), 0)
    const doubled = await db().execute(sql`
      select dept_id, doctor_id, visit_date, segment from ${schedules} group by 1, 2, 3, 4 having count(*) > 1`)
    assert.deepEqual((doubled as unknown as { rows: unknown[] }).rows, [])
  })
})

// ---- the catalogue -----------------------------------------------------------------------------------------------

interface DeptGroupView {
  id: number
  deptName: string
  children: { id: number; deptName: string; intro: string }[]
}

describe('GET /dld-palm/api/department/:hospitalCode', () => {
  it('refuses a bad sort or hospital code and answers 404 for an unknown hospital', async () => {
    assertBadInput(await call('GET', `${A}/department/10392`, { query: { deptSort: 'popular' } }), /^参数错误：deptSort/)
    assertBadInput(await call('GET', `${A}/department/${'1'.repeat(33)}`), /^参数错误：hospitalCode/)
    const unknown = await call('GET', `${A}/department/99999`)
    assert.equal(unknown.code, 404)
    assert.equal(unknown.msg, '医院不存在')
  })

  it('answers the clinic groups with 3 to 6 departments each, in the hospital’s order', async () => {
    const env = await call<DeptGroupView[]>('GET', `${A}/department/10392`)
    assert.equal(env.code, 200, env.msg)
    const names = env.data.map((g) => g.deptName)
    for (const group of ['内科', '外科', '妇产科', '儿科', '五官科', '中医科']) assert.ok(names.includes(group), group)
    // the test departments this file adds sit in the first group; the seeded ones have 3 to 6
    for (const g of env.data.slice(1)) assert.ok(g.children.length >= 3 && g.children.length <= 6, `${g.deptName}: ${g.children.length}`)
    const internal = env.data.find((g) => g.deptName === '内科')!
    assert.deepEqual(internal.children.slice(0, 3).map((c) => c.deptName), ['心血管内科', '呼吸与危重症医学科', '消化内科'])
    assert.equal(internal.children[0]!.intro, '冠心病、高血压、心律失常的诊治与介入治疗。')
    // each hospital has its own tree
    const tcm = await call<DeptGroupView[]>('GET', `${A}/department/10388`)
    assert.ok(tcm.data.find((g) => g.deptName === '中医科')!.children.some((c) => c.deptName === '中医骨伤科'))
    assert.ok(!env.data.find((g) => g.deptName === '中医科')!.children.some((c) => c.deptName === '中医骨伤科'))
  })

  it('with deptSort=hot puts the departments with the most bookings of the last 30 days first', async () => {
    const [h] = await db().insert(hospitals).values({ code: '10600', name: '示范市第三医院', homePageConfig: { menus: [] } }).returning()
    const tree: { id: number; hospitalId: number }[][] = []
    for (const [g, names] of [['第一组', ['甲科', '乙科']], ['第二组', ['丙科', '丁科']]] as const) {
      const [group] = await db().insert(departments).values({ hospitalId: h!.id, name: g, sort: tree.length * 10 }).returning({ id: departments.id })
      const leaves = await db()
        .insert(departments)
        .values(names.map((name, i) => ({ hospitalId: h!.id, parentId: group!.id, name, sort: tree.length * 10 + i + 1 })))
        .returning({ id: departments.id, hospitalId: departments.hospitalId })
      tree.push(leaves)
    }
    const [[jia, yi], [bing, ding]] = tree as [[{ id: number; hospitalId: number }, { id: number; hospitalId: number }], [{ id: number; hospitalId: number }, { id: number; hospitalId: number }]]
    const u = await signInUser(t.app)
    /** `n` bookings in a department, each by a patient of its own. */
    const bookIn = async (dept: { id: number; hospitalId: number }, n: number) => {
      const s = await makeSchedule({ dept, ranges: ['08:00-08:30'], perRange: n })
      const made: RegistrationView[] = []
      for (let i = 0; i < n; i++) made.push(await bookOk(u, { scheduleId: s.id, patientId: (await addPatient(u.userId)).id, timeRange: '08:00-08:30' }))
      return made
    }
    await bookIn(ding, 3)
    const [, ...cancelled] = await bookIn(bing, 3)
    for (const r of cancelled) assert.equal((await call('POST', `${A}/cancel`, { caller: u, body: { id: r.id } })).code, 200)
    await bookIn(yi, 2)
    const [, ...old] = await bookIn(jia, 6)
    await db().update(registrations).set({ createdAt: new Date(Date.now() - 31 * 86_400_000) }).where(inArray(registrations.id, old.map((r) => r.id)))
    const shape = (groups: DeptGroupView[]) => groups.map((g) => [g.deptName, g.children.map((c) => c.deptName)])
    // counted: 丁 3, 丙 1 (two cancelled), 乙 2, 甲 1 (five older than 30 days)
    const hot = await call<DeptGroupView[]>('GET', `${A}/department/10600`, { query: { deptSort: 'hot' } })
    assert.deepEqual(shape(hot.data), [['第二组', ['丁科', '丙科']], ['第一组', ['乙科', '甲科']]])
    const plain = await call<DeptGroupView[]>('GET', `${A}/department/10600`, { query: { deptSort: 'default' } })
    assert.deepEqual(shape(plain.data), [['第一组', ['甲科', '乙科']], ['第二组', ['丙科', '丁科']]])
  })
})

describe('GET /dld-palm/api/department/search', () => {
  it('refuses a missing, blank or over-long keyword and an unknown hospital', async () => {
    assertBadInput(await call('GET', `${A}/department/search`, { query: { hospitalCode: '10392' } }), /^参数错误：keyword/)
    assertBadInput(await call('GET', `${A}/department/search`, { query: { hospitalCode: '10392', keyword: '   ' } }), /请输入搜索关键词/)
    assertBadInput(await call('GET', `${A}/department/search`, { query: { hospitalCode: '10392', keyword: '医'.repeat(21) } }), /搜索关键词不能超过20个字/)
    assertBadInput(await call('GET', `${A}/department/search`, { query: { keyword: '内科' } }), /^参数错误：hospitalCode/)
    assert.equal((await call('GET', `${A}/department/search`, { query: { hospitalCode: '99999', keyword: '内科' } })).code, 404)
  })

  it('finds departments, diseases with their department, and doctors by name or speciality with "title|hospital"', async () => {
    const search = async (keyword: string, hospitalCode = '10392') =>
      (await call<{ depts: { id: number; deptName: string }[]; doctors: any[]; diseases: any[] }>('GET', `${A}/department/search`, { query: { hospitalCode, keyword } })).data
    const cardio = await search('心血管')
    assert.deepEqual(cardio.depts.map((d) => d.deptName), ['心血管内科'])
    const back = await search('腰椎间盘突出')
    assert.deepEqual(back.diseases.map((d) => [d.name, d.deptName]), [['腰椎间盘突出', '骨科']])
    assert.deepEqual((await search('小儿发热')).diseases.map((d) => d.deptName), ['儿内科'])

    const [someone] = await db()
      .select({ id: doctors.id, name: doctors.name, title: doctors.title, speciality: doctors.speciality, deptId: doctors.deptId })
      .from(doctors)
      .innerJoin(hospitals, eq(hospitals.id, doctors.hospitalId))
      .where(eq(hospitals.code, '10392'))
      .limit(1)
    const byName = await search(someone!.name)
    const found = byName.doctors.find((d) => d.id === someone!.id)
    assert.ok(found, 'found by name')
    assert.equal(found.remark, `${someone!.title}|示范市第一人民医院`)
    assert.equal(found.deptId, someone!.deptId)
    assert.equal(found.avatar, `/static/doctors/${someone!.id}.svg`)
    const bySpeciality = await search(someone!.speciality.split('、')[0]!)
    assert.ok(bySpeciality.doctors.some((d) => d.id === someone!.id), 'found by speciality')

    // another hospital's departments stay there; LIKE wildcards are taken literally
    const elsewhere = await search('心血管', '10388')
    assert.equal(elsewhere.depts.length, 1)
    assert.notEqual(elsewhere.depts[0]!.id, cardio.depts[0]!.id)
    assert.deepEqual(await search('%'), { depts: [], doctors: [], diseases: [] })
    assert.deepEqual(await search('_'), { depts: [], doctors: [], diseases: [] })
  })
})

describe('GET /dld-palm/api/doctor/list/search', () => {
  it('refuses a bad department id, another hospital’s department and an over-long keyword', async () => {
    const other = await newDept('10388')
    assertBadInput(await call('GET', `${A}/doctor/list/search`, { query: { hospitalCode: '10392', deptId: 'abc' } }), /^参数错误：deptId/)
    assertBadInput(await call('GET', `${A}/doctor/list/search`, { query: { hospitalCode: '10392', deptId: String(other.id) } }), '该医院没有这个科室')
    assertBadInput(await call('GET', `${A}/doctor/list/search`, { query: { hospitalCode: '10392', keyword: '医'.repeat(21) } }), /搜索关键词不能超过20个字/)
  })

  it('lists a department’s 2 to 5 doctors, a clinic group’s through its departments, and filters by keyword', async () => {
    const tree = (await call<DeptGroupView[]>('GET', `${A}/department/10392`)).data
    const surgery = tree.find((g) => g.deptName === '外科')!
    let total = 0
    for (const dept of surgery.children) {
      const env = await call<any[]>('GET', `${A}/doctor/list/search`, { query: { hospitalCode: '10392', deptId: String(dept.id) } })
      assert.equal(env.code, 200, env.msg)
      assert.ok(env.data.length >= 2 && env.data.length <= 5, `${dept.deptName}: ${env.data.length}`)
      for (const d of env.data) {
        assert.equal(d.deptId, dept.id)
        assert.ok(['主任医师', '副主任医师', '主治医师', '医师'].includes(d.title), d.title)
        assert.ok(d.speciality && d.intro.includes(d.title))
        assert.equal(d.hospitalCode, '10392')
      }
      total += env.data.length
    }
    const group = await call<any[]>('GET', `${A}/doctor/list/search`, { query: { hospitalCode: '10392', deptId: String(surgery.id) } })
    assert.equal(group.data.length, total)
    const one = group.data[0]
    const filtered = await call<any[]>('GET', `${A}/doctor/list/search`, { query: { hospitalCode: '10392', keyword: one.doctorName } })
    assert.ok(filtered.data.length >= 1 && filtered.data.every((d) => d.doctorName.includes(one.doctorName)))
  })

  it('serves each doctor’s portrait as an SVG with the surname, and 404 for an unknown one', async () => {
    const list = (await call<any[]>('GET', `${A}/doctor/list/search`, { query: { hospitalCode: '10392' } })).data
    const d = list[0]
    const res = await t.app.inject({ method: 'GET', url: d.avatar })
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['content-type']), /^image\/svg\+xml/)
    assert.ok(res.body.startsWith('<svg') && res.body.includes(`>${Array.from(d.doctorName as string)[0]}</text>`))
    assert.equal((await t.app.inject({ method: 'GET', url: '/static/doctors/999999.svg' })).statusCode, 404)
    assert.equal(envelopeOf(await t.app.inject({ method: 'GET', url: '/static/doctors/..%2Fx.svg' })).code, 400)
    const openapi = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, unknown> }
    assert.ok(!Object.keys(openapi.paths).some((p) => p.startsWith('/static')))
    for (const path of ['/department/{hospitalCode}', '/department/search', '/doctor/list/search', '/schedule-dept', '/schedule-doctor', '/hospital/register',
      '/activity/price', '/register', '/apply/free', '/register/pay', '/confirm/{id}', '/cancel', '/register/list', '/register/detail']) {
      assert.ok(openapi.paths[`${A}${path}`], path)
    }
  })
})

// ---- schedules ---------------------------------------------------------------------------------------------------

describe('POST /dld-palm/api/schedule-dept', () => {
  it('refuses bad ids, a clinic group, another hospital’s department and an unknown hospital', async () => {
    const other = await newDept('10388')
    const [group] = await db().select({ id: departments.id }).from(departments).where(and(eq(departments.hospitalId, await hospitalId('10392')), isNull(departments.parentId))).limit(1)
    assertBadInput(await call('POST', `${A}/schedule-dept`, { body: { hospitalCode: '10392' } }), /^参数错误：deptId/)
    assertBadInput(await call('POST', `${A}/schedule-dept`, { body: { hospitalCode: '10392', deptId: 'abc' } }), /^参数错误：deptId/)
    assertBadInput(await call('POST', `${A}/schedule-dept`, { body: { hospitalCode: '10392', deptId: -3 } }), /^参数错误：deptId/)
    assertBadInput(await call('POST', `${A}/schedule-dept`, { body: { hospitalCode: '10392', deptId: other.id } }), '该医院没有这个科室')
    assertBadInput(await call('POST', `${A}/schedule-dept`, { body: { hospitalCode: '10392', deptId: group!.id } }), '请选择具体科室')
    assert.equal((await call('POST', `${A}/schedule-dept`, { body: { hospitalCode: '99999', deptId: other.id } })).code, 404)
  })

  it('answers 14 days from today in Shanghai; a day is available only with an open schedule that has a free slot', async () => {
    const dept = await newDept()
    const doctorId = await newDoctor(dept)
    await makeSchedule({ dept, day: 1, stopped: true })
    const full = await makeSchedule({ dept, day: 2, ranges: ['08:00-08:30'] })
    const taker = await addPatient(owner.userId)
    await bookOk(owner, { scheduleId: full.id, patientId: taker.id, timeRange: '08:00-08:30' })
    const open = await makeSchedule({ dept, day: 3, doctorId, registerType: '专家号', feeFen: 5000, segment: 'pm', ranges: ['14:00-14:30', '14:30-15:00'], perRange: 2 })
    const env = await call<any>('POST', `${A}/schedule-dept`, { body: { hospitalCode: '10392', deptId: dept.id } })
    assert.equal(env.code, 200, env.msg)
    const days = env.data.days as { visitDate: string; week: string; available: boolean; items: any[] }[]
    assert.deepEqual(days.map((d) => d.visitDate), Array.from({ length: 14 }, (_, i) => plusDays(today(), i)))
    assert.deepEqual(days.map((d) => d.week), days.map((d) => weekOf(d.visitDate)))
    assert.deepEqual(days.map((d) => d.available), days.map((_, i) => i === 3))
    assert.deepEqual(days[1]!.items.map((i) => [i.state, i.stopped]), [['停诊', true]])
    assert.deepEqual(days[2]!.items.map((i) => [i.state, i.remaining, i.total]), [['约满', 0, 1]])
    const item = days[3]!.items[0]
    assert.deepEqual(
      { ...item, avatar: undefined },
      {
        scheduleId: open.id,
        deptId: dept.id,
        deptName: `测试门诊${deptSerial}`,
        doctorId,
        doctorName: `测试医生${deptSerial}`,
        title: '主任医师',
        avatar: undefined,
        visitDate: plusDays(today(), 3),
        week: weekOf(plusDays(today(), 3)),
        segment: 'pm',
        segmentText: '下午',
        registerType: '专家号',
        feeFen: 5000,
        total: 4,
        remaining: 4,
        stopped: false,
        state: '有号',
      },
    )
    assert.equal(days[2]!.items[0].doctorName, '普通门诊')
  })

  it('leaves out today’s morning from 11:30 and today’s afternoon from 17:00 (Shanghai)', async () => {
    const dept = await newDept()
    await makeSchedule({ dept, day: 0, segment: 'am' })
    await makeSchedule({ dept, day: 0, segment: 'pm', ranges: ['14:00-14:30'] })
    const input = { hospitalCode: '10392', deptId: dept.id }
    const segments = async (hhmm: string) => (await deptSchedule(db(), t.app.ctx.providers.his, input, at(today(), hhmm))).days[0]!.items.map((i) => i.segment)
    assert.deepEqual(await segments('11:29'), ['am', 'pm'])
    assert.deepEqual(await segments('11:30'), ['pm'])
    assert.deepEqual(await segments('16:59'), ['pm'])
    assert.deepEqual(await segments('17:00'), [])
  })
})

describe('POST /dld-palm/api/schedule-doctor', () => {
  it('refuses neither or both ids and bad ids; unknown ones answer 404', async () => {
    assertBadInput(await call('POST', `${A}/schedule-doctor`, { body: {} }), /请提供医生或号源其中之一/)
    assertBadInput(await call('POST', `${A}/schedule-doctor`, { body: { doctorId: 1, scheduleId: 1 } }), /请提供医生或号源其中之一/)
    assertBadInput(await call('POST', `${A}/schedule-doctor`, { body: { doctorId: 'x' } }), /^参数错误：doctorId/)
    assertBadInput(await call('POST', `${A}/schedule-doctor`, { body: { scheduleId: 1.5 } }), /^参数错误：scheduleId/)
    assert.equal((await call('POST', `${A}/schedule-doctor`, { body: { doctorId: 999999 } })).msg, '医生不存在')
    assert.equal((await call('POST', `${A}/schedule-doctor`, { body: { scheduleId: 9999999 } })).msg, '号源不存在')
  })

  it('answers a doctor’s next 14 days with time ranges, or one general-clinic schedule with doctor null', async () => {
    const [busy] = (
      (await db().execute(sql`
        select doctor_id as id from ${schedules} where doctor_id is not null and visit_date > ${today()} and not stopped
        group by doctor_id order by count(*) desc limit 1`)) as unknown as { rows: { id: number }[] }
    ).rows
    const env = await call<any>('POST', `${A}/schedule-doctor`, { body: { doctorId: busy!.id } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.doctor.id, busy!.id)
    assert.ok(env.data.items.length > 0)
    for (const item of env.data.items) {
      assert.equal(item.doctorId, busy!.id)
      assert.ok(item.visitDate >= today() && item.visitDate <= plusDays(today(), 13))
      assert.equal(item.remaining, item.timeRanges.reduce((s: number, r: { remaining: number }) => s + r.remaining, 0))
      const expected = item.segment === 'am' ? ['08:00-08:30', '11:30-12:00'] : ['14:00-14:30', '17:00-17:30']
      assert.deepEqual([item.timeRanges[0].timeRange, item.timeRanges.at(-1).timeRange], expected)
    }

    const general = await makeSchedule({ ranges: ['09:00-09:30', '09:30-10:00'], perRange: 2 })
    const one = await call<any>('POST', `${A}/schedule-doctor`, { body: { scheduleId: general.id } })
    assert.equal(one.data.doctor, null)
    assert.equal(one.data.items.length, 1)
    assert.deepEqual(one.data.items[0].timeRanges, [
      { timeRange: '09:00-09:30', remaining: 2 },
      { timeRange: '09:30-10:00', remaining: 2 },
    ])
  })
})

describe('POST /dld-palm/api/hospital/register', () => {
  it('refuses a missing code; an unknown hospital is 404', async () => {
    assertBadInput(await call('POST', `${A}/hospital/register`, { body: {} }), /^参数错误：hospitalCode/)
    assert.equal((await call('POST', `${A}/hospital/register`, { body: { hospitalCode: '99999' } })).code, 404)
  })

  it('answers the notice, hold minutes, cancel rule and insurance (spec §6 chsRegisterList), with the hospital’s settings', async () => {
    const env = await call<any>('POST', `${A}/hospital/register`, { body: { hospitalCode: '10392' } })
    assert.equal(env.code, 200, env.msg)
    const [h] = await db().select({ textConfig: hospitals.textConfig }).from(hospitals).where(eq(hospitals.code, '10392'))
    assert.deepEqual(env.data, {
      hospitalCode: '10392',
      holdMinutes: 15,
      cancelRule: '就诊前一日17:00前可取消，逾期不可退号',
      bookDays: 14,
      insurance: true,
      notice: h!.textConfig.registerNotice,
    })
    const [other] = await db().insert(hospitals).values({ code: '10500', name: '示范市第二医院', homePageConfig: { menus: [] } }).returning()
    await db().insert(hospitalConfigs).values([
      { hospitalId: other!.id, key: 'register.holdMinutes', value: '20' },
      { hospitalId: other!.id, key: 'register.cancelDeadline', value: '12:00' },
    ])
    const second = await call<any>('POST', `${A}/hospital/register`, { body: { hospitalCode: '10500' } })
    assert.deepEqual(second.data, { hospitalCode: '10500', holdMinutes: 20, cancelRule: '就诊前一日12:00前可取消，逾期不可退号', bookDays: 14, insurance: false, notice: '' })
  })
})

// ---- prices ------------------------------------------------------------------------------------------------------

/** A birthday that makes its holder `years` old on `date` (or one day short of it). */
function birthdayFor(date: string, years: number, dayShort = false) {
  const [y, m, d] = date.split('-')
  const birthday = `${Number(y) - years}-${m}-${d}`
  return dayShort ? plusDays(birthday, 1) : birthday
}

describe('POST /dld-palm/api/activity/price', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    await assertUnauthorised('POST', `${A}/activity/price`, { body: { scheduleId: 1, patientId: 1 } })
  })

  it('refuses bad ids and someone else’s patient (2999)', async () => {
    const s = await makeSchedule()
    const mine = await addPatient(owner.userId)
    assertBadInput(await call('POST', `${A}/activity/price`, { caller: owner, body: { scheduleId: 'x', patientId: mine.id } }), /^参数错误：scheduleId/)
    assertBadInput(await call('POST', `${A}/activity/price`, { caller: owner, body: { scheduleId: s.id } }), /^参数错误：patientId/)
    const theirs = await addPatient(stranger.userId)
    assertForbidden(await call('POST', `${A}/activity/price`, { caller: owner, body: { scheduleId: s.id, patientId: theirs.id } }))
    assert.equal((await call('POST', `${A}/activity/price`, { caller: owner, body: { scheduleId: 9999999, patientId: mine.id } })).code, 404)
  })

  it('waives the 普通号 fee for patients 65 or over on the visit day at 10392 only; otherwise no discount', async () => {
    const general = await makeSchedule({ day: 4, feeFen: 1500 })
    const expert = await makeSchedule({ day: 4, registerType: '专家号', feeFen: 6000 })
    const elsewhere = await makeSchedule({ code: '10388', day: 4, feeFen: 1200 })
    const visit = general.visitDate
    const elder = await addPatient(owner.userId, { birthday: birthdayFor(visit, 65) })
    const almost = await addPatient(owner.userId, { birthday: birthdayFor(visit, 65, true) })
    const young = await addPatient(owner.userId)
    const price = async (scheduleId: number, patientId: number) => (await call<any>('POST', `${A}/activity/price`, { caller: owner, body: { scheduleId, patientId } })).data
    assert.deepEqual(await price(general.id, elder.id), { feeFen: 1500, discountFen: 1500, payFen: 0, activity: ELDERLY })
    assert.deepEqual(await price(general.id, almost.id), { feeFen: 1500, discountFen: 0, payFen: 1500, activity: null })
    assert.deepEqual(await price(general.id, young.id), { feeFen: 1500, discountFen: 0, payFen: 1500, activity: null })
    assert.deepEqual(await price(expert.id, elder.id), { feeFen: 6000, discountFen: 0, payFen: 6000, activity: null })
    assert.deepEqual(await price(elsewhere.id, elder.id), { feeFen: 1200, discountFen: 0, payFen: 1200, activity: null })
  })
})

// ---- booking -----------------------------------------------------------------------------------------------------

describe('POST /dld-palm/api/register', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    await assertUnauthorised('POST', `${A}/register`, { body: { scheduleId: 1, patientId: 1, timeRange: '08:00-08:30', idempotencyKey: newKey('k') } })
  })

  it('refuses each bad field, a stopped, past or too distant schedule and an incomplete patient, and changes nothing', async () => {
    const u = await signInUser(t.app)
    const s = await makeSchedule()
    const p = await addPatient(u.userId)
    const good = { scheduleId: s.id, patientId: p.id, timeRange: '08:00-08:30', idempotencyKey: newKey('k') }
    const stopped = await makeSchedule({ stopped: true })
    const past = await makeSchedule({ day: -1 })
    const distant = await makeSchedule({ day: 14 })
    const incomplete = await addPatient(u.userId, { complete: false })
    const notChs = await makeSchedule({ code: '10500' })
    const cases: [Record<string, unknown>, RegExp | string][] = [
      [{ ...good, scheduleId: undefined }, /^参数错误：scheduleId/],
      [{ ...good, scheduleId: 'abc' }, /^参数错误：scheduleId/],
      [{ ...good, scheduleId: 0 }, /^参数错误：scheduleId/],
      [{ ...good, patientId: { id: 1 } }, /^参数错误：patientId/],
      [{ ...good, patientId: -1 }, /^参数错误：patientId/],
      [{ ...good, timeRange: '' }, /就诊时段不正确/],
      [{ ...good, timeRange: '8点到8点半' }, /就诊时段不正确/],
      [{ ...good, timeRange: '0'.repeat(500) }, /就诊时段不正确/],
      [{ ...good, timeRange: '07:00-07:30' }, '就诊时段不正确，请重新选择'],
      [{ ...good, idempotencyKey: 'short' }, /请求编号应为8至64位/],
      [{ ...good, idempotencyKey: 'x'.repeat(65) }, /请求编号应为8至64位/],
      [{ ...good, idempotencyKey: 'has space 123' }, /请求编号应为8至64位/],
      [{ ...good, insurance: 'maybe' }, /^参数错误：insurance/],
      [{ ...good, scheduleId: stopped.id }, '该号源已停诊，请选择其他号源'],
      [{ ...good, scheduleId: past.id }, '该号源就诊日期已过，请选择其他日期'],
      [{ ...good, scheduleId: distant.id }, '仅可预约14天内的号源'],
      [{ ...good, patientId: incomplete.id }, INCOMPLETE],
      [{ ...good, scheduleId: notChs.id, insurance: true }, '该医院暂不支持医保结算挂号'],
    ]
    for (const [body, message] of cases) assertBadInput(await book(u, body), message)
    assert.equal(await registrationsOf(u.userId), 0)
    for (const x of [s, stopped, past, distant, notChs]) assert.equal(await freeSlots(x.id), x.ranges.length)
    assert.equal((await call('POST', `${A}/register`, { caller: u, body: { ...good, scheduleId: 9999999 } })).code, 404)
  })

  it('refuses someone else’s patient with 2999 and books nothing', async () => {
    const s = await makeSchedule()
    const theirs = await addPatient(stranger.userId)
    assertForbidden(await book(owner, { scheduleId: s.id, patientId: theirs.id, timeRange: '08:00-08:30', idempotencyKey: newKey('k') }))
    assert.equal(await freeSlots(s.id), 2)
  })

  it('holds the lowest free slot of the range for 15 minutes with an order that closes at the same time', async () => {
    const s = await makeSchedule({ ranges: ['08:00-08:30', '08:30-09:00'], perRange: 2, feeFen: 2500 })
    // a patient bound the way the app binds one, so the card number comes from the real filing
    const u = await signInUser(t.app)
    const mobile = newMobile()
    const sms = await call<{ devCode: string }>('POST', '/dld-auth/token/smsBindCode', { caller: u, body: { mobile, purpose: 'patient' } })
    const idCard = newIdCard('1988-05-20')
    const bound = await call<{ id: number }>('POST', `${A}/patient/bind`, {
      caller: u,
      body: { name: '欧阳娜娜', idCard: Buffer.from(idCard).toString('base64'), mobile, code: sms.data.devCode, relation: '其他' },
    })
    assert.equal(bound.code, 200, bound.msg)
    const before = Date.now()
    const r = await bookOk(u, { scheduleId: s.id, patientId: bound.data.id, timeRange: '08:30-09:00' })
    assert.equal(r.status, 'holding')
    assert.equal(r.statusText, '待支付')
    assert.equal(r.seq, 3, 'the lowest slot of 08:30-09:00')
    assert.equal(r.timeRange, '08:30-09:00')
    assert.equal(r.visitDate, s.visitDate)
    assert.equal(r.week, weekOf(s.visitDate))
    assert.deepEqual([r.segment, r.segmentText, r.registerType, r.doctorName, r.title], ['am', '上午', '普通号', '普通门诊', ''])
    assert.deepEqual([r.hospitalCode, r.hospitalName], ['10392', '示范市第一人民医院'])
    assert.equal(r.feeFen, 2500)
    assert.equal(r.patientName, '欧**娜')
    const [card] = await db().select().from(patientCards).where(eq(patientCards.patientId, bound.data.id))
    const cardNo = t.app.ctx.cipher.decrypt(card!.cardNoEnc)
    assert.match(cardNo, /^10392\d{8}$/)
    assert.equal(r.hisMedCardNo, maskIdCard(cardNo))
    assert.ok(r.hisMedCardNo.includes('*') && r.hisMedCardNo.endsWith(cardNo.slice(-4)))
    assert.match(r.regNo, /^GH\d{20}$/)
    assert.equal(r.cancellable, true)
    const hold = Date.parse(r.holdExpiresAt!)
    assert.ok(hold >= before + 15 * 60_000 - 1000 && hold <= Date.now() + 15 * 60_000 + 1000, r.holdExpiresAt!)
    assert.equal(r.order!.expiresAt, r.holdExpiresAt)
    assert.deepEqual([r.order!.amountFen, r.order!.insuranceFen, r.order!.selfPayFen, r.order!.status], [2500, 0, 2500, 'created'])
    assert.equal(await freeSlots(s.id), 3)
    // the next patient gets the next slot of the range
    const next = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:30-09:00' })
    assert.equal(next.seq, 4)
  })

  it('marks an insurance booking at a chsRegisterList hospital; the split waits for the fee upload (insurance tests)', async () => {
    const s = await makeSchedule({ feeFen: 1500 })
    const r = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:00-08:30', insurance: true })
    assert.equal(r.insurance, true)
    assert.deepEqual([r.order!.amountFen, r.order!.insuranceFen, r.order!.selfPayFen], [1500, 0, 1500])
    const plain = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:30-09:00' })
    assert.equal(plain.insurance, false)
  })

  it('holds for the hospital’s own hold minutes when it sets them', async () => {
    // 10500 holds for 20 minutes (set in the hospital/register test above)
    const s = await makeSchedule({ code: '10500' })
    const before = Date.now()
    const r = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:00-08:30' })
    const hold = Date.parse(r.holdExpiresAt!)
    assert.ok(hold >= before + 20 * 60_000 - 1000 && hold <= Date.now() + 20 * 60_000 + 1000, r.holdExpiresAt!)
    assert.equal(r.order!.expiresAt, r.holdExpiresAt)
  })

  it('answers a full range with its message and changes nothing', async () => {
    const s = await makeSchedule({ ranges: ['08:00-08:30', '08:30-09:00'] })
    await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:00-08:30' })
    const u = await signInUser(t.app)
    const p = await addPatient(u.userId)
    assertBadInput(await book(u, { scheduleId: s.id, patientId: p.id, timeRange: '08:00-08:30', idempotencyKey: newKey('k') }), FULL)
    assert.equal(await registrationsOf(u.userId), 0)
    assert.equal(await freeSlots(s.id), 1)
  })

  it('books one slot per patient, department, day and segment', async () => {
    const dept = await newDept()
    const general = await makeSchedule({ dept })
    const expert = await makeSchedule({ dept, doctorId: await newDoctor(dept), registerType: '专家号', feeFen: 5000 })
    const afternoon = await makeSchedule({ dept, segment: 'pm', ranges: ['14:00-14:30'] })
    const p = await addPatient(owner.userId)
    await bookOk(owner, { scheduleId: general.id, patientId: p.id, timeRange: '08:00-08:30' })
    assertBadInput(await book(owner, { scheduleId: expert.id, patientId: p.id, timeRange: '08:30-09:00', idempotencyKey: newKey('k') }), ONE_PER_SEGMENT)
    assertBadInput(await book(owner, { scheduleId: general.id, patientId: p.id, timeRange: '08:30-09:00', idempotencyKey: newKey('k') }), ONE_PER_SEGMENT)
    assert.equal(await freeSlots(expert.id), 2)
    // another segment, or another patient, is fine
    await bookOk(owner, { scheduleId: afternoon.id, patientId: p.id, timeRange: '14:00-14:30' })
    await bookOk(owner, { scheduleId: expert.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:30-09:00' })
  })

  it('answers the same registration for the same idempotency key, and 409 when the key is reused for another booking', async () => {
    const s = await makeSchedule()
    const p = await addPatient(owner.userId)
    const body = { scheduleId: s.id, patientId: p.id, timeRange: '08:00-08:30', idempotencyKey: newKey('k') }
    const first = await bookOk(owner, body)
    const again = await bookOk(owner, body)
    assert.equal(again.id, first.id)
    assert.equal(again.order!.orderNo, first.order!.orderNo)
    assert.equal(await freeSlots(s.id), 1)
    const held = await db().select().from(registrations).where(eq(registrations.scheduleId, s.id))
    assert.equal(held.length, 1)
    assert.equal((await db().select().from(orders).where(and(eq(orders.business, 'register'), eq(orders.businessId, first.id)))).length, 1)
    const reused = await book(owner, { ...body, timeRange: '08:30-09:00' })
    assert.equal(reused.code, 409)
    assert.equal(await freeSlots(s.id), 1)
  })

  it('books a 65+ patient’s 普通号 at 10392 at once, without an order', async () => {
    const s = await makeSchedule({ feeFen: 1000 })
    const elder = await addPatient(owner.userId, { birthday: '1950-01-01' })
    const r = await bookOk(owner, { scheduleId: s.id, patientId: elder.id, timeRange: '08:00-08:30' })
    assert.deepEqual([r.status, r.statusText, r.feeFen, r.order, r.holdExpiresAt], ['booked', '预约成功', 0, null, null])
  })

  it('does not book today’s morning from 11:30 (Shanghai), nor the afternoon from 17:00', async () => {
    const am = await makeSchedule({ day: 0, segment: 'am' })
    const pm = await makeSchedule({ day: 0, segment: 'pm', ranges: ['14:00-14:30'] })
    const p = await addPatient(owner.userId)
    const input = (s: { id: number }, timeRange: string) => ({ scheduleId: s.id, patientId: p.id, timeRange, idempotencyKey: newKey('k') })
    const attempt = (s: { id: number }, timeRange: string, hhmm: string) =>
      bookAt(owner.userId, input(s, timeRange), at(today(), hhmm))
    await assert.rejects(attempt(am, '08:00-08:30', '11:30'), { code: 400, message: '今日上午号源已停止预约' })
    await assert.rejects(attempt(pm, '14:00-14:30', '17:00'), { code: 400, message: '今日下午号源已停止预约' })
    assert.equal((await attempt(am, '08:00-08:30', '11:29')).status, 'holding')
    assert.equal((await attempt(pm, '14:00-14:30', '16:59')).status, 'holding')
  })
})

describe('POST /dld-palm/api/apply/free', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    await assertUnauthorised('POST', `${A}/apply/free`, { body: { scheduleId: 1, patientId: 1, timeRange: '08:00-08:30', idempotencyKey: newKey('k') } })
  })

  it('refuses bad fields, someone else’s patient (2999) and a schedule this patient must pay for', async () => {
    const s = await makeSchedule()
    const elder = await addPatient(owner.userId, { birthday: '1948-06-01' })
    const young = await addPatient(owner.userId)
    const good = { scheduleId: s.id, patientId: elder.id, timeRange: '08:00-08:30', idempotencyKey: newKey('k') }
    assertBadInput(await book(owner, { ...good, scheduleId: 'one' }, `${A}/apply/free`), /^参数错误：scheduleId/)
    assertBadInput(await book(owner, { ...good, idempotencyKey: '' }, `${A}/apply/free`), /请求编号应为8至64位/)
    assertBadInput(await book(owner, { ...good, patientId: young.id }, `${A}/apply/free`), '该号源需支付挂号费，不符合免费挂号条件，请通过预约挂号支付')
    const expert = await makeSchedule({ registerType: '专家号', feeFen: 5000 })
    assertBadInput(await book(owner, { ...good, scheduleId: expert.id }, `${A}/apply/free`), /不符合免费挂号条件/)
    assertForbidden(await book(owner, { ...good, patientId: (await addPatient(stranger.userId, { birthday: '1940-01-01' })).id }, `${A}/apply/free`))
    assert.equal(await freeSlots(s.id), 2)
    assert.equal(await freeSlots(expert.id), 2)
  })

  it('books a free registration at once, recorded in the audit log against the patient', async () => {
    const s = await makeSchedule()
    const elder = await addPatient(owner.userId, { birthday: '1945-12-31' })
    const r = await bookOk(owner, { scheduleId: s.id, patientId: elder.id, timeRange: '08:30-09:00' }, `${A}/apply/free`)
    assert.deepEqual([r.status, r.statusText, r.seq, r.feeFen, r.order, r.cancellable], ['booked', '预约成功', 2, 0, null, true])
    assert.equal(await freeSlots(s.id), 1)
    const audit = await db().select().from(auditLog).where(and(eq(auditLog.route, `POST ${A}/apply/free`), eq(auditLog.patientId, elder.id)))
    assert.deepEqual(
      audit.map((a) => [a.actorKind, a.actorId, a.action, a.subject]),
      [['patient', owner.userId, 'change', 'registration']],
    )
  })
})

describe('POST /dld-palm/api/register/pay', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    await assertUnauthorised('POST', `${A}/register/pay`, { body: { id: 1, returnUrl: RETURN_URL } })
  })

  it('refuses bad input, someone else’s registration (2999) and one that is not waiting for payment', async () => {
    const s = await makeSchedule()
    const held = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:00-08:30' })
    assertBadInput(await call('POST', `${A}/register/pay`, { caller: owner, body: { id: 'x', returnUrl: RETURN_URL } }), /^参数错误：id/)
    assertBadInput(await call('POST', `${A}/register/pay`, { caller: owner, body: { id: held.id } }), /^参数错误：returnUrl/)
    assertBadInput(await call('POST', `${A}/register/pay`, { caller: owner, body: { id: held.id, returnUrl: 'https://evil.example/h5/pages/x' } }), '返回页面不正确')
    assertBadInput(await call('POST', `${A}/register/pay`, { caller: owner, body: { id: held.id, returnUrl: '/h5/'.padEnd(501, 'a') } }), /返回页面不正确/)
    assertForbidden(await call('POST', `${A}/register/pay`, { caller: stranger, body: { id: held.id, returnUrl: RETURN_URL } }))
    const free = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId, { birthday: '1950-01-01' })).id, timeRange: '08:30-09:00' })
    assertBadInput(await call('POST', `${A}/register/pay`, { caller: owner, body: { id: free.id, returnUrl: RETURN_URL } }), '该预约已支付')
    assert.equal((await detail(owner, held.id)).data.order!.status, 'created')
  })

  it('pays through the sandbox cashier: the booking is made, the order paid, and paying again is refused', async () => {
    const s = await makeSchedule({ feeFen: 2000 })
    const held = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:00-08:30' })
    const booked = await pay(owner, held.id)
    assert.deepEqual([booked.status, booked.statusText, booked.holdExpiresAt, booked.order!.status], ['booked', '预约成功', null, 'paid'])
    assert.equal(await freeSlots(s.id), 1)
    assertBadInput(await call('POST', `${A}/register/pay`, { caller: owner, body: { id: held.id, returnUrl: RETURN_URL } }), '该预约已支付')
  })
})

describe('POST /dld-palm/api/confirm/:id', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    await assertUnauthorised('POST', `${A}/confirm/1`)
  })

  it('refuses a bad id and someone else’s registration (2999)', async () => {
    const s = await makeSchedule()
    const held = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:00-08:30' })
    assertBadInput(await call('POST', `${A}/confirm/abc`, { caller: owner }), /^参数错误：id/)
    assertForbidden(await call('POST', `${A}/confirm/${held.id}`, { caller: stranger }))
    assertForbidden(await call('POST', `${A}/confirm/99999999`, { caller: owner }))
  })

  it('answers a hold still waiting for payment as it stands, and the booking once the notification came', async () => {
    const s = await makeSchedule()
    const held = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:00-08:30' })
    const waiting = await call<RegistrationView>('POST', `${A}/confirm/${held.id}`, { caller: owner })
    assert.deepEqual([waiting.data.status, waiting.data.statusText], ['holding', '待支付'])
    const action = await call<{ url: string }>('POST', `${A}/register/pay`, { caller: owner, body: { id: held.id, returnUrl: RETURN_URL } })
    const orderNo = new URL(action.data.url, 'http://localhost').searchParams.get('orderNo')!
    assert.equal((await sandbox.confirm(orderNo)).ok, true)
    await sandbox.settled()
    const booked = await call<RegistrationView>('POST', `${A}/confirm/${held.id}`, { caller: owner })
    assert.deepEqual([booked.data.status, booked.data.order!.status], ['booked', 'paid'])
  })
})

describe('holds that run out', () => {
  it('a hold past its time is given back by the order sweep and another patient takes the slot', async () => {
    const s = await makeSchedule({ ranges: ['08:00-08:30'] })
    const held = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:00-08:30' })
    const u = await signInUser(t.app)
    const p = await addPatient(u.userId)
    assertBadInput(await book(u, { scheduleId: s.id, patientId: p.id, timeRange: '08:00-08:30', idempotencyKey: newKey('k') }), FULL)
    assert.ok((await closeExpiredOrders(db(), new Date(Date.now() + 16 * 60_000))) >= 1)
    const expired = (await detail(owner, held.id)).data
    assert.deepEqual([expired.status, expired.statusText, expired.cancellable, expired.order!.status, expired.holdExpiresAt], ['expired', '已过期', false, 'closed', null])
    assert.equal(await freeSlots(s.id), 1)
    const taken = await bookOk(u, { scheduleId: s.id, patientId: p.id, timeRange: '08:00-08:30' })
    assert.equal(taken.seq, 1)
    assertBadInput(await call('POST', `${A}/register/pay`, { caller: owner, body: { id: held.id, returnUrl: RETURN_URL } }), '支付已超时，请重新预约')
  })

  it('a hold past its time that the sweep has not reached yet does not keep the slot from the next patient', async () => {
    const s = await makeSchedule({ ranges: ['08:00-08:30'] })
    const held = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:00-08:30' })
    const u = await signInUser(t.app)
    const later = new Date(Date.now() + 16 * 60_000)
    const taken = await bookAt(u.userId, { scheduleId: s.id, patientId: (await addPatient(u.userId)).id, timeRange: '08:00-08:30', idempotencyKey: newKey('k') }, later)
    assert.deepEqual([taken.status, taken.seq], ['holding', 1])
    assert.equal((await detail(owner, held.id)).data.status, 'expired')
  })

  it('the patient’s own hold past its time does not count against booking another range of the same segment', async () => {
    const s = await makeSchedule()
    const p = await addPatient(owner.userId)
    const held = await bookOk(owner, { scheduleId: s.id, patientId: p.id, timeRange: '08:00-08:30' })
    const again = (at: Date) => bookAt(owner.userId, { scheduleId: s.id, patientId: p.id, timeRange: '08:30-09:00', idempotencyKey: newKey('k') }, at)
    // still held: one booking per segment
    await assert.rejects(again(new Date()), (e: Error) => e.message === ONE_PER_SEGMENT)
    const second = await again(new Date(Date.now() + 16 * 60_000))
    assert.deepEqual([second.status, second.timeRange], ['holding', '08:30-09:00'])
    assert.equal((await detail(owner, held.id)).data.status, 'expired')
    assert.equal(await freeSlots(s.id), 1)
  })
})

describe('POST /dld-palm/api/cancel', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    await assertUnauthorised('POST', `${A}/cancel`, { body: { id: 1 } })
  })

  it('refuses a bad id, an over-long reason and someone else’s registration (2999), and changes nothing', async () => {
    const s = await makeSchedule()
    const held = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:00-08:30' })
    assertBadInput(await call('POST', `${A}/cancel`, { caller: owner, body: { id: 'x' } }), /^参数错误：id/)
    assertBadInput(await call('POST', `${A}/cancel`, { caller: owner, body: { id: held.id, reason: '不'.repeat(101) } }), /取消原因不能超过100个字/)
    assertForbidden(await call('POST', `${A}/cancel`, { caller: stranger, body: { id: held.id } }))
    assert.equal((await detail(owner, held.id)).data.status, 'holding')
    assert.equal(await freeSlots(s.id), 1)
  })

  it('cancelling a hold closes its order and gives the slot back', async () => {
    const s = await makeSchedule({ ranges: ['08:00-08:30'] })
    const held = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:00-08:30' })
    const env = await call<RegistrationView>('POST', `${A}/cancel`, { caller: owner, body: { id: held.id, reason: '行程有变' } })
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual([env.data.status, env.data.statusText, env.data.cancellable, env.data.order!.status], ['cancelled', '已取消', false, 'cancelled'])
    assert.equal(await freeSlots(s.id), 1)
    const again = await call<RegistrationView>('POST', `${A}/cancel`, { caller: owner, body: { id: held.id } })
    assert.equal(again.data.status, 'cancelled')
    const next = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:00-08:30' })
    assert.equal(next.seq, 1)
    assertBadInput(await call('POST', `${A}/register/pay`, { caller: owner, body: { id: held.id, returnUrl: RETURN_URL } }), '该预约已取消')
  })

  it('cancelling a paid booking before the deadline frees the slot and refunds the fee', async () => {
    const s = await makeSchedule({ day: 3, feeFen: 2500 })
    const held = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:00-08:30' })
    await pay(owner, held.id)
    const env = await call<RegistrationView>('POST', `${A}/cancel`, { caller: owner, body: { id: held.id } })
    assert.equal(env.code, 200, env.msg)
    assert.equal(env.data.status, 'cancelled')
    await sandbox.settled()
    const after = (await detail(owner, held.id)).data
    assert.deepEqual([after.statusText, after.order!.status, after.order!.refundedFen, after.cancellable], ['已退款', 'refunded', 2500, false])
    assert.equal(await freeSlots(s.id), 2)
  })

  it('records the refund with the cancellation: an unreachable provider leaves it pending, a refusal says 退款失败', async () => {
    const s = await makeSchedule({ feeFen: 2200, ranges: ['08:00-08:30', '08:30-09:00'] })
    const original = sandbox.refund
    try {
      const first = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:00-08:30' })
      await pay(owner, first.id)
      sandbox.refund = async () => {
        throw new Error('provider unreachable')
      }
      const pending = (await call<RegistrationView>('POST', `${A}/cancel`, { caller: owner, body: { id: first.id } })).data
      assert.deepEqual([pending.status, pending.statusText, pending.order!.status], ['cancelled', '退款中', 'refunding'])

      const second = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:30-09:00' })
      await pay(owner, second.id)
      sandbox.refund = async () => ({ status: 'failed', providerRefundNo: null })
      const refused = (await call<RegistrationView>('POST', `${A}/cancel`, { caller: owner, body: { id: second.id } })).data
      assert.deepEqual([refused.status, refused.statusText, refused.order!.status, refused.order!.refundedFen], ['cancelled', '退款失败', 'paid', 0])
    } finally {
      sandbox.refund = original
    }
  })

  it('refuses to cancel a paid booking for tomorrow from 17:00 today (Shanghai), and allows it before', async () => {
    const s = await makeSchedule({ day: 1, feeFen: 1800 })
    const held = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:00-08:30' })
    await pay(owner, held.id)
    const cancel = (hhmm: string) => cancelRegistration(db(), t.app.ctx.cipher, t.app.ctx.providers, owner.userId, { id: held.id }, at(today(), hhmm))
    await assert.rejects(cancel('17:00'), { code: 400, message: '已超过取消时限（就诊前一日17:00），不可取消' })
    const unchanged = (await detail(owner, held.id)).data
    assert.deepEqual([unchanged.status, unchanged.order!.status], ['booked', 'paid'])
    assert.equal(await freeSlots(s.id), 1)
    const done = await cancel('16:59')
    assert.equal(done.status, 'cancelled')
    assert.ok(['退款中', '已退款'].includes(done.statusText), done.statusText)
    await sandbox.settled()
    assert.equal((await detail(owner, held.id)).data.order!.status, 'refunded')
    assert.equal(await freeSlots(s.id), 2)
  })

  it('answers the configured deadline when it is too late, through the API too', async () => {
    const dept = await newDept('10500')
    const s = await makeSchedule({ dept, day: 0, segment: 'pm', ranges: ['17:00-17:30'] })
    // booked the day before (a free booking needs no payment, so the clock can be set)
    await db().insert(hospitalConfigs).values({ hospitalId: dept.hospitalId, key: 'register.freeForElderly', value: 'true' })
    const elder = await addPatient(owner.userId, { birthday: '1940-02-02' })
    // the setting applies once this process has heard of the change (hospital_changed) and forgotten what it kept
    const price = async () => (await call<{ payFen: number }>('POST', `${A}/activity/price`, { caller: owner, body: { scheduleId: s.id, patientId: elder.id } })).data.payFen
    assert.ok(await until(async () => (await price()) === 0), 'the elderly waiver does not apply')
    const booked = await bookAt(
      owner.userId,
      { scheduleId: s.id, patientId: elder.id, timeRange: '17:00-17:30', idempotencyKey: newKey('k') },
      at(plusDays(today(), -1), '09:00'),
      { freeOnly: true },
    )
    assert.equal(booked.status, 'booked')
    assert.equal((await detail(owner, booked.id)).data.cancellable, false)
    assertBadInput(await call('POST', `${A}/cancel`, { caller: owner, body: { id: booked.id } }), '已超过取消时限（就诊前一日12:00），不可取消')
    assert.equal(await freeSlots(s.id), 0)
  })

  it('cancelling a free booking gives the slot back', async () => {
    const s = await makeSchedule()
    const r = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId, { birthday: '1951-01-01' })).id, timeRange: '08:00-08:30' })
    const env = await call<RegistrationView>('POST', `${A}/cancel`, { caller: owner, body: { id: r.id } })
    assert.deepEqual([env.data.status, env.data.statusText, env.data.order], ['cancelled', '已取消', null])
    assert.equal(await freeSlots(s.id), 2)
  })
})

describe('GET /dld-palm/api/register/list', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    await assertUnauthorised('GET', `${A}/register/list`)
  })

  it('refuses a bad status, page or size', async () => {
    assertBadInput(await call('GET', `${A}/register/list`, { caller: owner, query: { status: 'paid' } }), /^参数错误：status/)
    assertBadInput(await call('GET', `${A}/register/list`, { caller: owner, query: { page: '0' } }), /^参数错误：page/)
    assertBadInput(await call('GET', `${A}/register/list`, { caller: owner, query: { size: '51' } }), /^参数错误：size/)
    assertBadInput(await call('GET', `${A}/register/list`, { caller: owner, query: { hospitalCode: 'x'.repeat(40) } }), /^参数错误：hospitalCode/)
  })

  it('lists only the caller’s registrations, newest first, by hospital and status, page by page', async () => {
    const u = await signInUser(t.app)
    const a = await bookOk(u, { scheduleId: (await makeSchedule()).id, patientId: (await addPatient(u.userId)).id, timeRange: '08:00-08:30' })
    const b = await bookOk(u, { scheduleId: (await makeSchedule({ code: '10388' })).id, patientId: (await addPatient(u.userId)).id, timeRange: '08:00-08:30' })
    const c = await bookOk(u, { scheduleId: (await makeSchedule()).id, patientId: (await addPatient(u.userId, { birthday: '1950-05-05' })).id, timeRange: '08:00-08:30' })
    const list = async (query: Record<string, string> = {}, caller: Caller = u) => (await call<any>('GET', `${A}/register/list`, { caller, query })).data
    const all = await list()
    assert.deepEqual(all.records.map((r: RegistrationView) => r.id), [c.id, b.id, a.id])
    assert.deepEqual([all.total, all.page, all.size], [3, 1, 10])
    assert.deepEqual((await list({ hospitalCode: '10388' })).records.map((r: RegistrationView) => r.id), [b.id])
    assert.deepEqual((await list({ status: 'booked' })).records.map((r: RegistrationView) => r.id), [c.id])
    const second = await list({ page: '2', size: '2' })
    assert.deepEqual([second.records.map((r: RegistrationView) => r.id), second.total], [[a.id], 3])
    assert.ok(!(await list({}, stranger)).records.some((r: RegistrationView) => [a.id, b.id, c.id].includes(r.id)))
  })
})

describe('GET /dld-palm/api/register/detail', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    await assertUnauthorised('GET', `${A}/register/detail`, { query: { id: '1' } })
  })

  it('refuses a bad id and someone else’s registration (2999); answers the caller’s own', async () => {
    const s = await makeSchedule()
    const r = await bookOk(owner, { scheduleId: s.id, patientId: (await addPatient(owner.userId)).id, timeRange: '08:00-08:30' })
    assertBadInput(await call('GET', `${A}/register/detail`, { caller: owner, query: { id: 'abc' } }), /^参数错误：id/)
    assertBadInput(await call('GET', `${A}/register/detail`, { caller: owner }), /^参数错误：id/)
    assertForbidden(await detail(stranger, r.id))
    assertForbidden(await detail(owner, 99999999))
    const mine = await detail(owner, r.id)
    assert.equal(mine.code, 200)
    assert.deepEqual({ ...mine.data, cancellable: r.cancellable }, r)
  })
})

// ---- a database seeded before registration existed ----------------------------------------------------------------

describe('seeding an older database', () => {
  it('turns the flat departments into the tree (same ids, featured kept) and adds doctors, diseases and schedules', async () => {
    const hid = await hospitalId('10412')
    const old = ['心血管内科', '呼吸与危重症医学科', '消化内科', '儿科', '妇产科', '骨科']
    await db().transaction(async (tx) => {
      const regs = tx.select({ id: registrations.id }).from(registrations).where(eq(registrations.hospitalId, hid))
      await tx.update(scheduleSlots).set({ registrationId: null }).where(inArray(scheduleSlots.registrationId, regs))
      await tx.delete(registrations).where(eq(registrations.hospitalId, hid))
      await tx.delete(scheduleSlots).where(inArray(scheduleSlots.scheduleId, tx.select({ id: schedules.id }).from(schedules).where(eq(schedules.hospitalId, hid))))
      await tx.delete(schedules).where(eq(schedules.hospitalId, hid))
      await tx.delete(diseases).where(eq(diseases.hospitalId, hid))
      // the online-consultation rows came later still, and hang off the doctors
      const online = tx.select({ id: onlineDoctors.doctorId }).from(onlineDoctors).where(eq(onlineDoctors.hospitalId, hid))
      await tx.delete(inquiries).where(eq(inquiries.hospitalId, hid))
      await tx.delete(doctorFans).where(inArray(doctorFans.doctorId, online))
      const staff = tx.select({ id: staffAccounts.id }).from(staffAccounts).where(inArray(staffAccounts.doctorId, online))
      await tx.delete(staffSessions).where(inArray(staffSessions.staffId, staff))
      await tx.delete(staffAccounts).where(inArray(staffAccounts.doctorId, online))
      await tx.delete(onlineDoctorServices).where(inArray(onlineDoctorServices.doctorId, online))
      await tx.delete(onlineDoctors).where(eq(onlineDoctors.hospitalId, hid))
      await tx.delete(doctors).where(eq(doctors.hospitalId, hid))
      await tx.delete(departments).where(and(eq(departments.hospitalId, hid), sql`${departments.name} not in ${old}`))
      await tx.update(departments).set({ parentId: null }).where(eq(departments.hospitalId, hid))
    })
    const kept = await db().select().from(departments).where(eq(departments.hospitalId, hid))
    assert.equal(await seedIfEmpty(db(), t.app.ctx.cipher), false)
    const tree = (await call<DeptGroupView[]>('GET', `${A}/department/10412`)).data
    const idOf = (name: string) => kept.find((d) => d.name === name)!.id
    assert.ok(tree.find((g) => g.deptName === '内科')!.children.some((c) => c.id === idOf('心血管内科')))
    assert.equal(tree.find((g) => g.deptName === '儿科')!.id, idOf('儿科'))
    const featured = await db().select({ name: departments.name }).from(departments).where(and(eq(departments.hospitalId, hid), eq(departments.featured, true)))
    assert.deepEqual(featured.map((d) => d.name).sort(), ['儿科', '呼吸与危重症医学科', '心血管内科'].sort())
    assert.ok((await db().select({ id: doctors.id }).from(doctors).where(eq(doctors.hospitalId, hid))).length >= 2 * 11)
    assert.ok((await db().select({ id: diseases.id }).from(diseases).where(eq(diseases.hospitalId, hid))).length > 0)
    const days = await db().selectDistinct({ d: schedules.visitDate }).from(schedules).where(eq(schedules.hospitalId, hid))
    assert.ok(days.length >= 14)
    const [windowUser] = await db().select({ id: users.id }).from(users).where(sql`'offline-bookings' = any(${users.roles})`)
    assert.ok(windowUser)
  })
})

// ---- races (PostgreSQL only: PGlite runs one transaction at a time) -------------------------------------------------

describe('POST /dld-palm/api/register under concurrency', () => {
  it('(PostgreSQL) 1,000 concurrent attempts at 10 slots book exactly 10; slots, registrations and orders agree', async () => {
    if (!process.env.TEST_DATABASE_URL) return
    const s = await makeSchedule({ ranges: ['08:00-08:30'], perRange: 10, feeFen: 1200 })
    // 1,000 complete patients already filed at the hospital, written directly, of 20 accounts (one account's hour
    // allows 100 orders: domain/limits.ts)
    const accounts = await Promise.all(Array.from({ length: 20 }, () => signInUser(t.app)))
    const cipher = t.app.ctx.cipher
    const rows = Array.from({ length: 1000 }, (_, i) => {
      const idCard = newIdCard('1985-01-01')
      return {
        userId: accounts[i % accounts.length]!.userId,
        nameEnc: cipher.encrypt(`并发${i}`),
        idCardEnc: cipher.encrypt(idCard),
        personIndex: `race-${i}-${randomBytes(4).toString('hex')}`,
        mobileEnc: cipher.encrypt(newMobile()),
        sex: 1 as const,
        birthday: '1985-01-01',
        relation: '其他',
        source: 'idCard' as const,
      }
    })
    const people = await db().insert(patients).values(rows).returning({ id: patients.id })
    await db()
      .insert(patientCards)
      .values(people.map((p, i) => ({ patientId: p.id, hospitalId: s.dept.hospitalId, cardNoEnc: cipher.encrypt(`10392${String(90000000 + i)}`) })))
    const answers = await Promise.all(
      people.map((p, i) => book(accounts[i % accounts.length]!, { scheduleId: s.id, patientId: p.id, timeRange: '08:00-08:30', idempotencyKey: newKey('k') })),
    )
    const ok = answers.filter((a) => a.code === 200)
    assert.equal(ok.length, 10)
    for (const a of answers.filter((x) => x.code !== 200)) assertBadInput(a, FULL)
    const slots = await db().select().from(scheduleSlots).where(eq(scheduleSlots.scheduleId, s.id))
    const regs = await db().select().from(registrations).where(eq(registrations.scheduleId, s.id))
    assert.equal(regs.length, 10)
    assert.deepEqual(regs.map((r) => r.id).sort(), ok.map((a) => a.data.id).sort())
    assert.deepEqual(slots.map((x) => x.registrationId).sort(), regs.map((r) => r.id).sort())
    for (const r of regs) {
      assert.equal(r.status, 'holding')
      assert.equal(slots.find((x) => x.id === r.slotId)!.registrationId, r.id)
    }
    assert.deepEqual(regs.map((r) => r.seq).sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    const paid = await db().select().from(orders).where(and(eq(orders.business, 'register'), inArray(orders.businessId, regs.map((r) => r.id))))
    assert.equal(paid.length, 10)
    for (const o of paid) {
      assert.equal(o.amountFen, 1200)
      assert.equal(regs.find((r) => r.id === o.businessId)!.orderId, o.id)
    }
  })

  it('(PostgreSQL) one patient racing for two schedules of one segment gets one; the same key sent at once books once', async () => {
    if (!process.env.TEST_DATABASE_URL) return
    const dept = await newDept()
    const a = await makeSchedule({ dept, perRange: 10 })
    const b = await makeSchedule({ dept, doctorId: await newDoctor(dept), perRange: 10 })
    const p = await addPatient(owner.userId)
    const raced = await Promise.all(
      Array.from({ length: 20 }, (_, i) => book(owner, { scheduleId: i % 2 ? a.id : b.id, patientId: p.id, timeRange: '08:00-08:30', idempotencyKey: newKey('k') })),
    )
    assert.equal(raced.filter((r) => r.code === 200).length, 1)
    for (const r of raced.filter((x) => x.code !== 200)) assertBadInput(r, ONE_PER_SEGMENT)
    assert.equal((await freeSlots(a.id)) + (await freeSlots(b.id)), 39)

    const c = await makeSchedule({ perRange: 10 })
    const q = await addPatient(owner.userId)
    const body = { scheduleId: c.id, patientId: q.id, timeRange: '08:00-08:30', idempotencyKey: newKey('k') }
    const same = await Promise.all(Array.from({ length: 20 }, () => book(owner, body)))
    for (const r of same) assert.equal(r.code, 200, r.msg)
    assert.equal(new Set(same.map((r) => r.data.id)).size, 1)
    assert.equal(await freeSlots(c.id), 19)
    const madeOrders = await db().select().from(orders).where(and(eq(orders.userId, owner.userId), eq(orders.idempotencyKey, `register:${body.idempotencyKey}`)))
    assert.equal(madeOrders.length, 1)
  })
})
