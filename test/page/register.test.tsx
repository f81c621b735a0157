import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import Taro, { calls, testing } from './doubles/taro'
import platform, { NO_WECHAT_PAY } from '../../src/platform/index.h5'
import { RootStore } from '../../src/stores/RootStore'
import { RegisterStore } from '../../src/stores/RegisterStore'
import { LOCAL, SESSION, local, session } from '../../src/services/storage'
import { HOLD_EXPIRED } from '../../src/components/HoldPay'
import { mapSensitive } from '../../src/utils/base64'
import RegisterNotice from '../../src/palm/register'
import DeptList from '../../src/palm/register/deptList'
import RegisterSearch from '../../src/palm/register/deptList/search'
import DeptSchedule from '../../src/palm/register/deptSchedule'
import RowSchedule from '../../src/palm/register/rowSchedule'
import ConfirmRegister from '../../src/palm/register/confirm'
import RegisterRecords from '../../src/pages/order/register'
import RegisterDetail from '../../src/pages/order/register/detail'
import DoctorHome from '../../src/palm/doctor'
import DoctorIntroduce from '../../src/pages/introduce/doctor'
import DeptIntroduce from '../../src/pages/introduce/dept'
import ChsPayment from '../../src/palm/chsPayment'
import type { Patient } from '../../types/api/patient'
import type { PayOrder } from '../../types/api/payment'
import type { DeptGroup, DoctorSchedule, RegisterDoctor, Registration, RegistrationStatus, ScheduleItem, TimeRange } from '../../types/api/register'
import { useRegisterStore } from '../../src/stores/RegisterStore'
import { usePatientStore } from '../../src/stores/PatientStore'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10392'

// ---------- the fake server: what the registration and payment servers answer, over the data below ----------

const groups: DeptGroup[] = [
  {
    id: 1,
    deptName: '内科',
    children: [
      { id: 11, deptName: '心血管内科', intro: '冠心病、高血压、心律失常的诊治' },
      { id: 12, deptName: '消化内科', intro: '' },
    ],
  },
  { id: 2, deptName: '外科', children: [{ id: 21, deptName: '骨科', intro: '创伤与关节' }] },
]

const doctors: Record<number, RegisterDoctor> = {
  101: {
    id: 101,
    doctorName: '李明',
    title: '主任医师',
    avatar: '',
    speciality: '冠心病介入治疗',
    intro: '从事心血管临床工作三十年。',
    deptId: 11,
    deptName: '心血管内科',
    hospitalCode: HOSPITAL,
    hospitalName: '示范市第一人民医院',
  },
  102: {
    id: 102,
    doctorName: '王芳',
    title: '副主任医师',
    avatar: '',
    speciality: '高血压',
    intro: '',
    deptId: 11,
    deptName: '心血管内科',
    hospitalCode: HOSPITAL,
    hospitalName: '示范市第一人民医院',
  },
}

const DAYS = Array.from({ length: 14 }, (_, i) => {
  const d = new Date(Date.UTC(2026, 10, 23 + i))
  return { visitDate: d.toISOString().slice(0, 10), week: ['周日', '周一', '周二', '周三', '周四', '周五', '周六'][d.getUTCDay()]! }
})

type Bookable = ScheduleItem & { timeRanges: TimeRange[] }

function item(scheduleId: number, day: number, segment: 'am' | 'pm', doctorId: number | null, feeFen: number, ranges: [string, number][], stopped = false): Bookable {
  const doctor = doctorId ? doctors[doctorId]! : null
  const remaining = stopped ? 0 : ranges.reduce((n, [, left]) => n + left, 0)
  return {
    scheduleId,
    deptId: 11,
    deptName: '心血管内科',
    doctorId,
    doctorName: doctor?.doctorName ?? '普通门诊',
    title: doctor?.title ?? '',
    avatar: '',
    visitDate: DAYS[day]!.visitDate,
    week: DAYS[day]!.week,
    segment,
    segmentText: segment === 'am' ? '上午' : '下午',
    registerType: doctor ? '专家号' : '普通号',
    feeFen,
    total: 6,
    remaining,
    stopped,
    state: stopped ? '停诊' : remaining > 0 ? '有号' : '约满',
    timeRanges: ranges.map(([timeRange, left]) => ({ timeRange, remaining: left })),
  }
}

let schedules: Bookable[] = []
const freshSchedules = () => [
  // day 0: the expert is full, the general clinic open
  item(1001, 0, 'am', 101, 5000, [['08:00-08:30', 0], ['08:30-09:00', 0]]),
  item(1002, 0, 'am', null, 1000, [['08:00-08:30', 0], ['08:30-09:00', 2], ['09:00-09:30', 1]]),
  // day 1: the expert open in the afternoon, the other doctor stopped
  item(1003, 1, 'pm', 101, 5000, [['14:00-14:30', 1], ['14:30-15:00', 2]]),
  item(1004, 1, 'am', 102, 3000, [['08:00-08:30', 2]], true),
]

interface Person {
  id: number
  name: string
  age: number
  complete: boolean
}
const people: Person[] = [
  { id: 1, name: '张*', age: 36, complete: true },
  { id: 2, name: '王**', age: 70, complete: true },
  { id: 3, name: '李*', age: 30, complete: false },
]
const patientDto = (p: Person, i: number): Patient => ({
  id: p.id,
  name: p.name,
  idCard: '110101********4514',
  mobile: p.complete ? '138****5678' : '',
  sex: 1,
  sexText: '男',
  birthday: '1990-03-07',
  age: p.age,
  relation: i === 0 ? '本人' : '父母',
  source: 'idCard',
  neonate: false,
  isDefault: i === 0,
  hisMedCardNo: `A10000${p.id}`,
  complete: p.complete,
  missing: p.complete ? [] : ['mobile'],
})

let insuranceHospital = true
let registrations: Registration[] = []
let byKey = new Map<string, number>()
/** The next booking answers: a business refusal, or no answer at all (the connection drops). */
let nextBooking: 'ok' | 'full' | 'drop' | 'dropAfterCommit' = 'ok'
let failing = new Set<string>()
let nextId = 500

/** The server's envelope, with the sensitive fields (hisMedCardNo, idCard …) base64-encoded on the way out. */
const ok = (data: unknown) => ({
  statusCode: 200,
  data: { code: 200, msg: 'success', data: mapSensitive(data, (v) => Buffer.from(v, 'utf8').toString('base64')) },
})
const refuse = (code: number, msg: string) => ({ statusCode: 200, data: { code, msg, data: null } })

/** The elderly (65+) see no fee on the general clinic at this hospital (the server's activity rule). */
function priceFor(s: Bookable, patientId: number) {
  const p = people.find((x) => x.id === patientId)!
  const free = p.age >= 65 && s.doctorId === null
  return { feeFen: s.feeFen, discountFen: free ? s.feeFen : 0, payFen: free ? 0 : s.feeFen, activity: free ? '65岁以上老人免挂号费' : null }
}

function order(reg: Registration, amountFen: number, insuranceFen: number, status: PayOrder['status'] = 'created'): PayOrder {
  return {
    orderNo: `P20261123${String(reg.id).padStart(12, '0')}`,
    business: 'register',
    subject: `挂号费-${reg.deptName}`,
    amountFen,
    insuranceFen,
    selfPayFen: amountFen - insuranceFen,
    status,
    channel: null,
    expiresAt: reg.holdExpiresAt ?? new Date().toISOString(),
    paidAt: null,
    refundedFen: 0,
    createdAt: reg.createdAt,
  }
}

const STATUS_TEXT: Record<RegistrationStatus, string> = { holding: '待支付', booked: '预约成功', cancelled: '已取消', expired: '已过期' }

function book(body: Record<string, string>, free: boolean) {
  const known = byKey.get(body.idempotencyKey!)
  if (known) return ok(registrations.find((r) => r.id === known))
  const s = schedules.find((x) => x.scheduleId === Number(body.scheduleId))!
  const range = s.timeRanges.find((r) => r.timeRange === body.timeRange)
  if (!range || range.remaining <= 0 || nextBooking === 'full') {
    nextBooking = 'ok'
    return refuse(400, '该时段号源已约满，请选择其他时段')
  }
  if (nextBooking === 'drop') {
    nextBooking = 'ok'
    throw new Error('connection reset')
  }
  const price = priceFor(s, Number(body.patientId))
  if (free !== (price.payFen === 0)) return refuse(400, free ? '该号源需要支付挂号费' : '请使用免费预约')
  range.remaining--
  const id = nextId++
  const now = Date.now()
  const reg: Registration = {
    id,
    regNo: `R${id}`,
    status: price.payFen === 0 ? 'booked' : 'holding',
    statusText: price.payFen === 0 ? '预约成功' : '待支付',
    hospitalCode: HOSPITAL,
    hospitalName: '示范市第一人民医院',
    deptName: s.deptName,
    doctorName: s.doctorName,
    title: s.title,
    registerType: s.registerType,
    visitDate: s.visitDate,
    week: s.week,
    segment: s.segment,
    segmentText: s.segmentText,
    timeRange: body.timeRange!,
    seq: 3,
    feeFen: s.feeFen,
    patientId: Number(body.patientId),
    patientName: people.find((p) => p.id === Number(body.patientId))!.name,
    hisMedCardNo: `A10000${body.patientId}`,
    holdExpiresAt: price.payFen === 0 ? null : new Date(now + 15 * 60_000).toISOString(),
    cancellable: true,
    insurance: price.payFen > 0 && body.insurance === 'true',
    order: null,
    createdAt: new Date(now).toISOString(),
  }
  // with insurance the split comes later, from the fee upload
  if (price.payFen > 0) reg.order = order(reg, price.payFen, 0)
  registrations.unshift(reg)
  byKey.set(body.idempotencyKey!, id)
  if (nextBooking === 'dropAfterCommit') {
    nextBooking = 'ok'
    throw new Error('connection reset after the server booked')
  }
  return ok(reg)
}

function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = '', search = ''] = url.split('?')
    const query = { ...Object.fromEntries(new URLSearchParams(search)), ...(method === 'GET' ? ((data ?? {}) as Record<string, string>) : {}) }
    const body = Object.fromEntries(new URLSearchParams(typeof data === 'string' ? data : ''))
    if (failing.has(path)) return refuse(500, '服务器开小差了')
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: query.appId, provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId')
      return ok({ id: 1, hospitalCode: HOSPITAL, hospitalName: '示范市第一人民医院', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: query.imAccount, userSig: 's', expire: 1 })
    if (path === '/dld-palm/api/patient/list') return ok(people.map(patientDto))

    if (path === '/dld-palm/api/hospital/register')
      return ok({
        hospitalCode: body.hospitalCode,
        holdMinutes: 15,
        cancelRule: '就诊前一日17:00前可取消，逾期不可退号',
        bookDays: 14,
        insurance: insuranceHospital,
        notice: '欢迎使用预约挂号服务。\n1. 预约成功后请按预约时段提前15分钟到院报到。\n2. 如需取消，请在就诊前一日17:00前操作。',
      })
    if (path === `/dld-palm/api/department/${HOSPITAL}`) return ok(query.deptSort === 'hot' ? [groups[1], groups[0]] : groups)
    if (path === '/dld-palm/api/department/search') {
      const k = query.keyword ?? ''
      if (k === '无此病') return ok({ depts: [], doctors: [], diseases: [] })
      return ok({
        depts: groups.flatMap((g) => g.children).filter((d) => d.deptName.includes(k)).map((d) => ({ id: d.id, deptName: d.deptName })),
        doctors: Object.values(doctors)
          .filter((d) => d.doctorName.includes(k) || d.speciality.includes(k) || d.deptName.includes(k))
          .map((d) => ({ id: d.id, doctorName: d.doctorName, remark: `${d.title}|${d.hospitalName}`, deptId: d.deptId, deptName: d.deptName, avatar: '' })),
        diseases: '冠心病'.includes(k) ? [{ name: '冠心病', deptId: 11, deptName: '心血管内科' }] : [],
      })
    }
    if (path === '/dld-palm/api/doctor/list/search') return ok(Object.values(doctors).filter((d) => d.deptId === Number(query.deptId)))
    if (path === '/dld-palm/api/schedule-dept') {
      const { timeRanges: _, ...plain } = schedules[0]!
      void plain
      return ok({
        deptId: Number(body.deptId),
        deptName: '心血管内科',
        days: DAYS.map((d) => {
          const items = schedules.filter((s) => s.visitDate === d.visitDate).map(({ timeRanges: _t, ...rest }) => rest)
          return { ...d, available: items.some((i) => i.remaining > 0 && !i.stopped), items }
        }),
      })
    }
    if (path === '/dld-palm/api/schedule-doctor') {
      if (body.scheduleId) {
        const s = schedules.find((x) => x.scheduleId === Number(body.scheduleId))
        const answer: DoctorSchedule = { doctor: s?.doctorId ? doctors[s.doctorId]! : null, items: s ? [s] : [] }
        return ok(answer)
      }
      const id = Number(body.doctorId)
      return ok({ doctor: doctors[id], items: schedules.filter((s) => s.doctorId === id) })
    }
    if (path === '/dld-palm/api/activity/price') {
      const s = schedules.find((x) => x.scheduleId === Number(body.scheduleId))!
      return ok(priceFor(s, Number(body.patientId)))
    }
    if (path === '/dld-palm/api/register') return book(body, false)
    if (path === '/dld-palm/api/apply/free') return book(body, true)
    if (path === '/dld-palm/api/register/pay') {
      const reg = registrations.find((r) => r.id === Number(body.id))
      if (!reg) return refuse(2999, '暂无权限')
      return ok({ kind: 'redirect', channel: 'sandbox', url: `/sandbox/pay/cashier?orderNo=${reg.order!.orderNo}` })
    }
    if (path.startsWith('/dld-palm/api/confirm/')) {
      const reg = registrations.find((r) => r.id === Number(path.split('/').pop()))
      if (!reg) return refuse(2999, '暂无权限')
      // the provider says paid: the hold is booked
      if (reg.status === 'holding') {
        reg.status = 'booked'
        reg.statusText = '预约成功'
        reg.holdExpiresAt = null
        reg.order = { ...reg.order!, status: 'paid', channel: 'sandbox', paidAt: new Date().toISOString() }
      }
      return ok(reg)
    }
    if (path === '/dld-palm/api/cancel') {
      const reg = registrations.find((r) => r.id === Number(body.id))
      if (!reg) return refuse(2999, '暂无权限')
      if (!reg.cancellable) return refuse(400, '已超过取消时限（就诊前一日17:00），不可取消')
      const paid = reg.order?.status === 'paid'
      reg.status = 'cancelled'
      reg.statusText = paid ? '退款中' : '已取消'
      reg.cancellable = false
      reg.holdExpiresAt = null
      if (reg.order) reg.order = { ...reg.order, status: paid ? 'refunding' : 'cancelled' }
      return ok(reg)
    }
    if (path === '/dld-palm/api/register/list') {
      const page = Number(query.page)
      const size = Number(query.size)
      const list = registrations.filter((r) => !query.status || r.status === query.status)
      return ok({ records: list.slice((page - 1) * size, page * size), total: list.length, page, size })
    }
    if (path === '/dld-palm/api/register/detail') {
      const reg = registrations.find((r) => r.id === Number(query.id))
      return reg ? ok(reg) : refuse(2999, '暂无权限')
    }
    if (path === '/dld-palm/api/yibao/identify') {
      const authorized = insured.has(Number(body.patientId))
      return ok({
        authorized,
        channel: 'wechat',
        authUrl: authorized ? null : `/sandbox/insurance/authorize?channel=wechat&redirect=${encodeURIComponent(body.redirect!)}`,
        insuTypeName: authorized ? '职工基本医疗保险' : null,
        expiresAt: authorized ? new Date(Date.now() + 7_200_000).toISOString() : null,
      })
    }
    if (path === '/dld-palm/api/yibao/wechat/userquery') {
      if (body.authCode !== 'GOOD-CODE') return refuse(400, '医保授权人与就诊人信息不一致，请使用就诊人本人的医保电子凭证授权')
      insured.add(Number(body.patientId))
      return ok({ authorized: true, channel: 'wechat', authUrl: null, insuTypeName: '职工基本医疗保险', expiresAt: new Date(Date.now() + 7_200_000).toISOString() })
    }
    if (path === '/dld-palm/api/yibao/outpfeeupload' || path === '/dld-palm/api/yibao/split') {
      const reg = registrations.find((r) => r.order?.orderNo === (body.orderNo ?? query.orderNo))
      if (!reg?.order) return refuse(2999, '暂无权限')
      // employees: the fund pays 70 %
      if (path.endsWith('outpfeeupload')) reg.order = { ...reg.order, insuranceFen: Math.floor(reg.order.amountFen * 0.7), selfPayFen: reg.order.amountFen - Math.floor(reg.order.amountFen * 0.7) }
      else if (!reg.order.insuranceFen) return ok(null)
      const o = reg.order
      return ok({ orderNo: o.orderNo, totalFen: o.amountFen, fundFen: o.insuranceFen, accountFen: 0, cashFen: o.selfPayFen, insuTypeName: '职工基本医疗保险', status: o.status === 'paid' ? 'settled' : 'uploaded' })
    }
    if (path === '/dld-palm/api/payment/yibao/init') return ok({ kind: 'redirect', channel: 'sandbox', url: `/sandbox/pay/cashier?orderNo=${body.orderNo}` })
    if (path.startsWith('/dld-pay/order/')) {
      const reg = registrations.find((r) => r.order?.orderNo === path.split('/').pop())
      return reg ? ok(reg.order) : refuse(2999, '暂无权限')
    }
    return { statusCode: 404, data: '' }
  })
}

const sent = (path: string) => calls.requests.filter((r) => r.url.split('?')[0] === path)
const formOf = (r: { data: unknown }) => Object.fromEntries(new URLSearchParams(r.data as string))
const toasts = () => calls.toasts.map((t) => t.title)

/** A registration as the server keeps it, for the record and detail pages. */
function record(id: number, status: RegistrationStatus, extra: Partial<Registration> = {}): Registration {
  const reg: Registration = {
    id,
    regNo: `R${id}`,
    status,
    statusText: STATUS_TEXT[status],
    hospitalCode: HOSPITAL,
    hospitalName: '示范市第一人民医院',
    deptName: '心血管内科',
    doctorName: '李明',
    title: '主任医师',
    registerType: '专家号',
    visitDate: '2026-11-24',
    week: '周二',
    segment: 'pm',
    segmentText: '下午',
    timeRange: '14:00-14:30',
    seq: 2,
    feeFen: 5000,
    patientId: 1,
    patientName: '张*',
    hisMedCardNo: 'A100001',
    holdExpiresAt: status === 'holding' ? new Date(Date.now() + 10 * 60_000).toISOString() : null,
    cancellable: status === 'holding' || status === 'booked',
    insurance: false,
    order: null,
    createdAt: '2026-11-23T01:00:00.000Z',
    ...extra,
  }
  if (!('order' in extra)) reg.order = order(reg, 5000, 0, status === 'booked' ? 'paid' : status === 'holding' ? 'created' : 'cancelled')
  return reg
}

let pay: jest.SpyInstance
/** Patients with a live insurance authorisation in the fake server. */
let insured = new Set<number>()

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10392demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  schedules = freshSchedules()
  insuranceHospital = true
  insured = new Set()
  registrations = []
  byKey = new Map()
  nextBooking = 'ok'
  failing = new Set()
  nextId = 500
  pay = jest.spyOn(platform, 'pay').mockResolvedValue('left')
  serve()
})
afterEach(() => {
  pay.mockRestore()
  jest.useRealTimers()
})

// ---------- the pages ----------

describe('预约挂号 notice /palm/register/index', () => {
  test('shows the hospital’s rules; 开始挂号 works only after 我已阅读并同意', async () => {
    testing.setRouter('/palm/register/index')
    render(<RegisterNotice />)
    expect(await screen.findByText('1. 预约成功后请按预约时段提前15分钟到院报到。')).toBeTruthy()
    expect(screen.getByText('取消规则：就诊前一日17:00前可取消，逾期不可退号')).toBeTruthy()
    expect(screen.getByText('预约后请在15分钟内完成支付，超时号源将自动释放')).toBeTruthy()
    expect(formOf(sent('/dld-palm/api/hospital/register')[0]!)).toEqual({ hospitalCode: HOSPITAL })

    const next = screen.getByText('开始挂号') as HTMLButtonElement
    expect(next.disabled).toBe(true)
    fireEvent.click(next)
    expect(calls.navigations).toEqual([])
    fireEvent.click(screen.getByText('我已阅读并同意'))
    expect(screen.getByRole('checkbox').getAttribute('aria-checked')).toBe('true')
    fireEvent.click(screen.getByText('开始挂号'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/palm/register/deptList/index' }])
  })

  test('rules that cannot be read say so, and nothing can be started', async () => {
    failing.add('/dld-palm/api/hospital/register')
    testing.setRouter('/palm/register/index')
    render(<RegisterNotice />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
    expect(screen.queryByText('开始挂号')).toBeNull()
  })
})

describe('选择科室 /palm/register/deptList/index', () => {
  test('clinic groups on the left, their departments on the right; a department opens its schedule', async () => {
    testing.setRouter('/palm/register/deptList/index')
    render(<DeptList />)
    expect(await screen.findByText('心血管内科')).toBeTruthy()
    const tabs = within(screen.getByLabelText('门诊')).getAllByRole('tab')
    expect(tabs.map((t) => [t.textContent, t.getAttribute('aria-selected')])).toEqual([
      ['内科', 'true'],
      ['外科', 'false'],
    ])
    expect(screen.queryByText('骨科')).toBeNull()
    fireEvent.click(screen.getByText('外科'))
    expect(screen.getByText('骨科')).toBeTruthy()
    expect(screen.queryByText('心血管内科')).toBeNull()
    fireEvent.click(screen.getByText('骨科'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: `/palm/register/deptSchedule/index?deptId=21&deptName=${encodeURIComponent('骨科')}` }])
    expect(session.get(SESSION.dept)).toEqual({ id: 21, deptName: '骨科' }) // spec §3 session key 'dept'
  })

  test('the list is cached per hospital (spec §3): shown at once next time, and kept when the server fails', async () => {
    const first = new RegisterStore(() => HOSPITAL).catalogue
    await first.loadDepartments()
    expect(local.get<Record<string, unknown>>(LOCAL.palmDeptList)).toHaveProperty(`${HOSPITAL}:default`)

    failing.add(`/dld-palm/api/department/${HOSPITAL}`)
    const again = new RegisterStore(() => HOSPITAL).catalogue
    const loading = again.loadDepartments()
    expect(again.groups.map((g) => g.deptName)).toEqual(['内科', '外科']) // before any answer
    await loading
    expect(again.groupsState).toBe('done')

    const otherHospital = new RegisterStore(() => '10388').catalogue
    await otherHospital.loadDepartments()
    expect(otherHospital.groups).toEqual([])
    expect(otherHospital.groupsState).toBe('failed')
  })

  test('with no cache a failed list says 加载失败 and can be retried', async () => {
    failing.add(`/dld-palm/api/department/${HOSPITAL}`)
    testing.setRouter('/palm/register/deptList/index')
    render(<DeptList />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
    failing.clear()
    fireEvent.click(screen.getByText('重新加载'))
    expect(await screen.findByText('心血管内科')).toBeTruthy()
  })

  test('热门科室 asks the server for the most booked order', async () => {
    testing.setRouter('/palm/register/deptList/index')
    render(<DeptList />)
    await screen.findByText('心血管内科')
    fireEvent.click(screen.getByText('热门科室'))
    await waitFor(() => expect(screen.getByText('骨科')).toBeTruthy())
    expect(sent(`/dld-palm/api/department/${HOSPITAL}`).map((r) => (r.data as { deptSort: string }).deptSort)).toEqual(['default', 'hot'])
  })
})

describe('搜索 /palm/register/deptList/search', () => {
  test('searches 500 ms after the last keystroke, once; doctors show title and hospital from the remark', async () => {
    jest.useFakeTimers()
    testing.setRouter('/palm/register/deptList/search')
    render(<RegisterSearch />)
    const box = await screen.findByPlaceholderText('搜索科室、医生、疾病')
    fireEvent.change(box, { target: { value: '李' } })
    act(() => void jest.advanceTimersByTime(300))
    fireEvent.change(box, { target: { value: '心' } })
    act(() => void jest.advanceTimersByTime(499))
    expect(sent('/dld-palm/api/department/search')).toHaveLength(0)
    act(() => void jest.advanceTimersByTime(1))
    await screen.findByText('科室')
    expect(sent('/dld-palm/api/department/search').map((r) => r.data)).toEqual([{ hospitalCode: HOSPITAL, keyword: '心' }])
    expect(screen.getByText('心血管内科')).toBeTruthy()
    const doctor = screen.getByText('李明').closest('.register-search__doctor') as HTMLElement
    expect(within(doctor).getByText('主任医师')).toBeTruthy()
    expect(within(doctor).getByText('示范市第一人民医院 · 心血管内科')).toBeTruthy()
    expect(doctor.textContent).not.toContain('|')

    fireEvent.click(doctor)
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/doctor/index?id=101' })
    fireEvent.click(screen.getByText('冠心病'))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: `/palm/register/deptSchedule/index?deptId=11&deptName=${encodeURIComponent('心血管内科')}` })
  })

  test('nothing found and a failed search each say so; clearing the box clears the results', async () => {
    jest.useFakeTimers()
    testing.setRouter('/palm/register/deptList/search')
    render(<RegisterSearch />)
    const box = await screen.findByPlaceholderText('搜索科室、医生、疾病')
    fireEvent.change(box, { target: { value: '无此病' } })
    act(() => void jest.advanceTimersByTime(500))
    expect(await screen.findByText('未找到相关科室、医生或疾病')).toBeTruthy()

    failing.add('/dld-palm/api/department/search')
    fireEvent.change(box, { target: { value: '心' } })
    act(() => void jest.advanceTimersByTime(500))
    expect(await screen.findByText('加载失败')).toBeTruthy()
    expect(toasts()).toEqual([]) // the page says it; no toast on top

    fireEvent.change(box, { target: { value: '' } })
    act(() => void jest.advanceTimersByTime(500))
    expect(screen.queryByText('加载失败')).toBeNull()
    expect(sent('/dld-palm/api/department/search')).toHaveLength(2)
  })
})

describe('科室排班 /palm/register/deptSchedule/index', () => {
  const open = async () => {
    testing.setRouter('/palm/register/deptSchedule/index', { deptId: '11', deptName: '心血管内科' })
    render(<DeptSchedule />)
    await screen.findByLabelText('就诊日期')
  }

  test('a 14-day strip, the first day with numbers chosen; items show state and fee in yuan', async () => {
    await open()
    const days = within(screen.getByLabelText('就诊日期')).getAllByRole('tab')
    expect(days).toHaveLength(14)
    expect(days[0]!.textContent).toBe(`${DAYS[0]!.week}11-23有号`)
    expect(days[2]!.textContent).toContain('无号')
    expect(days[0]!.getAttribute('aria-selected')).toBe('true')

    const full = screen.getByText('李明').closest('.schedule-row') as HTMLElement
    expect(within(full).getByText('约满')).toBeTruthy()
    expect(within(full).getByText('¥50.00')).toBeTruthy()
    const general = screen.getByText('普通门诊').closest('.schedule-row') as HTMLElement
    expect(within(general).getByText('有号 余3')).toBeTruthy()
    expect(within(general).getByText('¥10.00')).toBeTruthy()

    fireEvent.click(full)
    expect(calls.navigations).toEqual([]) // 约满 cannot be booked
    fireEvent.click(general)
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/palm/register/confirm/index?scheduleId=1002' }])
  })

  test('another day shows its own items, a stopped one as 停诊; an empty day says so', async () => {
    await open()
    fireEvent.click(within(screen.getByLabelText('就诊日期')).getAllByRole('tab')[1]!)
    const stopped = screen.getByText('王芳').closest('.schedule-row') as HTMLElement
    expect(within(stopped).getByText('停诊')).toBeTruthy()
    fireEvent.click(stopped)
    expect(calls.navigations).toEqual([])
    fireEvent.click(within(screen.getByLabelText('就诊日期')).getAllByRole('tab')[5]!)
    expect(screen.getByText('当日暂无排班')).toBeTruthy()
  })

  test('按医生 lists each doctor once, the general clinic too, and opens one doctor’s grid', async () => {
    await open()
    fireEvent.click(screen.getByRole('tab', { name: '按医生' }))
    const rows = document.querySelectorAll('.dept-schedule__doctor')
    expect(Array.from(rows, (r) => r.textContent)).toEqual(['李明主任医师有号', '普通门诊有号', '王芳副主任医师约满'])
    fireEvent.click(rows[0]!)
    fireEvent.click(rows[1]!)
    expect(calls.navigations).toEqual([
      { kind: 'navigateTo', url: '/palm/register/rowSchedule/index?deptId=11&doctorId=101' },
      { kind: 'navigateTo', url: '/palm/register/rowSchedule/index?deptId=11' },
    ])
  })
})

describe('医生排班 /palm/register/rowSchedule/index and 医生主页 /palm/doctor/index', () => {
  test('one doctor’s grid by date and segment; only 有号 cells book', async () => {
    testing.setRouter('/palm/register/rowSchedule/index', { deptId: '11', doctorId: '101' })
    render(<RowSchedule />)
    const grid = await screen.findByRole('table')
    expect(within(grid).getAllByRole('columnheader').map((c) => c.textContent)).toEqual([`${DAYS[0]!.week}11-23`, `${DAYS[1]!.week}11-24`])
    const fullCell = within(grid).getByLabelText(`${DAYS[0]!.visitDate} 上午 约满`)
    const openCell = within(grid).getByLabelText(`${DAYS[1]!.visitDate} 下午 有号`)
    expect(openCell.textContent).toBe('有号¥50.00')
    fireEvent.click(fullCell)
    fireEvent.click(openCell)
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/palm/register/confirm/index?scheduleId=1003' }])
    expect(screen.getByText('擅长：冠心病介入治疗')).toBeTruthy()
  })

  test('the general clinic’s grid comes from the department schedule', async () => {
    testing.setRouter('/palm/register/rowSchedule/index', { deptId: '11' })
    render(<RowSchedule />)
    const grid = await screen.findByRole('table')
    expect(within(grid).getByLabelText(`${DAYS[0]!.visitDate} 上午 有号`).textContent).toBe('有号¥10.00')
    expect(sent('/dld-palm/api/schedule-doctor')).toHaveLength(0)
  })

  test('the doctor page shows who the doctor is and the schedule to book', async () => {
    testing.setRouter('/palm/doctor/index', { id: '101' })
    render(<DoctorHome />)
    expect(await screen.findByText('示范市第一人民医院 · 心血管内科')).toBeTruthy()
    expect(screen.getByText('从事心血管临床工作三十年。')).toBeTruthy()
    fireEvent.click(screen.getByLabelText(`${DAYS[1]!.visitDate} 下午 有号`))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/palm/register/confirm/index?scheduleId=1003' }])
  })
})

describe('确认挂号 /palm/register/confirm/index', () => {
  const open = async (scheduleId: number) => {
    testing.setRouter('/palm/register/confirm/index', { scheduleId: String(scheduleId) })
    render(<ConfirmRegister />)
    await screen.findByLabelText('就诊时段')
    await waitFor(() => expect(screen.queryByText('计算中...')).toBeNull())
  }
  const submitButton = () => screen.getByText(/确认挂号|免费预约|提交中/, { selector: 'button' }) as HTMLButtonElement

  test('the schedule, masked patients, time ranges with what is left (a full one cannot be chosen) and the fee', async () => {
    await open(1002)
    expect(screen.getByText('心血管内科')).toBeTruthy()
    const patients = within(screen.getByLabelText('就诊人')).getAllByRole('radio')
    expect(patients.map((p) => [p.textContent, p.getAttribute('aria-checked')])).toEqual([
      ['张*', 'true'],
      ['王**', 'false'],
      ['李*待完善', 'false'],
    ])
    const ranges = within(screen.getByLabelText('就诊时段')).getAllByRole('radio')
    expect(ranges.map((r) => [r.textContent, r.getAttribute('aria-checked')])).toEqual([
      ['08:00-08:30已约满', 'false'],
      ['08:30-09:00余2', 'true'],
      ['09:00-09:30余1', 'false'],
    ])
    fireEvent.click(ranges[0]!)
    expect(ranges[1]!.getAttribute('aria-checked')).toBe('true')
    fireEvent.click(ranges[2]!)
    expect(ranges[2]!.getAttribute('aria-checked')).toBe('true')
    expect(screen.getByText('挂号费').nextSibling!.textContent).toBe('¥10.00')
    expect(screen.getByText('合计').nextSibling!.textContent).toBe('¥10.00')
    expect(formOf(sent('/dld-palm/api/activity/price')[0]!)).toEqual({ scheduleId: '1002', patientId: '1' })
  })

  test('an incomplete patient shows the completion modal (spec §5) and is not chosen', async () => {
    await open(1002)
    fireEvent.click(screen.getByText('李*'))
    const dialog = screen.getByRole('dialog')
    expect(within(dialog).getByText('当前就诊人信息不完整，请先完善就诊人信息。')).toBeTruthy()
    fireEvent.click(within(dialog).getByText('完善就诊人信息'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/custom/10392/addPatient/index?id=3&business=edit' }])
    expect(within(screen.getByLabelText('就诊人')).getByRole('radio', { checked: true }).textContent).toBe('张*')
  })

  test('an incomplete patient chosen elsewhere is stopped at submit, and nothing is booked', async () => {
    session.set(SESSION.patient, patientDto(people[2]!, 2))
    mockRoot = new RootStore()
    await open(1002)
    fireEvent.click(submitButton())
    expect(within(screen.getByRole('dialog')).getByText('当前就诊人信息不完整，请先完善就诊人信息。')).toBeTruthy()
    expect(sent('/dld-palm/api/register')).toHaveLength(0)
  })

  test('the elderly on the general clinic see the activity price and book free at once', async () => {
    await open(1002)
    fireEvent.click(screen.getByText('王**'))
    await screen.findByText('免费预约')
    expect(screen.getByText('活动优惠').nextSibling!.textContent).toBe('-¥10.00（65岁以上老人免挂号费）')
    expect(screen.getByText('活动价').nextSibling!.textContent).toBe('¥0.00')
    fireEvent.click(submitButton())
    await waitFor(() => expect(calls.navigations).toEqual([{ kind: 'redirectTo', url: '/pages/order/register/detail?source=confirm&type=register&id=500' }]))
    expect(formOf(sent('/dld-palm/api/apply/free')[0]!)).toMatchObject({ scheduleId: '1002', patientId: '2', timeRange: '08:30-09:00' })
    expect(sent('/dld-palm/api/register')).toHaveLength(0)
    expect(usePatientStore.of(mockRoot).current?.id).toBe(2) // the patient chosen here is the session's (spec §3 'patient')
  })

  test('booking holds the slot: the countdown shows mm:ss and 去支付 asks how to pay with the return page', async () => {
    await open(1003)
    expect(screen.getByText('结算方式')).toBeTruthy()
    fireEvent.click(submitButton())
    const countdown = await screen.findByText(/^(15:00|14:5\d)$/)
    expect(countdown.closest('.hold-pay')!.textContent).toContain('号源已为您保留')
    const body = formOf(sent('/dld-palm/api/register')[0]!)
    expect(body).toMatchObject({ scheduleId: '1003', patientId: '1', timeRange: '14:00-14:30' })
    expect(body).not.toHaveProperty('insurance')
    expect(body.idempotencyKey!.length).toBeGreaterThanOrEqual(16)
    expect(document.querySelector('.action-bar__amount')!.textContent).toBe('应付 ¥50.00')
    expect(screen.queryByText('确认挂号', { selector: 'button' })).toBeNull() // one attempt, one booking

    fireEvent.click(screen.getByText('去支付'))
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    expect(formOf(sent('/dld-palm/api/register/pay')[0]!)).toEqual({ id: '500', returnUrl: '/h5/pages/order/register/detail?source=pay&type=register&id=500' })
    expect(pay).toHaveBeenCalledWith({ kind: 'redirect', channel: 'sandbox', url: '/sandbox/pay/cashier?orderNo=P20261123000000000500' })
  })

  test('choosing 医保 books the hold with insurance and goes on to the insurance payment page', async () => {
    await open(1003)
    fireEvent.click(screen.getByText('医保'))
    expect(screen.getByText('医保支付部分以医院结算为准，个人自付部分需在线支付')).toBeTruthy()
    fireEvent.click(submitButton())
    await waitFor(() => expect(calls.navigations).toEqual([{ kind: 'redirectTo', url: '/palm/chsPayment/index?source=register&type=register&id=500' }]))
    expect(formOf(sent('/dld-palm/api/register')[0]!)).toMatchObject({ scheduleId: '1003', insurance: 'true' })
    expect(sent('/dld-palm/api/register/pay')).toHaveLength(0)
  })

  test('paid in WeChat’s own sheet: the server confirms and the record opens', async () => {
    pay.mockResolvedValue('paid')
    await open(1003)
    fireEvent.click(submitButton())
    fireEvent.click(await screen.findByText('去支付'))
    await waitFor(() => expect(calls.navigations).toEqual([{ kind: 'redirectTo', url: '/pages/order/register/detail?source=pay&type=register&id=500' }]))
    expect(sent('/dld-palm/api/confirm/500')).toHaveLength(1)
  })

  test('without insurance at the hospital there is no insurance choice and none is sent', async () => {
    insuranceHospital = false
    await open(1003)
    expect(screen.queryByText('结算方式')).toBeNull()
    fireEvent.click(submitButton())
    await screen.findByText('去支付')
    expect(formOf(sent('/dld-palm/api/register')[0]!)).not.toHaveProperty('insurance')
  })

  test('a refusal (full) made nothing: the next tap is a new attempt with a new key', async () => {
    await open(1003)
    nextBooking = 'full'
    fireEvent.click(submitButton())
    await waitFor(() => expect(toasts()).toEqual(['该时段号源已约满，请选择其他时段']))
    await waitFor(() => expect(submitButton().disabled).toBe(false))
    fireEvent.click(submitButton())
    await screen.findByText('去支付')
    const [first, second] = sent('/dld-palm/api/register').map((r) => formOf(r).idempotencyKey)
    expect(first).not.toBe(second)
  })

  test('no answer may have booked: the retry sends the same key and gets that one booking, not a second hold', async () => {
    await open(1003)
    nextBooking = 'dropAfterCommit'
    fireEvent.click(submitButton())
    await waitFor(() => expect(toasts()).toEqual(['未连接到服务器']))
    await waitFor(() => expect(submitButton().disabled).toBe(false))
    fireEvent.click(submitButton())
    await screen.findByText('去支付')
    const keys = sent('/dld-palm/api/register').map((r) => formOf(r).idempotencyKey)
    expect(keys).toHaveLength(2)
    expect(keys[0]).toBe(keys[1])
    expect(registrations).toHaveLength(1)
    expect(schedules.find((s) => s.scheduleId === 1003)!.timeRanges[0]!.remaining).toBe(0) // one slot taken, not two
  })

  test('a double tap sends one booking', async () => {
    await open(1003)
    const button = submitButton()
    fireEvent.click(button)
    fireEvent.click(button)
    await screen.findByText('去支付')
    expect(sent('/dld-palm/api/register')).toHaveLength(1)
  })

  test('two submits at once (before the page re-renders) still send one booking', async () => {
    const store = useRegisterStore.of(mockRoot).booking
    await mockRoot.startup({})
    await usePatientStore.of(mockRoot).load()
    await store.openBooking(1003)
    await store.loadPrice()
    const [a, b] = await Promise.all([store.submit(), store.submit()])
    expect(a?.id).toBe(500)
    expect(b).toBeNull()
    expect(sent('/dld-palm/api/register')).toHaveLength(1)
  })

  test('a full or stopped schedule cannot be submitted and says why', async () => {
    await open(1001)
    expect(screen.getByText('该时段号源已约满')).toBeTruthy()
    expect(submitButton().disabled).toBe(true)
  })
})

describe('挂号记录 /pages/order/register/index', () => {
  beforeEach(() => {
    registrations = Array.from({ length: 13 }, (_, i) => record(100 - i, i < 2 ? 'holding' : i < 9 ? 'booked' : 'cancelled'))
  })

  test('全部 a page at a time down to 没有更多了; names arrive masked', async () => {
    testing.setRouter('/pages/order/register/index')
    render(<RegisterRecords />)
    await screen.findAllByText('心血管内科')
    expect(document.querySelectorAll('.record')).toHaveLength(10)
    expect(screen.getByText('加载更多')).toBeTruthy()
    expect(screen.getAllByText('就诊人：张*（A100001）').length).toBe(10)
    fireEvent.click(screen.getByText('加载更多'))
    await screen.findByText('没有更多了')
    expect(document.querySelectorAll('.record')).toHaveLength(13)
    expect(sent('/dld-palm/api/register/list').map((r) => r.data)).toEqual([
      { hospitalCode: HOSPITAL, page: 1, size: 10 },
      { hospitalCode: HOSPITAL, page: 2, size: 10 },
    ])
    fireEvent.click(document.querySelector('.record')!)
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/pages/order/register/detail?source=list&type=register&id=100' }])
  })

  test('each tab asks for its status; an empty tab and a failed one say so', async () => {
    testing.setRouter('/pages/order/register/index')
    render(<RegisterRecords />)
    await screen.findAllByText('心血管内科')
    fireEvent.click(screen.getByRole('tab', { name: '待支付' }))
    await waitFor(() => expect(document.querySelectorAll('.record')).toHaveLength(2))
    expect(screen.getAllByText('待支付').length).toBe(3) // the tab and two badges
    expect((sent('/dld-palm/api/register/list').pop()!.data as { status: string }).status).toBe('holding')

    registrations = []
    fireEvent.click(screen.getByRole('tab', { name: '已取消' }))
    expect(await screen.findByText('暂无挂号记录')).toBeTruthy()
    calls.navigations.length = 0
    fireEvent.click(screen.getByRole('button', { name: '去挂号' }))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/palm/register/index' }])

    failing.add('/dld-palm/api/register/list')
    fireEvent.click(screen.getByRole('tab', { name: '预约成功' }))
    expect(await screen.findByText('加载失败')).toBeTruthy()
  })
})

describe('挂号详情 /pages/order/register/detail', () => {
  const open = async (params: Record<string, string>) => {
    testing.setRouter('/pages/order/register/detail', params)
    render(<RegisterDetail />)
    await screen.findByText('预约号')
  }
  const row = (label: string) => screen.getByText(label).nextSibling!.textContent

  test('back from the cashier it confirms with the server first, then shows the booking and its amounts', async () => {
    registrations = [record(42, 'holding')]
    await open({ source: 'pay', type: 'register', id: '42' })
    expect(sent('/dld-palm/api/confirm/42')).toHaveLength(1)
    expect(screen.getAllByText('预约成功').length).toBeGreaterThan(0)
    expect(row('订单金额')).toBe('¥50.00')
    expect(row('个人支付')).toBe('¥50.00')
    expect(row('支付状态')).toBe('已支付')
    expect(row('支付方式')).toBe('模拟支付')
    expect(row('就诊人')).toBe('张*')
    expect(screen.queryByText('去支付')).toBeNull()
  })

  test('a hold shows its countdown and 去支付; once run out it says why and cannot be paid', async () => {
    registrations = [record(43, 'holding', { holdExpiresAt: new Date(Date.now() - 1000).toISOString() })]
    await open({ source: 'list', type: 'register', id: '43' })
    expect(sent('/dld-palm/api/confirm/43')).toHaveLength(0)
    expect(screen.getByText(HOLD_EXPIRED)).toBeTruthy()
    const button = screen.getByText('去支付') as HTMLButtonElement
    expect(button.disabled).toBe(true)
    fireEvent.click(button)
    expect(sent('/dld-palm/api/register/pay')).toHaveLength(0)
  })

  test('取消预约 of a paid booking asks with the refund text, then shows the refund', async () => {
    registrations = [record(44, 'booked')]
    const modal = jest.spyOn(Taro, 'showModal')
    await open({ type: 'register', id: '44' })
    fireEvent.click(screen.getByText('取消预约'))
    await screen.findByText('退款处理中：¥50.00将原路退回，预计1-7个工作日到账')
    expect(modal).toHaveBeenCalledWith(
      expect.objectContaining({ title: '提示', content: '确定取消预约吗？取消后已支付的¥50.00将原路退回，预计1-7个工作日到账。' }),
    )
    expect(formOf(sent('/dld-palm/api/cancel')[0]!)).toEqual({ id: '44' })
    expect(toasts()).toEqual(['已取消，退款将原路退回'])
    expect(screen.queryByText('取消预约')).toBeNull()
    modal.mockRestore()
  })

  test('declining the question cancels nothing', async () => {
    registrations = [record(45, 'holding')]
    const modal = jest.spyOn(Taro, 'showModal').mockResolvedValueOnce({ confirm: false, cancel: true } as never)
    await open({ type: 'register', id: '45' })
    fireEvent.click(screen.getByText('取消预约'))
    await waitFor(() => expect(modal).toHaveBeenCalledWith(expect.objectContaining({ content: '确定取消本次预约吗？取消后号源将释放给其他患者。' })))
    expect(sent('/dld-palm/api/cancel')).toHaveLength(0)
    modal.mockRestore()
  })

  test('past the deadline there is no 取消预约, and the page says why', async () => {
    registrations = [record(46, 'booked', { cancellable: false })]
    await open({ type: 'register', id: '46' })
    expect(screen.queryByText('取消预约')).toBeNull()
    await screen.findByText('已超过取消时限，不可取消（就诊前一日17:00前可取消，逾期不可退号）')
  })

  test('someone else’s record goes to the no-permission page and shows nothing', async () => {
    registrations = []
    testing.setRouter('/pages/order/register/detail', { type: 'register', id: '999' })
    render(<RegisterDetail />)
    await waitFor(() => expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/pages/permission' }]))
    expect(await screen.findByText('加载失败')).toBeTruthy()
    expect(screen.queryByText('预约号')).toBeNull()
  })
})

describe('医保支付 /palm/chsPayment/index', () => {
  test('the insurance and self-pay split of a registration’s order', async () => {
    const reg = record(47, 'booked', { order: null })
    reg.order = { ...order(reg, 5000, 3000, 'paid'), channel: 'wechat', paidAt: '2026-11-23T02:00:00.000Z' }
    registrations = [reg]
    testing.setRouter('/palm/chsPayment/index', { source: 'register', type: 'register', id: '47' })
    render(<ChsPayment />)
    await screen.findByText('订单总额')
    expect(screen.getByText('¥50.00')).toBeTruthy()
    // a paid order shows the settlement as insurance answered it, nothing to authorise
    expect(await screen.findByText('统筹基金支付')).toBeTruthy()
    expect(screen.getByText('统筹基金支付').nextSibling!.textContent).toBe('¥30.00')
    expect(screen.getByText('个人账户支付').nextSibling!.textContent).toBe('¥0.00')
    expect(screen.getByText('个人自付').nextSibling!.textContent).toBe('¥20.00')
    expect(screen.getByText('支付方式').nextSibling!.textContent).toBe('微信支付')
    expect(sent('/dld-palm/api/yibao/identify')).toHaveLength(0)
  })

  test('by order number too; a free booking has nothing to settle', async () => {
    const reg = record(48, 'booked')
    registrations = [reg, record(49, 'booked', { order: null })]
    testing.setRouter('/palm/chsPayment/index', { source: 'pay', orderNo: reg.order!.orderNo })
    render(<ChsPayment />)
    await screen.findByText('订单总额')
    expect(sent(`/dld-pay/order/${reg.order!.orderNo}`)).toHaveLength(1)

    testing.setRouter('/palm/chsPayment/index', { source: 'register', type: 'register', id: '49' })
    mockRoot = new RootStore()
    render(<ChsPayment />)
    expect(await screen.findByText('该预约无需支付，没有结算记录')).toBeTruthy()
  })

  const CHS_URL = '/palm/chsPayment/index?source=register&type=register&id=50'
  const insuranceHold = () => {
    const reg = record(50, 'holding', { insurance: true })
    registrations = [reg]
    return reg
  }

  test('an insurance hold not yet authorised: the voucher page, coming back to this page; or pay it all yourself', async () => {
    const reg = insuranceHold()
    const leave = jest.spyOn(platform, 'leaveTo').mockImplementation(() => undefined)
    testing.setRouter('/palm/chsPayment/index', { source: 'register', type: 'register', id: '50' })
    render(<ChsPayment />)
    fireEvent.click(await screen.findByText('医保电子凭证授权'))
    expect(formOf(sent('/dld-palm/api/yibao/identify')[0]!)).toEqual({ patientId: '1', hospitalCode: HOSPITAL, redirect: CHS_URL })
    expect(leave).toHaveBeenCalledWith(`/sandbox/insurance/authorize?channel=wechat&redirect=${encodeURIComponent(CHS_URL)}`)
    expect(sent('/dld-palm/api/yibao/outpfeeupload')).toHaveLength(0)
    leave.mockRestore()

    fireEvent.click(screen.getByText('不使用医保，改为自费支付 ›'))
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    expect(formOf(sent('/dld-palm/api/register/pay')[0]!)).toEqual({ id: '50', returnUrl: '/h5/pages/order/register/detail?source=pay&type=register&id=50' })
    expect(reg.order!.insuranceFen).toBe(0)
  })

  test('back with authCode: redeemed once, the fees uploaded, the split shown, and only the cash part paid', async () => {
    insuranceHold()
    const strip = jest.spyOn(platform, 'stripParams')
    testing.setRouter('/palm/chsPayment/index', { source: 'register', type: 'register', id: '50', authCode: 'GOOD-CODE' })
    render(<ChsPayment />)
    expect(await screen.findByText('统筹基金支付')).toBeTruthy()
    expect(formOf(sent('/dld-palm/api/yibao/wechat/userquery')[0]!)).toEqual({ authCode: 'GOOD-CODE', patientId: '1' })
    expect(strip).toHaveBeenCalledWith(['authCode'])
    strip.mockRestore()
    expect(screen.getByText('统筹基金支付').nextSibling!.textContent).toBe('¥35.00')
    expect(screen.getByText('个人自付').nextSibling!.textContent).toBe('¥15.00')
    expect(screen.getByText('参保类型').nextSibling!.textContent).toBe('职工基本医疗保险')
    await waitFor(() => expect(document.querySelector('.action-bar__amount')!.textContent).toBe('应付 ¥15.00'))
    expect(screen.queryByText('不使用医保，改为自费支付 ›')).toBeNull()

    fireEvent.click(screen.getByText('去支付'))
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    expect(formOf(sent('/dld-palm/api/payment/yibao/init')[0]!)).toEqual({
      orderNo: 'P20261123000000000050',
      returnUrl: '/h5/pages/order/register/detail?source=pay&type=register&id=50',
    })
    expect(sent('/dld-palm/api/register/pay')).toHaveLength(0)
  })

  test('someone else’s voucher: the reason shows and the patient can authorise again', async () => {
    insuranceHold()
    testing.setRouter('/palm/chsPayment/index', { source: 'register', type: 'register', id: '50', authCode: 'OTHER-PERSON' })
    render(<ChsPayment />)
    expect(await screen.findByText('医保电子凭证授权')).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toBe('医保授权人与就诊人信息不一致，请使用就诊人本人的医保电子凭证授权')
    expect(sent('/dld-palm/api/yibao/outpfeeupload')).toHaveLength(0)
  })
})

describe('introductions /pages/introduce/doctor and /dept', () => {
  test('a doctor’s introduction leads to booking with that doctor', async () => {
    testing.setRouter('/pages/introduce/doctor', { id: '101' })
    render(<DoctorIntroduce />)
    expect(await screen.findByText('冠心病介入治疗')).toBeTruthy()
    fireEvent.click(screen.getByText('预约挂号'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/palm/doctor/index?id=101' }])
  })

  test('a department’s introduction lists its doctors and leads to its schedule', async () => {
    testing.setRouter('/pages/introduce/dept', { id: '11' })
    render(<DeptIntroduce />)
    expect(await screen.findByText('冠心病、高血压、心律失常的诊治')).toBeTruthy()
    expect(await screen.findByText('王芳')).toBeTruthy()
    fireEvent.click(screen.getByText('李明'))
    fireEvent.click(screen.getByText('预约挂号'))
    expect(calls.navigations).toEqual([
      { kind: 'navigateTo', url: '/pages/introduce/doctor?id=101' },
      { kind: 'navigateTo', url: `/palm/register/deptSchedule/index?deptId=11&deptName=${encodeURIComponent('心血管内科')}` },
    ])
  })
})

describe('paying in H5 (platform.pay)', () => {
  const params = { appId: 'wx1', timeStamp: '1700000000', nonceStr: 'n', package: 'prepay_id=1', signType: 'RSA', paySign: 's' }
  afterEach(() => {
    delete (window as { wx?: unknown }).wx
    delete (window as { WeixinJSBridge?: unknown }).WeixinJSBridge
  })

  test('WeChat JSAPI outside WeChat: a toast says where to pay, and it reports failed', async () => {
    pay.mockRestore()
    await expect(platform.pay({ kind: 'jsapi', channel: 'wechat', params })).resolves.toBe('failed')
    expect(toasts()).toEqual([NO_WECHAT_PAY])
  })

  test('with the JS-SDK: chooseWXPay with its lower-case timestamp; the outcome is reported', async () => {
    pay.mockRestore()
    const chooseWXPay = jest.fn((o: { success: () => void }) => o.success())
    ;(window as { wx?: unknown }).wx = { chooseWXPay }
    await expect(platform.pay({ kind: 'jsapi', channel: 'wechat', params })).resolves.toBe('paid')
    expect(chooseWXPay).toHaveBeenCalledWith(expect.objectContaining({ timestamp: '1700000000', package: 'prepay_id=1', paySign: 's' }))
  })

  test('inside WeChat without the SDK: the browser bridge; cancelling is reported as such', async () => {
    pay.mockRestore()
    const invoke = jest.fn((_n: string, _p: unknown, cb: (r: { err_msg: string }) => void) => cb({ err_msg: 'get_brand_wcpay_request:cancel' }))
    ;(window as { WeixinJSBridge?: unknown }).WeixinJSBridge = { invoke }
    await expect(platform.pay({ kind: 'jsapi', channel: 'wechat', params })).resolves.toBe('cancelled')
    expect(invoke).toHaveBeenCalledWith('getBrandWCPayRequest', params, expect.any(Function))
  })
})
