import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import platform from '../../src/platform/index.h5'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, SESSION, local, session } from '../../src/services/storage'
import { mapSensitive } from '../../src/utils/base64'
import PaymentList from '../../src/palm/payment/list'
import MergeList from '../../src/palm/payment/mergeList'
import DeptMergeList from '../../src/palm/payment/deptMergeList'
import PayType from '../../src/palm/payment/payType'
import WaitPay from '../../src/palm/payment/waitPay'
import PaymentRecords from '../../src/pages/order/payment'
import PaymentDetail from '../../src/pages/order/payment/detail'
import PriceDisclosure from '../../src/palm/priceDisclosure'
import { reportBillUrl } from '../../src/pageUrls'
import type { Patient } from '../../types/api/patient'
import type { BillDetail, BillPayment, BillPaymentDetail, PriceItem, UnpaidVisit, WaitQueue } from '../../types/api/palm'
import type { PayOrder } from '../../types/api/payment'
import { useBillStore } from '../../src/stores/BillStore'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10392'
/** The hospital the app is at (10392 takes insurance, spec §6 chsList). */
let hospitalAt = HOSPITAL

const patient: Patient = {
  id: 1,
  name: '张*',
  idCard: '110101********4514',
  mobile: '138****5678',
  sex: 1,
  sexText: '男',
  birthday: '1990-03-07',
  age: 36,
  relation: '本人',
  source: 'idCard',
  neonate: false,
  isDefault: true,
  hisMedCardNo: 'A100001',
  complete: true,
  missing: [],
}

const items: Record<string, BillDetail['items']> = {
  B1: [{ name: '阿莫西林胶囊', spec: '0.25g×24粒', unit: '盒', quantity: 2, unitPriceFen: 1550, amountFen: 3100 }],
  B2: [{ name: '血常规', spec: '', unit: '次', quantity: 1, unitPriceFen: 2000, amountFen: 2000 }],
  B3: [{ name: '胸部CT平扫', spec: '', unit: '次', quantity: 1, unitPriceFen: 24000, amountFen: 24000 }],
}

const freshVisits = (): UnpaidVisit[] => [
  {
    visitNo: 'V1',
    visitDate: '2026-11-23',
    deptName: '呼吸内科',
    doctorName: '许军',
    amountFen: 5100,
    bills: [
      { billNo: 'B1', title: '西药处方', category: 'drug', place: '门诊西药房', amountFen: 3100, orderedAt: '2026-11-23T02:00:00.000Z', paying: false, payingId: null },
      { billNo: 'B2', title: '检验申请', category: 'lab', place: '检验科', amountFen: 2000, orderedAt: '2026-11-23T02:00:00.000Z', paying: false, payingId: null },
    ],
  },
  {
    visitNo: 'V0',
    visitDate: '2026-11-20',
    deptName: '心血管内科',
    doctorName: '姚秀英',
    amountFen: 24000,
    bills: [{ billNo: 'B3', title: 'CT检查', category: 'exam', place: 'CT室', amountFen: 24000, orderedAt: '2026-11-20T02:00:00.000Z', paying: true, payingId: 77 }],
  },
]

let visits: UnpaidVisit[] = []
let failing = new Set<string>()
/** The patient's hospital-card balance (clinic/balance). */
let balanceFen = 0
let refundable = true
let status: PayOrder['status'] = 'paid'

const ok = (data: unknown) => ({
  statusCode: 200,
  data: { code: 200, msg: 'success', data: mapSensitive(data, (v) => Buffer.from(v, 'utf8').toString('base64')) },
})
const refuse = (code: number, msg: string) => ({ statusCode: 200, data: { code, msg, data: null } })

function order(amountFen: number): PayOrder {
  return {
    orderNo: 'P202611230001',
    business: 'outpatient',
    subject: '门诊缴费 呼吸内科',
    amountFen,
    insuranceFen: 0,
    selfPayFen: amountFen,
    status,
    channel: status === 'paid' ? 'sandbox' : null,
    expiresAt: '2026-11-23T03:00:00.000Z',
    paidAt: status === 'paid' ? '2026-11-23T02:10:00.000Z' : null,
    refundedFen: 0,
    createdAt: '2026-11-23T02:05:00.000Z',
  }
}

const STATUS_TEXT: Partial<Record<PayOrder['status'], string>> = { created: '待支付', paid: '已支付', refunded: '已退款', cancelled: '已取消' }

function payment(id = 77): BillPaymentDetail {
  return {
    id,
    orderNo: 'P202611230001',
    hospitalCode: HOSPITAL,
    hospitalName: '示范市第一人民医院',
    patientId: 1,
    patientName: '张*',
    status,
    statusText: STATUS_TEXT[status] ?? status,
    amountFen: 5100,
    deptNames: '呼吸内科',
    sourceType: 0,
    payable: status === 'created',
    refundable: status === 'paid' && refundable,
    order: order(5100),
    createdAt: '2026-11-23T02:05:00.000Z',
    paidAt: status === 'paid' ? '2026-11-23T02:10:00.000Z' : null,
    bills: (['B1', 'B2'] as const).map((no) => {
      const b = visits[0]?.bills.find((x) => x.billNo === no) ?? freshVisits()[0]!.bills.find((x) => x.billNo === no)!
      return { billNo: no, title: b.title, category: b.category, deptName: '呼吸内科', doctorName: '许军', visitNo: 'V1', visitDate: '2026-11-23', place: b.place, amountFen: b.amountFen, items: items[no]!, performed: false }
    }),
  }
}

const queue = (): WaitQueue => ({
  id: 77,
  orderNo: 'P202611230001',
  status,
  statusText: STATUS_TEXT[status] ?? status,
  tickets:
    status === 'paid'
      ? [{ kind: 'pharmacy', place: '门诊西药房', window: '3号窗口', location: '门诊楼1楼东侧', ticketNo: 'Y012', ahead: 4, status: 'waiting', statusText: '候诊中', guide: '请到门诊楼1楼东侧门诊西药房3号窗口取药', billNos: ['B1'] }]
      : [],
})

const prices: PriceItem[] = Array.from({ length: 25 }, (_, i) => ({
  code: `D${i}`,
  name: i === 0 ? '阿莫西林胶囊' : `项目${i}`,
  spec: i === 0 ? '0.25g×24粒' : '',
  unit: i === 0 ? '盒' : '次',
  priceFen: 1550 + i,
  category: i === 0 ? 'drug' : 'service',
  categoryName: i === 0 ? '西药' : '诊疗服务',
}))

function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = ''] = url.split('?')
    const query = method === 'GET' ? ((data ?? {}) as Record<string, string>) : {}
    const body = Object.fromEntries(new URLSearchParams(typeof data === 'string' ? data : ''))
    if (failing.has(path)) return refuse(500, '服务器开小差了')
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: 'wx10392demo00000', provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 1, hospitalCode: hospitalAt, hospitalName: '示范市第一人民医院', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: 'x', userSig: 's', expire: 1 })
    if (path === '/dld-palm/api/patient/list') return ok([patient])
    if (path === '/dld-palm/api/payment/unpaid/list') return ok(visits)
    if (path === '/dld-palm/api/payment/unpaid/detail') {
      const v = visits.find((x) => x.bills.some((b) => b.billNo === body.billNo))
      const b = v?.bills.find((x) => x.billNo === body.billNo)
      if (!v || !b) return refuse(2999, '暂无权限')
      return ok({ ...b, visitNo: v.visitNo, visitDate: v.visitDate, deptName: v.deptName, doctorName: v.doctorName, status: 'unpaid', items: items[b.billNo] })
    }
    if (path === '/dld-palm/api/payment/unpaid/report/detail') {
      if (body.billNo !== 'B3') return refuse(400, '该缴费单不是检查检验费用，请在门诊缴费中支付')
      const held = status !== 'paid'
      return ok({
        billNo: 'B3', visitNo: 'V0', visitDate: '2026-11-20', deptName: '心血管内科', doctorName: '姚秀英', title: 'CT检查', category: 'exam', place: 'CT室',
        status: held ? 'unpaid' : 'paid', amountFen: 24000, orderedAt: '2026-11-20T02:00:00.000Z', items: items.B3,
        reportKind: 'exam', reportKindText: '检查报告', reportHeld: held, note: held ? '该检查报告需缴费后发布，缴费成功后可在报告查询中查看' : '已缴费，检查报告出具后可在报告查询中查看', payingId: null,
      })
    }
    if (path === '/dld-palm/api/payment/report/init') {
      status = 'created'
      const p = payment(79)
      return ok({ record: p, action: { kind: 'redirect', channel: 'sandbox', url: `/sandbox/pay/cashier?orderNo=${p.orderNo}` } })
    }
    if (path === '/dld-palm/api/payment/clinic/balance') return ok({ hospitalCode: HOSPITAL, patientId: Number(query.patientId), patientName: '张*', balanceFen })
    if (path === '/dld-palm/api/payment/init') {
      // paid from the balance at once, no cashier; else the cashier
      if (body.channel === 'account') {
        status = 'paid'
        return ok({ record: payment(78), action: null })
      }
      // with insurance nothing goes to a channel: the chsPayment page works out the split
      if (body.channel === 'insurance') {
        status = 'created'
        return ok({ record: payment(78), action: null })
      }
      status = 'created'
      const p = payment(78)
      return ok({ record: p, action: { kind: 'redirect', channel: 'sandbox', url: `/sandbox/pay/cashier?orderNo=${p.orderNo}` } })
    }
    if (path === '/dld-palm/api/payment/detail') return ok(payment(Number(query.id)))
    if (path === '/dld-palm/api/payment/wait/queue') return ok(queue())
    if (path === '/dld-palm/api/payment/fund/77') {
      status = 'refunded'
      return ok(payment(77))
    }
    if (path === '/dld-palm/api/payment/cancel') {
      status = 'cancelled'
      return ok(payment(Number(body.id)))
    }
    if (path === '/dld-palm/api/payment/paid/list') {
      const page = Number(query.page)
      const size = Number(query.size)
      const all: BillPayment[] = Array.from({ length: 12 }, (_, i) => ({ ...payment(100 + i) }))
      return ok({ records: all.slice((page - 1) * size, page * size), total: all.length, page, size })
    }
    if (path === '/dld-palm/api/price/list') {
      const page = Number(query.page)
      const size = Number(query.size)
      const found = prices.filter((p) => !query.keyword || p.name.includes(query.keyword))
      return ok({ records: found.slice((page - 1) * size, page * size), total: found.length, page, size })
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
  visits = freshVisits()
  hospitalAt = HOSPITAL
  failing = new Set()
  refundable = true
  balanceFen = 0
  status = 'paid'
  pay = jest.spyOn(platform, 'pay').mockResolvedValue('left')
  serve()
})
afterEach(() => {
  pay.mockRestore()
  jest.useRealTimers()
})

const total = () => document.querySelector('.action-bar__amount')!.textContent

describe('门诊缴费 /palm/payment/list', () => {
  test('bills grouped by visit and department; the newest visit chosen; the total follows the checkboxes', async () => {
    testing.setRouter('/palm/payment/list')
    render(<PaymentList />)
    const drug = await screen.findByRole('checkbox', { name: '西药处方 ¥31.00' })
    expect(formOf(sent('/dld-palm/api/payment/unpaid/list')[0]!)).toEqual({ hospitalCode: HOSPITAL, patientId: '1' })
    const groups = screen.getAllByRole('group')
    expect(groups.map((g) => g.getAttribute('aria-label'))).toEqual(['2026-11-23 呼吸内科', '2026-11-20 心血管内科'])
    expect(within(groups[0]!).getByText('执行地点：门诊西药房')).toBeTruthy()
    expect(drug.getAttribute('aria-checked')).toBe('true')
    expect(screen.getByRole('checkbox', { name: '检验申请 ¥20.00' }).getAttribute('aria-checked')).toBe('true')
    expect(total()).toBe('合计 ¥51.00')

    fireEvent.click(drug)
    expect(drug.getAttribute('aria-checked')).toBe('false')
    expect(total()).toBe('合计 ¥20.00')

    // a bill in a payment that waits: 待支付, no checkbox, opens that payment
    const ct = within(groups[1]!)
    expect(ct.getByText('待支付')).toBeTruthy()
    expect(ct.queryByRole('checkbox')).toBeNull()
    fireEvent.click(ct.getByText('CT检查'))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/pages/order/payment/detail?source=list&id=77' })

    fireEvent.click(screen.getByText('去缴费'))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/payment/mergeList' })

    // 合并支付 per department, where it has bills to pay: all of them on /deptMergeList
    expect(ct.queryByRole('link', { name: '心血管内科合并支付' })).toBeNull()
    fireEvent.click(within(groups[0]!).getByRole('link', { name: '呼吸内科合并支付' }))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: `/palm/payment/deptMergeList?visitNo=V1&deptName=${encodeURIComponent('呼吸内科')}` })
  })

  test('a bill’s items open under it', async () => {
    testing.setRouter('/palm/payment/list')
    render(<PaymentList />)
    await screen.findByRole('checkbox', { name: '西药处方 ¥31.00' })
    const toggle = screen.getByRole('button', { name: '西药处方明细' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(toggle)
    expect(await screen.findByText('阿莫西林胶囊')).toBeTruthy()
    expect(document.querySelector('.bill-items__meta')!.textContent).toBe('规格：0.25g×24粒　数量：2盒　单价：¥15.50')
    expect(formOf(sent('/dld-palm/api/payment/unpaid/detail')[0]!)).toEqual({ hospitalCode: HOSPITAL, patientId: '1', billNo: 'B1' })
  })

  test('no bills: 暂无待缴费用; a failed list: 加载失败 with 重新加载', async () => {
    visits = []
    testing.setRouter('/palm/payment/list')
    const { unmount } = render(<PaymentList />)
    expect(await screen.findByText('暂无待缴费用')).toBeTruthy()
    expect(screen.queryByText('去缴费')).toBeNull()
    unmount()

    mockRoot = new RootStore()
    visits = freshVisits()
    failing.add('/dld-palm/api/payment/unpaid/list')
    render(<PaymentList />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
    failing.clear()
    fireEvent.click(screen.getByText('重新加载'))
    expect(await screen.findByText('西药处方')).toBeTruthy()
  })
})

describe('确认缴费 /palm/payment/mergeList', () => {
  test('the chosen bills’ items and total; 确认支付 pays them as one order with a key and the return page', async () => {
    testing.setRouter('/palm/payment/list')
    const list = render(<PaymentList />)
    await screen.findByRole('checkbox', { name: '西药处方 ¥31.00' })
    list.unmount()

    testing.setRouter('/palm/payment/mergeList')
    render(<MergeList />)
    expect(await screen.findByText('阿莫西林胶囊')).toBeTruthy()
    expect(await screen.findByText('血常规')).toBeTruthy()
    expect(total()).toBe('合计 ¥51.00')
    fireEvent.click(screen.getByText('确认支付'))
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    const body = formOf(sent('/dld-palm/api/payment/init')[0]!)
    expect(body).toMatchObject({ hospitalCode: HOSPITAL, patientId: '1', billNos: 'B1,B2', returnUrl: '/h5/pages/order/payment/detail?source=pay' })
    expect(body.idempotencyKey!.length).toBeGreaterThanOrEqual(16)
    expect(body).not.toHaveProperty('sourceType')
    expect(pay).toHaveBeenCalledWith({ kind: 'redirect', channel: 'sandbox', url: '/sandbox/pay/cashier?orderNo=P202611230001' })
  })

  test('就诊卡余额 pays at once when the balance covers the total; a short balance cannot be chosen', async () => {
    balanceFen = 5000 // ¥50.00: short of ¥51.00
    testing.setRouter('/palm/payment/list')
    const list = render(<PaymentList />)
    await screen.findByRole('checkbox', { name: '西药处方 ¥31.00' })
    list.unmount()
    testing.setRouter('/palm/payment/mergeList')
    const short = render(<MergeList />)
    const account = await screen.findByRole('radio', { name: /就诊卡余额/ })
    await screen.findByText('余额¥50.00，不足以支付')
    expect(account.getAttribute('aria-disabled')).toBe('true')
    fireEvent.click(account)
    expect(screen.getByRole('radio', { name: /在线支付/ }).getAttribute('aria-checked')).toBe('true')
    expect(screen.getByText('去充值就诊卡')).toBeTruthy()
    short.unmount()

    balanceFen = 10000
    useBillStore.of(mockRoot).balance.reset()
    render(<MergeList />)
    await screen.findByText('余额¥100.00')
    fireEvent.click(screen.getByRole('radio', { name: /就诊卡余额/ }))
    expect(screen.getByRole('radio', { name: /就诊卡余额/ }).getAttribute('aria-checked')).toBe('true')
    fireEvent.click(screen.getByText('余额支付'))
    await waitFor(() => expect(calls.navigations.at(-1)).toEqual({ kind: 'redirectTo', url: '/pages/order/payment/detail?source=pay&id=78' }))
    expect(formOf(sent('/dld-palm/api/payment/init')[0]!)).toMatchObject({ channel: 'account', billNos: 'B1,B2' })
    expect(pay).not.toHaveBeenCalled()
  })

  test('医保支付 at an insurance hospital: the order is made and the chsPayment page takes over, no cashier yet', async () => {
    testing.setRouter('/palm/payment/list')
    const list = render(<PaymentList />)
    await screen.findByRole('checkbox', { name: '西药处方 ¥31.00' })
    list.unmount()
    testing.setRouter('/palm/payment/mergeList')
    render(<MergeList />)
    const insurance = await screen.findByRole('radio', { name: /医保支付/ })
    expect(insurance.getAttribute('aria-checked')).toBe('false')
    fireEvent.click(insurance)
    expect(screen.getByRole('radio', { name: /医保支付/ }).getAttribute('aria-checked')).toBe('true')
    fireEvent.click(screen.getByText('医保支付', { selector: 'taro-button-core, taro-button-core *, button, button *' }))
    await waitFor(() => expect(calls.navigations.at(-1)).toEqual({ kind: 'redirectTo', url: '/palm/chsPayment/index?source=payment&type=outpatient&id=78' }))
    expect(formOf(sent('/dld-palm/api/payment/init')[0]!)).toMatchObject({ channel: 'insurance', billNos: 'B1,B2', hospitalCode: HOSPITAL })
    expect(pay).not.toHaveBeenCalled()
  })

  test('医保支付 is not offered at a hospital outside chsList', async () => {
    hospitalAt = '10600'
    testing.setRouter('/palm/payment/list')
    const list = render(<PaymentList />)
    await screen.findByRole('checkbox', { name: '西药处方 ¥31.00' })
    list.unmount()
    testing.setRouter('/palm/payment/mergeList')
    render(<MergeList />)
    await screen.findByRole('radio', { name: /在线支付/ })
    expect(screen.queryByRole('radio', { name: /医保支付/ })).toBeNull()
    expect(screen.getByText('确认支付')).toBeTruthy()
  })

  test('nothing chosen (opened directly): says so and leads back to the list', async () => {
    testing.setRouter('/palm/payment/mergeList')
    render(<MergeList />)
    expect(await screen.findByText('请先选择要缴纳的费用')).toBeTruthy()
    fireEvent.click(screen.getByText('去选择'))
    expect(calls.navigations.pop()).toEqual({ kind: 'redirectTo', url: '/palm/payment/list' })
  })
})

describe('合并支付 /palm/payment/deptMergeList', () => {
  test('every bill of the department at that visit, whatever was ticked on the list, paid as one order', async () => {
    testing.setRouter('/palm/payment/list')
    const list = render(<PaymentList />)
    const drug = await screen.findByRole('checkbox', { name: '西药处方 ¥31.00' })
    fireEvent.click(drug) // only 检验申请 ticked on the list
    list.unmount()

    testing.setRouter('/palm/payment/deptMergeList', { visitNo: 'V1', deptName: '呼吸内科' })
    render(<DeptMergeList />)
    expect(await screen.findByText('阿莫西林胶囊')).toBeTruthy()
    expect(await screen.findByText('血常规')).toBeTruthy()
    expect(screen.getByText('2项')).toBeTruthy()
    expect(total()).toBe('合计 ¥51.00')
    fireEvent.click(screen.getByText('确认支付'))
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    expect(formOf(sent('/dld-palm/api/payment/init')[0]!)).toMatchObject({ hospitalCode: HOSPITAL, patientId: '1', billNos: 'B1,B2' })
  })

  test('a department with nothing left to pay (its bill waits in a payment) says so and leads to the list', async () => {
    testing.setRouter('/palm/payment/deptMergeList', { visitNo: 'V0', deptName: '心血管内科' })
    render(<DeptMergeList />)
    expect(await screen.findByText('心血管内科暂无待缴费用')).toBeTruthy()
    expect(screen.queryByText('确认支付')).toBeNull()
    fireEvent.click(screen.getByText('查看全部待缴费用'))
    expect(calls.navigations.pop()).toEqual({ kind: 'redirectTo', url: '/palm/payment/list' })
  })

  test('a failed list: 加载失败 with 重新加载', async () => {
    failing.add('/dld-palm/api/payment/unpaid/list')
    testing.setRouter('/palm/payment/deptMergeList', { visitNo: 'V1', deptName: '呼吸内科' })
    render(<DeptMergeList />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
    failing.clear()
    fireEvent.click(screen.getByText('重新加载'))
    expect(await screen.findByText('阿莫西林胶囊')).toBeTruthy()
  })
})

describe('选择支付方式 /palm/payment/payType', () => {
  test('单独支付 on the list pays that one bill, whatever else is ticked, with the ways to pay', async () => {
    testing.setRouter('/palm/payment/list')
    const list = render(<PaymentList />)
    await screen.findByRole('checkbox', { name: '西药处方 ¥31.00' })
    fireEvent.click(screen.getByRole('link', { name: '西药处方单独支付' }))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/payment/payType?billNo=B1' })
    list.unmount()

    testing.setRouter('/palm/payment/payType', { billNo: 'B1' })
    render(<PayType />)
    expect(await screen.findByText('阿莫西林胶囊')).toBeTruthy()
    expect(screen.getByText('1项')).toBeTruthy()
    expect(total()).toBe('合计 ¥31.00')
    expect(screen.queryByText('血常规')).toBeNull()
    fireEvent.click(screen.getByText('确认支付'))
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    expect(formOf(sent('/dld-palm/api/payment/init')[0]!)).toMatchObject({ hospitalCode: HOSPITAL, patientId: '1', billNos: 'B1' })
  })

  test('a bill no longer payable (in a payment that waits) says so', async () => {
    testing.setRouter('/palm/payment/payType', { billNo: 'B3' })
    render(<PayType />)
    expect(await screen.findByText('该缴费单已缴费或正在支付中')).toBeTruthy()
    expect(screen.queryByText('确认支付')).toBeNull()
  })
})

describe('缴费详情 /pages/order/payment/detail', () => {
  test('back from the cashier: the record by its order number, where to go next, and the items', async () => {
    testing.setRouter('/pages/order/payment/detail', { source: 'pay', orderNo: 'P202611230001' })
    // the tab left for the cashier with this payment
    session.set(SESSION.payment, { id: 77, orderNo: 'P202611230001' })
    render(<PaymentDetail />)
    expect(await screen.findByText('已支付')).toBeTruthy()
    expect(await screen.findByText('Y012')).toBeTruthy()
    expect(screen.getByText('前面还有4人')).toBeTruthy()
    expect(screen.getByText('位置：门诊楼1楼东侧')).toBeTruthy()
    expect(screen.getByText('请到门诊楼1楼东侧门诊西药房3号窗口取药')).toBeTruthy()
    expect(screen.getByText('阿莫西林胶囊')).toBeTruthy()
    expect(screen.getByText('¥51.00')).toBeTruthy()
    expect(sent('/dld-pay/order/P202611230001')).toHaveLength(1)
  })

  test('申请退款 asks first, then refunds and shows 已退款', async () => {
    testing.setRouter('/pages/order/payment/detail', { id: '77' })
    render(<PaymentDetail />)
    fireEvent.click(await screen.findByText('申请退款'))
    await waitFor(() => expect(sent('/dld-palm/api/payment/fund/77')).toHaveLength(1))
    expect(calls.modals[0]).toContain('¥51.00将原路退回')
    expect(await screen.findByText('已退款')).toBeTruthy()
    expect(screen.queryByText('申请退款')).toBeNull()
  })

  test('not refundable once dispensed: no 申请退款, the window instead', async () => {
    refundable = false
    testing.setRouter('/pages/order/payment/detail', { id: '77' })
    render(<PaymentDetail />)
    expect(await screen.findByText('已取药或已执行的费用不可在线退款，如需退费请到医院窗口办理')).toBeTruthy()
    expect(screen.queryByText('申请退款')).toBeNull()
  })

  test('an unpaid one: 去支付 with its bills, and 取消支付 after a confirm', async () => {
    status = 'created'
    testing.setRouter('/pages/order/payment/detail', { id: '77' })
    render(<PaymentDetail />)
    fireEvent.click(await screen.findByText('去支付'))
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    expect(formOf(sent('/dld-palm/api/payment/init')[0]!)).toMatchObject({ billNos: 'B1,B2', patientId: '1', sourceType: '0' })
    status = 'created'
    fireEvent.click(screen.getByText('取消支付'))
    await waitFor(() => expect(formOf(sent('/dld-palm/api/payment/cancel')[0]!)).toEqual({ id: '77' }))
    expect(await screen.findByText('已取消')).toBeTruthy()
  })

  test('a record that cannot be read: 加载失败', async () => {
    failing.add('/dld-palm/api/payment/detail')
    testing.setRouter('/pages/order/payment/detail', { id: '77' })
    render(<PaymentDetail />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
  })
})

describe('缴费记录 /pages/order/payment/index', () => {
  test('paid records a page at a time, to 没有更多了', async () => {
    testing.setRouter('/pages/order/payment/index')
    render(<PaymentRecords />)
    await waitFor(() => expect(document.querySelectorAll('.pay-record')).toHaveLength(10))
    expect(sent('/dld-palm/api/payment/paid/list')[0]!.data).toEqual({ hospitalCode: HOSPITAL, patientId: 1, page: 1, size: 10 })
    fireEvent.click(screen.getByText('加载更多'))
    expect(await screen.findByText('没有更多了')).toBeTruthy()
    expect(document.querySelectorAll('.pay-record')).toHaveLength(12)
    fireEvent.click(document.querySelector('.pay-record')!)
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/pages/order/payment/detail?source=list&id=100' })
  })

  test('a failed list says 加载失败', async () => {
    failing.add('/dld-palm/api/payment/paid/list')
    testing.setRouter('/pages/order/payment/index')
    render(<PaymentRecords />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
  })
})

describe('待缴费 /palm/payment/waitPay (scanned)', () => {
  test('the scanned bill and 立即支付 with sourceType 2', async () => {
    testing.setRouter('/palm/payment/waitPay', { billNo: 'B2', source: 'scanCode' })
    render(<WaitPay />)
    expect(await screen.findByText('血常规')).toBeTruthy()
    fireEvent.click(screen.getByText('立即支付'))
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    expect(formOf(sent('/dld-palm/api/payment/init')[0]!)).toMatchObject({ billNos: 'B2', sourceType: '2' })
  })
})

describe('报告缴费 /palm/payment/waitPay?source=report', () => {
  test('the examination’s bill, its report held until paid, and 立即支付 through report/init', async () => {
    status = 'created'
    const url = reportBillUrl('B3')
    testing.setRouter(url.split('?')[0]!, Object.fromEntries(new URLSearchParams(url.split('?')[1])))
    render(<WaitPay />)
    expect(await screen.findByText('检查报告待缴费后发布')).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toContain('需缴费后发布')
    expect(screen.getByText('胸部CT平扫')).toBeTruthy()
    expect(formOf(sent('/dld-palm/api/payment/unpaid/report/detail')[0]!)).toEqual({ hospitalCode: HOSPITAL, patientId: '1', billNo: 'B3' })
    fireEvent.click(screen.getByText('立即支付'))
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    const body = formOf(sent('/dld-palm/api/payment/report/init')[0]!)
    expect(body).toMatchObject({ hospitalCode: HOSPITAL, patientId: '1', billNo: 'B3', returnUrl: '/h5/pages/order/payment/detail?source=pay' })
    expect(body.idempotencyKey!.length).toBeGreaterThanOrEqual(16)
    expect(sent('/dld-palm/api/payment/init')).toEqual([])
  })

  test('paid already: the report is on its way, nothing to pay; not a report’s bill: says it cannot be found', async () => {
    status = 'paid'
    testing.setRouter('/palm/payment/waitPay', { billNo: 'B3', source: 'report' })
    const { unmount } = render(<WaitPay />)
    expect(await screen.findByText('已缴费，检查报告出具后可在报告查询中查看')).toBeTruthy()
    expect(screen.queryByText('立即支付')).toBeNull()
    unmount()

    mockRoot = new RootStore()
    testing.setRouter('/palm/payment/waitPay', { billNo: 'B1', source: 'report' })
    render(<WaitPay />)
    expect(await screen.findByText('未找到该就诊人的缴费单')).toBeTruthy()
  })
})

describe('价格公示 /palm/priceDisclosure/index', () => {
  test('a page at a time; a search 500 ms after the last keystroke finds an item with its price', async () => {
    testing.setRouter('/palm/priceDisclosure/index')
    render(<PriceDisclosure />)
    await waitFor(() => expect(document.querySelectorAll('.price')).toHaveLength(20))
    fireEvent.click(screen.getByText('加载更多'))
    expect(await screen.findByText('没有更多了')).toBeTruthy()

    jest.useFakeTimers()
    const box = screen.getByPlaceholderText('搜索药品、检查、治疗项目名称')
    fireEvent.change(box, { target: { value: '阿莫' } })
    act(() => void jest.advanceTimersByTime(499))
    expect(sent('/dld-palm/api/price/list').filter((r) => (r.data as { keyword?: string }).keyword)).toHaveLength(0)
    act(() => void jest.advanceTimersByTime(1))
    jest.useRealTimers()
    await waitFor(() => expect(document.querySelectorAll('.price')).toHaveLength(1))
    const item = document.querySelector('.price') as HTMLElement
    expect(item.textContent).toContain('阿莫西林胶囊')
    expect(item.textContent).toContain('¥15.50/盒')
    expect(item.textContent).toContain('类别：西药　规格：0.25g×24粒　单位：盒')
  })
})
