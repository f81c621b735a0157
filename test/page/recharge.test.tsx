import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import platform from '../../src/platform/index.h5'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import { mapSensitive } from '../../src/utils/base64'
import { dayBefore, yuanTextToFen } from '../../src/stores/RechargeStore'
import { hospitalToday } from '../../src/utils/hospitalClock'
import Hospitalization from '../../src/palm/hospitalization'
import InpatientRecharge from '../../src/palm/hospitalization/recharge/recharge'
import InpatientRecords from '../../src/palm/hospitalization/recharge/record'
import DailyBill from '../../src/palm/hospitalization/settlement'
import SettlementResult from '../../src/palm/hospitalization/settlement/result'
import InpatientDeposit from '../../src/palm/hospitalization/recharge/index'
import RechargeRecords from '../../src/pages/order/recharge'
import RechargeDetail from '../../src/pages/order/recharge/detail'
import AccountRecharge from '../../src/palm/accountRecharge'
import AccountDetail from '../../src/palm/accountRecharge/detail'
import type { Patient } from '../../types/api/patient'
import type { DailyCharges, InpatientView, RechargeRecord } from '../../types/api/palm'
import type { OrderStatus } from '../../types/api/payment'
import type { DischargeSettlement } from '../../types/api/settlement'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10392'
const TODAY = hospitalToday(new Date())
const YESTERDAY = dayBefore(TODAY)
const BEFORE = dayBefore(YESTERDAY)

const patient: Patient = {
  id: 1,
  name: '王小明',
  idCard: '110101********0011',
  mobile: '138****5678',
  sex: 1,
  sexText: '男',
  birthday: '1980-03-07',
  age: 46,
  relation: '父亲',
  source: 'eHealth',
  neonate: false,
  isDefault: true,
  hisMedCardNo: 'A100002',
  complete: true,
  missing: [],
}

let stay: InpatientView | null
let status: OrderStatus
let failing: Set<string>
let recordCount: number
let settlement: DischargeSettlement

const freshStay = (): InpatientView => ({
  hospitalCode: HOSPITAL,
  patientId: 1,
  patientName: '王*明',
  admissionNo: 'Z2026000123',
  deptName: '心血管内科',
  ward: '心内一病区',
  bed: '12',
  doctorName: '姚秀英',
  admittedAt: `${BEFORE}T01:00:00.000Z`,
  status: 'in',
  dischargedAt: null,
  depositFen: 200_000,
  costFen: 180_000,
  balanceFen: 20_000,
  days: [
    { date: BEFORE, amountFen: 100_000 },
    { date: YESTERDAY, amountFen: 80_000 },
  ],
  averageDailyFen: 90_000,
  lowDeposit: true,
  warning: '住院预交金余额不足（余额¥200.00元，近3日日均费用¥900.00元），请及时缴纳',
  settlement: null,
})

const daily = (date: string): DailyCharges => ({
  admissionNo: 'Z2026000123',
  date,
  totalFen: 80_000,
  items: [
    { code: 'D1', name: '阿司匹林肠溶片', spec: '100mg×30片', unit: '盒', category: 'drug', quantity: 2, unitPriceFen: 1590, amountFen: 3180 },
    { code: 'S1', name: '床位费', spec: '', unit: '日', category: 'service', quantity: 1, unitPriceFen: 76_820, amountFen: 76_820 },
  ],
})

function record(id: number, kind: RechargeRecord['kind'] = 'inpatient', amountFen = 100_000): RechargeRecord {
  const paid = status === 'paid'
  return {
    id,
    kind,
    orderNo: `R20261123000${id}`,
    hospitalCode: HOSPITAL,
    hospitalName: '示范市第一人民医院',
    patientId: 1,
    patientName: '王*明',
    admissionNo: kind === 'inpatient' ? 'Z2026000123' : null,
    amountFen,
    status,
    statusText: paid ? '已支付' : '待支付',
    payable: !paid,
    order: {
      orderNo: `R20261123000${id}`,
      business: kind === 'inpatient' ? 'recharge' : 'clinic_recharge',
      subject: '住院预交金',
      amountFen,
      insuranceFen: 0,
      selfPayFen: amountFen,
      status,
      channel: paid ? 'sandbox' : null,
      expiresAt: '2026-11-23T03:00:00.000Z',
      paidAt: paid ? '2026-11-23T02:10:00.000Z' : null,
      refundedFen: 0,
      createdAt: '2026-11-23T02:05:00.000Z',
    },
    createdAt: '2026-11-23T02:05:00.000Z',
    paidAt: paid ? '2026-11-23T02:10:00.000Z' : null,
  }
}

const ok = (data: unknown) => ({
  statusCode: 200,
  data: { code: 200, msg: 'success', data: mapSensitive(data, (v) => Buffer.from(v, 'utf8').toString('base64')) },
})
const refuse = (code: number, msg: string) => ({ statusCode: 200, data: { code, msg, data: null } })

function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = ''] = url.split('?')
    const query = method === 'GET' ? ((data ?? {}) as Record<string, string>) : {}
    const body = Object.fromEntries(new URLSearchParams(typeof data === 'string' ? data : ''))
    if (failing.has(path)) return refuse(500, '服务器开小差了')
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '王五', wechatAvatar: '', mobile: '138****5678', roles: [], appId: 'wx10392demo00000', provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 1, hospitalCode: HOSPITAL, hospitalName: '示范市第一人民医院', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: 'x', userSig: 's', expire: 1 })
    if (path === '/dld-palm/api/patient/list') return ok([patient])
    if (path === '/dld-palm/api/recharge/inpatient') return ok(stay)
    if (path === '/dld-palm/api/recharge/amount') return ok({ hospitalCode: HOSPITAL, amountsFen: [100_000, 200_000, 500_000, 1_000_000], minFen: 100, maxFen: 5_000_000 })
    if (path === '/dld-palm/api/recharge/daily') return ok(daily(body.date!))
    if (path === '/dld-palm/api/recharge/settlement') return body.admissionNo === settlement.admissionNo ? ok(settlement) : refuse(2999, '暂无权限')
    if (path === '/dld-palm/api/recharge') {
      status = 'created'
      const r = record(9, 'inpatient', Number(body.amountFen))
      return ok({ record: r, action: { kind: 'redirect', channel: 'sandbox', url: `/sandbox/pay/cashier?orderNo=${r.orderNo}&first=1` } })
    }
    if (path === '/dld-palm/api/payment/recharge') {
      status = 'created'
      const r = record(5, 'clinic', Number(body.amountFen))
      return ok({ record: r, action: { kind: 'redirect', channel: 'sandbox', url: `/sandbox/pay/cashier?orderNo=${r.orderNo}&first=1` } })
    }
    if (path === '/dld-pay/pay') return ok({ kind: 'redirect', channel: 'sandbox', url: `/sandbox/pay/cashier?orderNo=${body.orderNo}` })
    if (path.startsWith('/dld-pay/order/')) {
      status = 'paid'
      return ok(record(9).order)
    }
    if (path === '/dld-palm/api/recharge/detail') return ok(record(Number(query.id)))
    if (path === '/dld-palm/api/payment/recharge/detail') return ok(record(Number(query.id), 'clinic', 20_000))
    if (path === '/dld-palm/api/payment/clinic/balance') return ok({ hospitalCode: HOSPITAL, patientId: 1, patientName: '王*明', balanceFen: status === 'paid' ? 32_000 : 12_000 })
    if (path === '/dld-palm/api/recharge/list' || path === '/dld-palm/api/payment/recharge/list') {
      const page = Number(query.page)
      const size = Number(query.size)
      const all = Array.from({ length: recordCount }, (_, i) => record(100 + i))
      return ok({ records: all.slice((page - 1) * size, page * size), total: all.length, page, size })
    }
    return { statusCode: 404, data: '' }
  })
}

const sent = (path: string) => calls.requests.filter((r) => r.url.split('?')[0] === path)
const formOf = (r: { data: unknown }) => Object.fromEntries(new URLSearchParams(r.data as string))

let pay: jest.SpyInstance

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10392demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  stay = freshStay()
  status = 'paid'
  failing = new Set()
  recordCount = 12
  settlement = {
    hospitalCode: HOSPITAL,
    patientId: 1,
    patientName: '王*明',
    admissionNo: 'Z2026000123',
    deptName: '心血管内科',
    ward: '心内一病区',
    bed: '12',
    admittedAt: `${BEFORE}T01:00:00.000Z`,
    dischargedAt: `${TODAY}T02:00:00.000Z`,
    stayDays: 2,
    costFen: 180_000,
    depositFen: 200_000,
    returnedFen: 20_000,
    owedFen: 0,
    returns: [{ way: 'original', channel: 'wechat', text: '原路退回微信支付', amountFen: 20_000 }],
    categories: [
      { category: 'service', name: '诊疗服务费', amountFen: 150_000 },
      { category: 'drug', name: '西药费', amountFen: 30_000 },
    ],
  }
  pay = jest.spyOn(platform, 'pay').mockResolvedValue('left')
  serve()
})
afterEach(() => {
  pay.mockRestore()
})

describe('amounts typed in yuan', () => {
  test('whole yuan or two decimals become whole fen; anything else is refused', () => {
    expect(yuanTextToFen('100')).toBe(10_000)
    expect(yuanTextToFen('0.1')).toBe(10)
    expect(yuanTextToFen('1234.56')).toBe(123_456)
    expect(yuanTextToFen(' 8.05 ')).toBe(805)
    for (const bad of ['', '1.234', '01', '-5', '1e3', 'abc', '1.']) expect(yuanTextToFen(bad)).toBeNull()
  })
})

describe('住院服务 /palm/hospitalization/index', () => {
  test('the stay, the money, the low-deposit warning in words, and the ways on', async () => {
    testing.setRouter('/palm/hospitalization/index')
    render(<Hospitalization />)
    expect(await screen.findByText('Z2026000123')).toBeTruthy()
    expect(formOf(sent('/dld-palm/api/recharge/inpatient')[0]!)).toEqual({ hospitalCode: HOSPITAL, patientId: '1' })
    expect(screen.getByText('心内一病区 12床')).toBeTruthy()
    expect(screen.getByText('姚秀英')).toBeTruthy()
    expect(screen.getByText(BEFORE)).toBeTruthy()
    expect(screen.getByText('在院')).toBeTruthy()
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain('预交金余额不足')
    expect(alert.textContent).toContain('请及时缴纳')
    expect(screen.getByText('¥2000.00')).toBeTruthy()
    expect(screen.getByText('¥1800.00')).toBeTruthy()
    expect(screen.getByText('¥200.00')).toBeTruthy()

    fireEvent.click(screen.getByRole('link', { name: /每日清单/ }))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/hospitalization/settlement/index' })
    fireEvent.click(screen.getByRole('link', { name: /充值记录/ }))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/hospitalization/recharge/record' })
    fireEvent.click(screen.getByRole('link', { name: /^住院预交金/ }))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/hospitalization/recharge/index' })
    expect(screen.queryByRole('link', { name: /出院结算单/ })).toBeNull()
  })

  test('discharged: the settlement says what was returned, and no top-up', async () => {
    stay = { ...freshStay(), status: 'discharged', dischargedAt: `${YESTERDAY}T02:00:00.000Z`, lowDeposit: false, warning: null, balanceFen: 0, settlement: { returnedFen: 20_000, owedFen: 0 } }
    testing.setRouter('/palm/hospitalization/index')
    render(<Hospitalization />)
    expect(await screen.findByText('已出院')).toBeTruthy()
    expect(screen.getByText('出院结算')).toBeTruthy()
    expect(screen.getByText('预交金余额 ¥200.00 已退还')).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.queryByText('预交金充值')).toBeNull()
    fireEvent.click(screen.getByRole('link', { name: /出院结算单/ }))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/hospitalization/settlement/result?patientId=1&admissionNo=Z2026000123' })
  })

  test('owed at discharge: says how much to pay', async () => {
    stay = { ...freshStay(), status: 'discharged', dischargedAt: `${YESTERDAY}T02:00:00.000Z`, lowDeposit: false, warning: null, balanceFen: -5_000, settlement: { returnedFen: 0, owedFen: 5_000 } }
    testing.setRouter('/palm/hospitalization/index')
    render(<Hospitalization />)
    expect(await screen.findByText('需补缴 ¥50.00，请到住院收费处办理')).toBeTruthy()
  })

  test('no stay: says so; a failed read: 加载失败 with 重新加载', async () => {
    stay = null
    testing.setRouter('/palm/hospitalization/index')
    const { unmount } = render(<Hospitalization />)
    expect(await screen.findByText('该就诊人暂无住院信息')).toBeTruthy()
    unmount()

    mockRoot = new RootStore()
    stay = freshStay()
    failing.add('/dld-palm/api/recharge/inpatient')
    render(<Hospitalization />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
    failing.clear()
    fireEvent.click(screen.getByText('重新加载'))
    expect(await screen.findByText('Z2026000123')).toBeTruthy()
  })
})

describe('预交金充值 /palm/hospitalization/recharge/recharge', () => {
  test('the hospital’s amounts as radios, an own amount checked, and 立即充值 pays with the record’s return page', async () => {
    testing.setRouter('/palm/hospitalization/recharge/recharge')
    render(<InpatientRecharge />)
    const first = await screen.findByRole('radio', { name: '1000元' })
    expect(screen.getAllByRole('radiogroup').map((g) => within(g).getAllByRole('radio').length)).toContain(4)
    expect(first.getAttribute('aria-checked')).toBe('true')
    expect(document.querySelector('.action-bar__amount')!.textContent).toBe('充值金额 ¥1000.00')

    fireEvent.click(screen.getByRole('radio', { name: '2000元' }))
    expect(screen.getByRole('radio', { name: '2000元' }).getAttribute('aria-checked')).toBe('true')
    expect(first.getAttribute('aria-checked')).toBe('false')

    // an own amount: three decimals and too much are refused in words, two decimals are fine
    const own = screen.getByLabelText('其他金额（元）')
    fireEvent.input(own, { target: { value: '12.345' } })
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain('请输入正确的金额（整数或最多两位小数）')
    fireEvent.input(own, { target: { value: '60000' } })
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain('充值金额应在¥1.00至¥50000.00之间')
    fireEvent.input(own, { target: { value: '1500.50' } })
    expect(screen.getByRole('radio', { name: '2000元' }).getAttribute('aria-checked')).toBe('false')
    expect(document.querySelector('.action-bar__amount')!.textContent).toBe('充值金额 ¥1500.50')

    fireEvent.click(screen.getByText('立即充值'))
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    const body = formOf(sent('/dld-palm/api/recharge')[0]!)
    expect(body).toMatchObject({ hospitalCode: HOSPITAL, patientId: '1', admissionNo: 'Z2026000123', amountFen: '150050' })
    expect(body.idempotencyKey!.length).toBeGreaterThanOrEqual(16)
    // the cashier is asked for again with the record's id in its return page
    expect(body.returnUrl).toBe('/h5/pages/order/recharge/detail?source=pay')
    expect(formOf(sent('/dld-pay/pay')[0]!)).toEqual({ orderNo: 'R202611230009', returnUrl: '/h5/pages/order/recharge/detail?source=pay&id=9' })
    expect(pay).toHaveBeenCalledWith({ kind: 'redirect', channel: 'sandbox', url: '/sandbox/pay/cashier?orderNo=R202611230009' })
  })

  test('discharged: no top-up, says why', async () => {
    stay = { ...freshStay(), status: 'discharged', dischargedAt: `${YESTERDAY}T02:00:00.000Z`, settlement: { returnedFen: 0, owedFen: 0 } }
    testing.setRouter('/palm/hospitalization/recharge/recharge')
    render(<InpatientRecharge />)
    expect(await screen.findByText('该住院已出院结算，无需缴纳住院预交金')).toBeTruthy()
    expect(screen.queryByText('立即充值')).toBeNull()
  })
})

describe('充值详情 /pages/order/recharge/detail', () => {
  test('back from the cashier: asks how the payment went, then shows 已支付 and the new balance', async () => {
    status = 'created'
    stay = { ...freshStay(), balanceFen: 120_000, lowDeposit: false, warning: null }
    testing.setRouter('/pages/order/recharge/detail', { source: 'pay', id: '9', orderNo: 'R202611230009' })
    render(<RechargeDetail />)
    expect(await screen.findByText('住院预交金充值成功')).toBeTruthy()
    expect(sent('/dld-pay/order/R202611230009')).toHaveLength(1)
    expect(screen.getByText('当前预交金余额')).toBeTruthy()
    expect(screen.getByText('¥1200.00')).toBeTruthy()
    expect(screen.getByText('Z2026000123')).toBeTruthy()
    fireEvent.click(screen.getByText('返回住院服务'))
    expect(calls.navigations.pop()).toEqual({ kind: 'redirectTo', url: '/palm/hospitalization/index' })
  })

  test('a record that cannot be read: 加载失败', async () => {
    failing.add('/dld-palm/api/recharge/detail')
    testing.setRouter('/pages/order/recharge/detail', { id: '9' })
    render(<RechargeDetail />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
  })
})

describe('充值记录', () => {
  test('/pages/order/recharge/index: every top-up a page at a time, to 没有更多了', async () => {
    testing.setRouter('/pages/order/recharge/index')
    render(<RechargeRecords />)
    await waitFor(() => expect(document.querySelectorAll('.recharge-record')).toHaveLength(10))
    expect(sent('/dld-palm/api/recharge/list')[0]!.data).toEqual({ hospitalCode: HOSPITAL, page: 1, size: 10 })
    fireEvent.click(screen.getByText('加载更多'))
    expect(await screen.findByText('没有更多了')).toBeTruthy()
    expect(document.querySelectorAll('.recharge-record')).toHaveLength(12)
    fireEvent.click(document.querySelector('.recharge-record')!)
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/pages/order/recharge/detail?source=list&id=100' })
  })

  test('/palm/hospitalization/recharge/record: the chosen patient’s; none says so with 去充值; a failed list 加载失败', async () => {
    recordCount = 0
    testing.setRouter('/palm/hospitalization/recharge/record')
    const { unmount } = render(<InpatientRecords />)
    expect(await screen.findByText('暂无充值记录')).toBeTruthy()
    expect(sent('/dld-palm/api/recharge/list')[0]!.data).toEqual({ hospitalCode: HOSPITAL, patientId: 1, page: 1, size: 10 })
    fireEvent.click(screen.getByText('去充值'))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/hospitalization/recharge/recharge' })
    unmount()

    mockRoot = new RootStore()
    failing.add('/dld-palm/api/recharge/list')
    render(<InpatientRecords />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
  })
})

describe('每日清单 /palm/hospitalization/settlement/index', () => {
  test('opens on yesterday: the items with quantity, unit price and amount, and the day’s total; another day can be picked', async () => {
    testing.setRouter('/palm/hospitalization/settlement/index')
    render(<DailyBill />)
    expect(await screen.findByText('阿司匹林肠溶片')).toBeTruthy()
    expect(formOf(sent('/dld-palm/api/recharge/daily')[0]!)).toEqual({ hospitalCode: HOSPITAL, patientId: '1', admissionNo: 'Z2026000123', date: YESTERDAY })
    expect(screen.getByRole('radio', { name: `${YESTERDAY} ¥800.00` }).getAttribute('aria-checked')).toBe('true')
    expect(document.querySelector('.bill-items__meta')!.textContent).toBe('规格：100mg×30片　数量：2盒　单价：¥15.90')
    expect(screen.getByText('床位费')).toBeTruthy()
    expect(screen.getByText('当日合计')).toBeTruthy()
    expect(document.querySelector('.daily-bill__total-value')!.textContent).toBe('¥800.00')
    expect(screen.getByRole('group', { name: '西药' })).toBeTruthy()

    fireEvent.click(screen.getByRole('radio', { name: `${BEFORE} ¥1000.00` }))
    await waitFor(() => expect(sent('/dld-palm/api/recharge/daily')).toHaveLength(2))
    expect(formOf(sent('/dld-palm/api/recharge/daily')[1]!).date).toBe(BEFORE)
    expect(await screen.findByText(`${BEFORE} 费用明细`)).toBeTruthy()
  })

  test('a day that fails: 加载失败', async () => {
    failing.add('/dld-palm/api/recharge/daily')
    testing.setRouter('/palm/hospitalization/settlement/index')
    render(<DailyBill />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
  })
})

describe('门诊预交金 /palm/accountRecharge', () => {
  test('the balance, the choices, and 立即充值 tops up the account', async () => {
    status = 'created'
    testing.setRouter('/palm/accountRecharge/index')
    render(<AccountRecharge />)
    expect(await screen.findByText('¥120.00')).toBeTruthy()
    expect(screen.getByText('请选择或输入充值金额')).toBeTruthy()
    fireEvent.click(screen.getByRole('radio', { name: '200元' }))
    expect(document.querySelector('.action-bar__amount')!.textContent).toBe('充值金额 ¥200.00')
    fireEvent.click(screen.getByText('立即充值'))
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    expect(formOf(sent('/dld-palm/api/payment/recharge')[0]!)).toMatchObject({ hospitalCode: HOSPITAL, patientId: '1', amountFen: '20000', returnUrl: '/h5/palm/accountRecharge/detail?source=pay' })
  })

  test('the record back from the cashier shows the account’s new balance', async () => {
    status = 'created'
    testing.setRouter('/palm/accountRecharge/detail', { source: 'pay', id: '5' })
    render(<AccountDetail />)
    expect(await screen.findByText('门诊预交金充值成功')).toBeTruthy()
    expect(screen.getByText('当前账户余额')).toBeTruthy()
    expect(screen.getByText('¥320.00')).toBeTruthy()
  })
})

describe('住院预交金 /palm/hospitalization/recharge/index', () => {
  test('the deposit, costs and balance, the warning, the hospital’s amounts each opening 预交金充值 with it chosen', async () => {
    testing.setRouter('/palm/hospitalization/recharge/index')
    render(<InpatientDeposit />)
    expect(await screen.findByText('Z2026000123')).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toContain('请及时缴纳')
    expect(screen.getByText('¥2000.00')).toBeTruthy()
    expect(screen.getByText('¥1800.00')).toBeTruthy()
    expect(screen.getByText('¥200.00')).toBeTruthy()
    expect(screen.getByText('¥900.00')).toBeTruthy()
    const amounts = await screen.findByRole('group', { name: '选择充值金额' })
    expect(within(amounts).getAllByRole('link').map((a) => a.getAttribute('aria-label'))).toEqual(['充值1000元', '充值2000元', '充值5000元', '充值10000元'])
    fireEvent.click(within(amounts).getByRole('link', { name: '充值5000元' }))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/hospitalization/recharge/recharge?amountFen=500000' })
    fireEvent.click(screen.getByRole('link', { name: /充值记录/ }))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/hospitalization/recharge/record' })
    fireEvent.click(screen.getByRole('link', { name: /每日清单/ }))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/hospitalization/settlement/index' })
  })

  test('an amount chosen there is the one chosen on 预交金充值', async () => {
    testing.setRouter('/palm/hospitalization/recharge/recharge', { amountFen: '500000' })
    render(<InpatientRecharge />)
    const chosen = await screen.findByRole('radio', { name: '5000元' })
    await waitFor(() => expect(chosen.getAttribute('aria-checked')).toBe('true'))
    expect(screen.getByRole('radio', { name: '1000元' }).getAttribute('aria-checked')).toBe('false')
  })

  test('discharged: no amounts, the settlement instead; no stay: says so', async () => {
    stay = { ...freshStay(), status: 'discharged', dischargedAt: `${YESTERDAY}T02:00:00.000Z`, lowDeposit: false, warning: null, balanceFen: 0, settlement: { returnedFen: 20_000, owedFen: 0 } }
    testing.setRouter('/palm/hospitalization/recharge/index')
    const { unmount } = render(<InpatientDeposit />)
    expect(await screen.findByText('该住院已出院结算，无需缴纳住院预交金')).toBeTruthy()
    expect(screen.queryByRole('group', { name: '选择充值金额' })).toBeNull()
    fireEvent.click(screen.getByRole('link', { name: /出院结算单/ }))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/hospitalization/settlement/result?patientId=1&admissionNo=Z2026000123' })
    unmount()

    mockRoot = new RootStore()
    stay = null
    render(<InpatientDeposit />)
    expect(await screen.findByText('该就诊人暂无住院信息，无需缴纳住院预交金')).toBeTruthy()
  })
})

describe('出院结算 /palm/hospitalization/settlement/result', () => {
  test('the balance returned and how, the costs by category, the stay', async () => {
    testing.setRouter('/palm/hospitalization/settlement/result', { patientId: '1', admissionNo: 'Z2026000123' })
    render(<SettlementResult />)
    expect(await screen.findByText('退还 ¥200.00')).toBeTruthy()
    expect(formOf(sent('/dld-palm/api/recharge/settlement')[0]!)).toEqual({ hospitalCode: HOSPITAL, patientId: '1', admissionNo: 'Z2026000123' })
    const ways = screen.getByRole('group', { name: '退款方式' })
    expect(within(ways).getByText('原路退回微信支付')).toBeTruthy()
    const categories = screen.getByRole('group', { name: '费用分类' })
    expect(within(categories).getByText('诊疗服务费')).toBeTruthy()
    expect(within(categories).getByText('¥1500.00')).toBeTruthy()
    expect(within(categories).getByText('西药费')).toBeTruthy()
    expect(within(categories).getByText('合计')).toBeTruthy()
    expect(screen.getByText('2天')).toBeTruthy()
    expect(screen.getByText('心内一病区 12床')).toBeTruthy()
  })

  test('owed: how much to pay and where, no refund', async () => {
    settlement = { ...settlement, returnedFen: 0, owedFen: 5_000, returns: [] }
    testing.setRouter('/palm/hospitalization/settlement/result', { patientId: '1', admissionNo: 'Z2026000123' })
    render(<SettlementResult />)
    expect(await screen.findByText('需补缴 ¥50.00')).toBeTruthy()
    expect(screen.getByText('预交金不足以支付住院费用，请到住院收费处补缴')).toBeTruthy()
    expect(screen.queryByRole('group', { name: '退款方式' })).toBeNull()
  })

  test('someone else’s stay or a failed read: 加载失败 with 重新加载', async () => {
    testing.setRouter('/palm/hospitalization/settlement/result', { patientId: '1', admissionNo: 'Z2026000999' })
    render(<SettlementResult />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
    expect(screen.queryByText(/退还/)).toBeNull()
  })
})
