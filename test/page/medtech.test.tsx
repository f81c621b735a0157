import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import platform from '../../src/platform/index.h5'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import { mapSensitive } from '../../src/utils/base64'
import InspectReserve from '../../src/palm/inspectReserve'
import InspectReserveDetail from '../../src/pages/order/inspectReserve'
import InspectionRecords from '../../src/pages/order/inspection'
import InspectionDetail from '../../src/pages/order/inspection/detail'
import NucleicPurchasePage from '../../src/palm/nucleic/purchase'
import NucleicOrderList from '../../src/palm/nucleic/orderList'
import CustomNucleicOrderList from '../../src/custom/10392/nucleic/orderList'
import NucleicReports from '../../src/palm/report/nucleic'
import type { Patient } from '../../types/api/patient'
import type { ExamAppointmentDetail, ExamToBook, NucleicOrder, NucleicResult } from '../../types/api/medtech'

let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10392'
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

const appointment = (status: 'booked' | 'cancelled' = 'booked'): ExamAppointmentDetail => ({
  appointmentNo: 'YJ2026112700000001',
  billNo: 'B9',
  title: 'CT检查',
  place: '放射科CT室',
  deviceName: 'CT1号机（64排）',
  location: '医技楼1楼 CT1室',
  date: '2026-11-30',
  startTime: '09:00',
  endTime: '09:30',
  status,
  statusText: status === 'booked' ? '已预约' : '已取消',
  rescheduled: 0,
  changeable: status === 'booked',
  createdAt: '2026-11-27T02:00:00.000Z',
  patientId: 1,
  patientName: '张*',
  hospitalCode: HOSPITAL,
  items: ['上腹部CT（平扫）'],
  preparation: ['去除检查部位的金属物品（项链、耳环、皮带、钥匙、带金属的内衣等）', '腹部检查前空腹8小时'],
})

const exam = (booked: boolean): ExamToBook => ({
  billNo: 'B9',
  title: 'CT检查',
  items: ['上腹部CT（平扫）'],
  place: '放射科CT室',
  location: '医技楼1楼 CT1室',
  deptName: '消化内科',
  doctorName: '许军',
  orderedAt: '2026-11-27T01:00:00.000Z',
  amountFen: 24000,
  preparation: ['腹部检查前空腹8小时'],
  appointment: booked ? appointment() : null,
})

const nucleicOrder = (over: Partial<NucleicOrder> = {}): NucleicOrder => ({
  id: 5,
  orderNo: 'P202611270001',
  hospitalCode: HOSPITAL,
  hospitalName: '示范市第一人民医院',
  patientId: 1,
  patientName: '张*',
  kindCode: 'HS01',
  kindName: '新冠病毒核酸检测（单检）',
  amountFen: 1600,
  status: 'paid',
  statusText: '已支付',
  sampleNo: 'HS202611270000000001',
  testStatus: 'registered',
  testStatusText: '待采样',
  payable: false,
  refundable: true,
  order: {
    orderNo: 'P202611270001',
    business: 'nucleic',
    subject: '新冠病毒核酸检测（单检）',
    amountFen: 1600,
    insuranceFen: 0,
    selfPayFen: 1600,
    status: 'paid',
    channel: 'sandbox',
    expiresAt: '2026-11-27T03:00:00.000Z',
    paidAt: '2026-11-27T02:10:00.000Z',
    refundedFen: 0,
    createdAt: '2026-11-27T02:05:00.000Z',
  },
  createdAt: '2026-11-27T02:05:00.000Z',
  paidAt: '2026-11-27T02:10:00.000Z',
  ...over,
})

let booked = false
let cancelled = false
let orderRecord = nucleicOrder()
const results: NucleicResult[] = [
  {
    sampleNo: 'HS202611270000000001',
    patientId: 1,
    patientName: '张*',
    kindName: '新冠病毒核酸检测（单检）',
    status: 'reported',
    statusText: '已出报告',
    result: '阴性',
    sampledAt: '2026-11-27T02:30:00.000Z',
    reportedAt: '2026-11-27T10:00:00.000Z',
    registeredAt: '2026-11-27T02:10:00.000Z',
  },
]

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data: mapSensitive(data, (v) => Buffer.from(v, 'utf8').toString('base64')) } })
const M = '/dld-palm/api/report/med-tech/appointment'

function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = ''] = url.split('?')
    const query = method === 'GET' ? ((data ?? {}) as Record<string, string>) : {}
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: 'wx10392demo00000', provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 1, hospitalCode: HOSPITAL, hospitalName: '示范市第一人民医院', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: 'x', userSig: 's', expire: 1 })
    if (path === '/dld-palm/api/patient/list') return ok([patient])
    if (path === `${M}/orders`) return ok([exam(booked)])
    if (path === `${M}/date`) return ok([{ date: '2026-11-29', remaining: 0 }, { date: '2026-11-30', remaining: 7 }])
    if (path === `${M}/list`) {
      return ok([{ deviceId: 1, deviceName: 'CT1号机（64排）', location: '医技楼1楼 CT1室', slots: [{ slotId: 11, startTime: '08:30', endTime: '09:00', capacity: 5, remaining: 0 }, { slotId: 12, startTime: '09:00', endTime: '09:30', capacity: 5, remaining: 3 }] }])
    }
    if (path === `${M}/order`) {
      booked = true
      return ok(appointment())
    }
    if (path === `${M}/detail`) return ok(appointment(cancelled ? 'cancelled' : 'booked'))
    if (path === `${M}/cancel`) {
      cancelled = true
      return ok(appointment('cancelled'))
    }
    if (path === `${M}/records`) return ok([appointment()])
    if (path === '/dld-palm/api/nucleic/kinds') {
      return ok([
        { code: 'HS01', name: '新冠病毒核酸检测（单检）', priceFen: 1600, description: '一人一管', place: '门诊楼北侧核酸采样点' },
        { code: 'HS10', name: '新冠病毒核酸检测（10人混检）', priceFen: 350, description: '十人一管', place: '门诊楼北侧核酸采样点' },
      ])
    }
    if (path === '/dld-palm/api/payment/init/nucleic') {
      return ok({ record: nucleicOrder({ status: 'created', payable: true, sampleNo: null, testStatus: null, testStatusText: '' }), action: { kind: 'redirect', channel: 'sandbox', url: '/sandbox/pay/cashier?orderNo=P1' } })
    }
    if (path === '/dld-palm/api/payment/nucleic/list') return ok({ records: [orderRecord], total: 1, page: Number(query.page), size: Number(query.size) })
    if (path === '/dld-palm/api/payment/nucleic/codeImage/5') return ok({ id: 5, patientId: 1, sampleNo: 'HS202611270000000001', image: 'data:image/svg+xml;base64,PHN2Zy8+' })
    if (path === '/dld-palm/api/payment/nucleic/cancel') {
      orderRecord = nucleicOrder({ status: 'refunding', statusText: '退款中', refundable: false, testStatus: 'cancelled', testStatusText: '已取消', sampleNo: null })
      return ok(orderRecord)
    }
    if (path === '/dld-palm/api/report/nucleic') return ok(results)
    if (path.startsWith('/dld-pay/order/')) return ok(nucleicOrder().order)
    if (path === '/dld-pay/pay') return ok({ kind: 'redirect', channel: 'sandbox', url: '/sandbox/pay/cashier?orderNo=P1' })
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
  booked = false
  cancelled = false
  orderRecord = nucleicOrder()
  pay = jest.spyOn(platform, 'pay').mockResolvedValue('left')
  serve()
})
afterEach(() => pay.mockRestore())

describe('医技预约 /palm/inspectReserve/index', () => {
  test('a paid CT: a full day and a full slot cannot be chosen; the chosen slot is booked with a key, then its detail opens', async () => {
    testing.setRouter('/palm/inspectReserve/index', { billNo: 'B9' })
    render(<InspectReserve />)
    expect(await screen.findByText('上腹部CT（平扫）')).toBeTruthy()
    expect(screen.getByText('待预约')).toBeTruthy()
    const full = await screen.findByRole('radio', { name: '2026-11-29 周日，已约满' })
    expect(full.getAttribute('aria-disabled')).toBe('true')
    const day = screen.getByRole('radio', { name: '2026-11-30 周一，余7个号' })
    expect(day.getAttribute('aria-checked')).toBe('true')
    expect(await screen.findByText('检查前准备')).toBeTruthy()
    expect(screen.getByText('1. 腹部检查前空腹8小时')).toBeTruthy()
    fireEvent.click(screen.getByRole('radio', { name: 'CT1号机（64排） 08:30至09:00，已约满' }))
    expect(screen.getByText('请选择检查日期和时段')).toBeTruthy()
    fireEvent.click(screen.getByRole('radio', { name: 'CT1号机（64排） 09:00至09:30，余3个号' }))
    expect(screen.getByText('2026-11-30 09:00-09:30 CT1号机（64排）')).toBeTruthy()
    fireEvent.click(screen.getByText('确认预约'))
    await waitFor(() => expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/pages/order/inspectReserve/index?patientId=1&appointmentNo=YJ2026112700000001' }))
    const form = formOf(sent(`${M}/order`)[0]!)
    expect(form).toMatchObject({ hospitalCode: HOSPITAL, patientId: '1', billNo: 'B9', slotId: '12' })
    expect(form.idempotencyKey!.length).toBeGreaterThanOrEqual(8)
    expect(calls.toasts.some((t) => t.title === '预约成功')).toBe(true)
  })

  test('a booked examination says so and offers 改约', async () => {
    booked = true
    testing.setRouter('/palm/inspectReserve/index')
    render(<InspectReserve />)
    expect(await screen.findByText('已预约')).toBeTruthy()
    expect(screen.getByText('预约时间：2026-11-30（周一）09:00-09:30 CT1号机（64排）')).toBeTruthy()
    fireEvent.click(screen.getByText('改约'))
    expect(await screen.findByText('选择新的检查时间')).toBeTruthy()
    expect(await screen.findByText('确认改约')).toBeTruthy()
  })
})

describe('预约详情 /pages/order/inspectReserve/index and 医技预约记录', () => {
  test('the appointment with its preparation; 取消预约 asks first and shows it cancelled', async () => {
    testing.setRouter('/pages/order/inspectReserve/index', { patientId: '1', appointmentNo: 'YJ2026112700000001' })
    render(<InspectReserveDetail />)
    expect(await screen.findByText('2026-11-30（周一）09:00-09:30')).toBeTruthy()
    expect(screen.getByText('1. 去除检查部位的金属物品（项链、耳环、皮带、钥匙、带金属的内衣等）')).toBeTruthy()
    expect(screen.getByText('2. 腹部检查前空腹8小时')).toBeTruthy()
    fireEvent.click(screen.getByText('取消预约'))
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('已取消'))
    expect(calls.modals).toEqual(['确定取消该检查预约吗？取消后可重新预约其他时间。'])
    expect(formOf(sent(`${M}/cancel`)[0]!)).toEqual({ hospitalCode: HOSPITAL, patientId: '1', appointmentNo: 'YJ2026112700000001' })
    expect(screen.queryByText('改约')).toBeNull()
  })

  test('检查详情: a paid examination with its preparation; 去预约 before booking, 查看预约 after', async () => {
    testing.setRouter('/pages/order/inspection/detail', { billNo: 'B9' })
    const { unmount } = render(<InspectionDetail />)
    expect(await screen.findByText('待预约')).toBeTruthy()
    expect(screen.getByText('消化内科 许军')).toBeTruthy()
    expect(screen.getByText('1. 腹部检查前空腹8小时')).toBeTruthy()
    fireEvent.click(screen.getByText('去预约'))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/inspectReserve/index?billNo=B9' })
    unmount()
    booked = true
    mockRoot = new RootStore()
    render(<InspectionDetail />)
    fireEvent.click(await screen.findByText('查看预约'))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/pages/order/inspectReserve/index?patientId=1&appointmentNo=YJ2026112700000001' })
  })

  test('the records list opens an appointment', async () => {
    testing.setRouter('/pages/order/inspection/index')
    render(<InspectionRecords />)
    fireEvent.click(await screen.findByRole('link', { name: /上腹部CT/ }))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/pages/order/inspectReserve/index?patientId=1&appointmentNo=YJ2026112700000001' })
  })
})

describe('核酸检测', () => {
  test('开单: the chosen test and patient go to payment/init/nucleic with a key; the cashier returns to the order list', async () => {
    testing.setRouter('/palm/nucleic/purchase')
    render(<NucleicPurchasePage />)
    fireEvent.click(await screen.findByRole('radio', { name: '新冠病毒核酸检测（10人混检），¥3.50' }))
    expect(document.querySelector('.action-bar__amount')!.textContent).toBe('合计 ¥3.50')
    fireEvent.click(screen.getByText('立即支付'))
    await waitFor(() => expect(pay).toHaveBeenCalled())
    const form = formOf(sent('/dld-palm/api/payment/init/nucleic')[0]!)
    expect(form).toMatchObject({ hospitalCode: HOSPITAL, patientId: '1', kindCode: 'HS10', returnUrl: '/h5/palm/nucleic/orderList' })
  })

  test('订单: the sampling QR code drawn by the server; 取消并退款 asks and refunds', async () => {
    testing.setRouter('/palm/nucleic/orderList')
    render(<NucleicOrderList />)
    expect(await screen.findByText('待采样')).toBeTruthy()
    fireEvent.click(screen.getByText('出示采样码'))
    const image = await screen.findByRole('img', { name: '采样码，条码号HS202611270000000001' })
    expect(image.getAttribute('src')).toBe('data:image/svg+xml;base64,PHN2Zy8+')
    fireEvent.click(screen.getByText('取消并退款'))
    await waitFor(() => expect(screen.getByText('退款处理中，将原路退回')).toBeTruthy())
    expect(calls.modals).toEqual(['确定取消该核酸检测吗？¥16.00将原路退回。'])
    expect(screen.queryByRole('img', { name: '采样码，条码号HS202611270000000001' })).toBeNull()
  })

  test('the hospital’s own order list is the same flow, returning to its own pages', async () => {
    orderRecord = nucleicOrder({ status: 'created', statusText: '待支付', payable: true, refundable: false, sampleNo: null, testStatus: null, testStatusText: '' })
    testing.setRouter('/custom/10392/nucleic/orderList')
    render(<CustomNucleicOrderList />)
    fireEvent.click(await screen.findByText('去支付'))
    await waitFor(() => expect(pay).toHaveBeenCalled())
    expect(formOf(sent('/dld-pay/pay')[0]!).returnUrl).toBe('/h5/custom/10392/nucleic/orderList')
  })

  test('报告: 阴性 said in words with the sampling and report times; each opens its report', async () => {
    testing.setRouter('/palm/report/nucleic/index')
    render(<NucleicReports />)
    expect(await screen.findByText('检测结果：阴性（未检出新冠病毒核酸）')).toBeTruthy()
    expect(screen.getByText(/^采样时间：/)).toBeTruthy()
    expect(screen.getByText(/^报告时间：/)).toBeTruthy()
    fireEvent.click(screen.getByRole('link', { name: /新冠病毒核酸检测/ }))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/report/nucleic/result?sampleNo=HS202611270000000001&patientId=1' })
  })
})
