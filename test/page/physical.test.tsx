import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import platform from '../../src/platform/index.h5'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import { mapSensitive } from '../../src/utils/base64'
import SelectPackage from '../../src/palm/reservePhysical/select'
import PackageDetail from '../../src/palm/reservePhysical/detail'
import AppointmentPage from '../../src/palm/physical/payment'
import PhysicalReportInfo from '../../src/palm/report/physical/info'
import type { Patient } from '../../types/api/patient'
import type { PhysicalAppointment, PhysicalDay, PhysicalPackage, PhysicalReport } from '../../types/api/physical'

let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10392'
const patient: Patient = {
  id: 1,
  name: '李秀英',
  idCard: '440305********0027',
  mobile: '138****5678',
  sex: 2,
  sexText: '女',
  birthday: '1992-08-17',
  age: 34,
  relation: '本人',
  source: 'idCard',
  neonate: false,
  isDefault: true,
  hisMedCardNo: null,
  complete: true,
  missing: [],
} as unknown as Patient

const pkg: PhysicalPackage = {
  code: 'TJ03',
  name: '基础体检（女）',
  sex: 2,
  minAge: 18,
  maxAge: 80,
  priceFen: 42000,
  suits: '18岁以上女性每年一次的基础检查',
  notice: '当日早晨空腹到检',
  items: [
    { dept: '心电图室', name: '十二导联心电图', meaning: '心律失常' },
    { dept: '妇科', name: '妇科检查', meaning: '宫颈' },
  ],
}
const days: PhysicalDay[] = [
  { date: '2026-12-01', week: '周二', capacity: 20, remaining: 0, open: true },
  { date: '2026-12-02', week: '周三', capacity: 20, remaining: 5, open: true },
  { date: '2026-12-06', week: '周日', capacity: 0, remaining: 0, open: false },
]
let status: PhysicalAppointment['status']

const appointment = (): PhysicalAppointment => ({
  id: 9,
  examNo: 'T202611270000000001',
  hospitalCode: HOSPITAL,
  hospitalName: '示范市第一人民医院',
  patientId: 1,
  patientName: '李*英',
  packageCode: 'TJ03',
  packageName: '基础体检（女）',
  examDate: '2026-12-02',
  amountFen: 42000,
  status,
  statusText: { holding: '待支付', booked: '已预约', cancelled: '已取消' }[status as 'holding'] ?? status,
  payable: status === 'holding',
  cancellable: status === 'holding' || status === 'booked',
  cancelNote: null,
  refundText: status === 'cancelled' ? '已退款' : null,
  reportReady: false,
  order: {
    orderNo: 'P202611270000000009',
    business: 'physical',
    subject: '体检预约（基础体检（女））',
    amountFen: 42000,
    insuranceFen: 0,
    selfPayFen: 42000,
    status: status === 'holding' ? 'created' : status === 'cancelled' ? 'refunded' : 'paid',
    channel: status === 'holding' ? null : 'sandbox',
    expiresAt: '2026-11-27T03:00:00.000Z',
    paidAt: status === 'holding' ? null : '2026-11-27T02:10:00.000Z',
    refundedFen: status === 'cancelled' ? 42000 : 0,
    createdAt: '2026-11-27T02:05:00.000Z',
  },
  createdAt: '2026-11-27T02:05:00.000Z',
})

const report: PhysicalReport = {
  examNo: 'TDEMO0000000000002',
  hospitalCode: HOSPITAL,
  patientId: 1,
  patientName: '李*英',
  packageName: '女性专项体检',
  examDate: '2026-10-01',
  reportedAt: '2026-10-04T02:00:00.000Z',
  sexText: '女',
  age: 34,
  summary: ['1. 乳腺结节（BI-RADS 3类）'],
  findings: [
    { dept: '超声科', item: '乳腺彩超', result: '左乳10点钟方向见5×4 mm低回声结节', abnormal: true, doctor: '吴静' },
    { dept: '心电图室', item: '十二导联心电图', result: '窦性心律，正常心电图', abnormal: false, doctor: '赵磊' },
  ],
  conclusion: '本次体检发现乳腺结节（BI-RADS 3类）',
  advice: ['乳腺结节建议6个月复查乳腺彩超'],
  chiefDoctor: '主检医师 杨国栋',
}

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data: mapSensitive(data, (v) => Buffer.from(v, 'utf8').toString('base64')) } })

function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = ''] = url.split('?')
    const body = Object.fromEntries(new URLSearchParams(typeof data === 'string' ? data : ''))
    void method
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '李', wechatAvatar: '', mobile: '138****5678', roles: [], appId: 'wx10392demo00000', provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 1, hospitalCode: HOSPITAL, hospitalName: '示范市第一人民医院', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: 'x', userSig: 's', expire: 1 })
    if (path === '/dld-palm/api/patient/list') return ok([patient])
    if (path === '/dld-palm/api/physical/physicalAppointment/list') return ok([pkg])
    if (path === '/dld-palm/api/physical/getPhysical/detail') return ok(pkg)
    if (path === '/dld-palm/api/physical/appointment/date') return ok(days)
    if (path === '/dld-palm/api/physical/physicalAppointment') {
      status = 'holding'
      expect(body).toMatchObject({ hospitalCode: HOSPITAL, patientId: '1', packageCode: 'TJ03', date: '2026-12-02' })
      return ok({ appointment: appointment(), action: { kind: 'redirect', channel: 'sandbox', url: '/sandbox/pay/cashier?orderNo=P1&first=1' } })
    }
    if (path === '/dld-pay/pay') return ok({ kind: 'redirect', channel: 'sandbox', url: `/sandbox/pay/cashier?orderNo=${body.orderNo}` })
    if (path === '/dld-palm/api/physical/getPhysicalAppointment') return ok(appointment())
    if (path === '/dld-palm/api/physical/cancelAppointment') {
      status = 'cancelled'
      return ok(appointment())
    }
    if (path.startsWith('/dld-palm/api/physical/info/')) return ok(report)
    return { statusCode: 404, data: '' }
  })
}

const sent = (path: string) => calls.requests.filter((r) => r.url.split('?')[0] === path)
let pay: jest.SpyInstance
let openDocument: jest.SpyInstance

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10392demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  status = 'booked'
  pay = jest.spyOn(platform, 'pay').mockResolvedValue('left')
  openDocument = jest.spyOn(platform, 'openDocument').mockResolvedValue()
  serve()
})
afterEach(() => {
  pay.mockRestore()
  openDocument.mockRestore()
})

describe('体检预约 /palm/reservePhysical/select', () => {
  test('asks for the packages that suit the chosen patient and opens one', async () => {
    testing.setRouter('/palm/reservePhysical/select')
    render(<SelectPackage />)
    expect(await screen.findByText('基础体检（女）')).toBeTruthy()
    expect(screen.getByText('¥420.00')).toBeTruthy()
    expect(sent('/dld-palm/api/physical/physicalAppointment/list').at(-1)!.data).toMatchObject({ hospitalCode: HOSPITAL, patientId: 1 })
    fireEvent.click(screen.getByText('基础体检（女）'))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/reservePhysical/detail?code=TJ03' })
  })
})

describe('套餐详情 /palm/reservePhysical/detail', () => {
  test('a full or closed day cannot be chosen; a day with places books and goes to the cashier', async () => {
    testing.setRouter('/palm/reservePhysical/detail', { code: 'TJ03' })
    render(<PackageDetail />)
    expect(await screen.findByText('检查项目（2项）')).toBeTruthy()
    const full = screen.getByRole('radio', { name: '2026-12-01 周二 已约满' })
    expect(full.getAttribute('aria-disabled')).toBe('true')
    expect(screen.getByRole('radio', { name: '2026-12-06 周日 休息' }).getAttribute('aria-disabled')).toBe('true')
    fireEvent.click(full)
    expect(full.getAttribute('aria-checked')).toBe('false')
    const open = screen.getByRole('radio', { name: '2026-12-02 周三 余5' })
    fireEvent.click(open)
    expect(open.getAttribute('aria-checked')).toBe('true')
    fireEvent.click(screen.getByText('预约并支付'))
    await waitFor(() => expect(pay).toHaveBeenCalled())
    expect(sent('/dld-palm/api/physical/physicalAppointment')).toHaveLength(1)
    // the cashier is asked again with the appointment's own return address
    expect(new URLSearchParams(sent('/dld-pay/pay')[0]!.data as string).get('returnUrl')).toBe('/h5/palm/physical/payment?source=pay&id=9')
  })
})

describe('体检预约详情 /palm/physical/payment', () => {
  test('a booked exam: cancelled after the patient confirms, with the refund shown', async () => {
    testing.setRouter('/palm/physical/payment', { id: '9' })
    render(<AppointmentPage />)
    expect(await screen.findByText('已预约')).toBeTruthy()
    expect(screen.getByText('T202611270000000001')).toBeTruthy()
    fireEvent.click(screen.getByText('取消预约'))
    await waitFor(() => expect(sent('/dld-palm/api/physical/cancelAppointment')).toHaveLength(1))
    expect(calls.modals.at(-1)).toBe('取消后体检费用¥420.00将原路退回，确定取消吗？')
    expect(await screen.findByText('已取消')).toBeTruthy()
    expect(screen.getByText(/已退款：已原路退回¥420.00/)).toBeTruthy()
  })

  test('an unpaid one offers 去支付', async () => {
    status = 'holding'
    testing.setRouter('/palm/physical/payment', { id: '9' })
    render(<AppointmentPage />)
    expect((await screen.findAllByText('待支付')).length).toBeGreaterThan(0)
    fireEvent.click(screen.getByText('去支付'))
    await waitFor(() => expect(pay).toHaveBeenCalled())
  })
})

describe('体检报告详情 /palm/report/physical/info', () => {
  test('says what needs attention in words, and opens the PDF through the platform', async () => {
    testing.setRouter('/palm/report/physical/info', { patientId: '1', examNo: 'TDEMO0000000000002' })
    render(<PhysicalReportInfo />)
    expect(await screen.findByText('主检结论')).toBeTruthy()
    expect(screen.getByText(/【异常】乳腺彩超/)).toBeTruthy()
    expect(screen.queryByText(/【异常】十二导联心电图/)).toBeNull()
    fireEvent.click(screen.getByText('查看PDF报告'))
    await waitFor(() => expect(openDocument).toHaveBeenCalled())
    expect(openDocument.mock.calls[0][0].previewPage).toBe('/palm/report/physical/filePreview?patientId=1&examNo=TDEMO0000000000002')
  })
})
