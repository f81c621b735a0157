import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import { mapSensitive } from '../../src/utils/base64'
import { PRESCRIPTION_MESSAGE } from '../../src/utils/chatRules'
import { isBuiltPage } from '../../src/routes'
import { MSG } from '../../src/ui/messages'
import Prescriptions from '../../src/internet/prescription'
import Medicine from '../../src/internet/prescription/medicine'
import EditMedicine from '../../src/internet/prescription/edit'
import UsedMedicine from '../../src/internet/usedMedicine'
import NoStorePrescription from '../../src/internet/noStorePrescription'
import PharmacyStorePage from '../../src/internet/store'
import PrescriptionOutflow from '../../src/pages/order/prescription/hospital'
import RenewalPage from '../../src/internet/inquiry/useMedicine'
import MessageItem from '../../src/internet/tim/MessageItem'
import type { ChatMessage } from '../../types/api/chat'
import type { OnlineDoctorInfo } from '../../types/api/internet'
import type { DrugInfo, PharmacyStore, Prescription, PrescriptionCard, PrescriptionStatusInfo, PrescriptionSummary, UsedDrug } from '../../types/api/pharmacy'
import { patient } from './doubles/patients'

let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10392'
const HOSPITAL_NAME = '示范市第一人民医院'

const prescription: Prescription = {
  id: 31,
  presNo: 'RX202611260031',
  inquiryId: 900,
  category: 'western',
  patientId: 1,
  patientName: '张*',
  sex: 1,
  age: 36,
  doctorId: 100,
  doctorName: '李明',
  deptName: '心血管内科',
  pharmacistName: '陈药师',
  diagnoses: [{ code: 'I10', name: '原发性高血压' }],
  advice: '低盐饮食，监测血压',
  lines: [
    {
      drugId: 5,
      drugName: '苯磺酸氨氯地平片',
      drugSpec: '5mg*7片',
      drugSpecUnit: 'mg',
      unit: '盒',
      dose: '每次5mg',
      frequency: '每日一次',
      days: 14,
      totalCount: 2,
      priceFen: 2850,
      amountFen: 5700,
    },
  ],
  drugFeeFen: 5700,
  diagnosisFeeFen: 1000,
  totalFen: 6700,
  status: 'approved',
  statusText: '审核通过',
  rejectReason: null,
  renewable: true,
  expired: false,
  orderable: true,
  orderId: null,
  expiresAt: '2026-11-29T02:00:00.000Z',
  reviewedAt: '2026-11-26T03:00:00.000Z',
  createdAt: '2026-11-26T02:00:00.000Z',
}

const summary = (p: Prescription, drugNames: string[]): PrescriptionSummary => ({
  id: p.id,
  presNo: p.presNo,
  patientName: p.patientName,
  doctorName: p.doctorName,
  deptName: p.deptName,
  diagnoses: p.diagnoses,
  totalFen: p.totalFen,
  status: p.status,
  statusText: p.statusText,
  expired: p.expired,
  orderable: p.orderable,
  orderId: p.orderId,
  createdAt: p.createdAt,
  expiresAt: p.expiresAt,
  drugNames,
})

/** The patient 本人's prescriptions: one to buy, one bought, one waiting for the pharmacist, one expired. */
const mine = [
  summary(prescription, ['苯磺酸氨氯地平片']),
  summary({ ...prescription, id: 32, statusText: '已下单', orderable: false, orderId: 77, diagnoses: [{ code: 'E11', name: '2型糖尿病' }] }, ['二甲双胍缓释片']),
  summary({ ...prescription, id: 33, status: 'reviewing', statusText: '待审核', orderable: false, diagnoses: [{ code: 'J06', name: '急性上呼吸道感染' }] }, ['连花清瘟胶囊']),
  summary({ ...prescription, id: 34, statusText: '已过期', expired: true, orderable: false, diagnoses: [{ code: 'K29', name: '慢性胃炎' }] }, ['奥美拉唑肠溶胶囊']),
]
const mothers = [summary({ ...prescription, id: 41, patientName: '王*兰', diagnoses: [{ code: 'M54', name: '腰痛' }] }, ['布洛芬缓释胶囊'])]

const used: UsedDrug[] = [
  { drugId: 5, drugName: '苯磺酸氨氯地平片', drugSpec: '5mg*7片', unit: '盒', lastPrescribedAt: '2026-11-26T02:00:00.000Z', doctorId: 100, doctorName: '李明', times: 3 },
  { drugId: 6, drugName: '二甲双胍缓释片', drugSpec: '0.5g*30片', unit: '盒', lastPrescribedAt: '2026-10-20T02:00:00.000Z', doctorId: 101, doctorName: '王芳', times: 1 },
]

const store: PharmacyStore = {
  id: 3,
  name: '示范大药房（院内店）',
  address: '示范市健康路1号门诊楼一层',
  delivery: true,
  pickup: true,
  phone: '0755-88880000',
  hours: '08:00-20:00',
  intro: '医院合作药房，处方药凭医院处方配药。',
  latitude: '22.543096',
  longitude: '114.057865',
}

const doctor: OnlineDoctorInfo = {
  id: 100,
  doctorName: '李明',
  title: '主任医师',
  avatar: '',
  deptId: 11,
  deptName: '心血管内科',
  hospitalCode: HOSPITAL,
  hospitalName: HOSPITAL_NAME,
  level: 5,
  stars: { full: 5, half: false, empty: 0 },
  priceFen: 3000,
  avgReplySeconds: 900,
  replyTimeText: '15分钟',
  servedCount: 1000,
  goodRate: 98,
  online: true,
  speciality: '高血压',
  imAccount: 'd_100',
  intro: '',
  services: [{ type: 'text', name: '图文问诊', priceFen: 3000 }],
  fansCount: 10,
  followed: true,
}

/** What the formulary says of the medicine on prescription 31. */
const amlodipine: DrugInfo = {
  id: 5,
  code: 'X001',
  name: '苯磺酸氨氯地平片',
  commonName: '苯磺酸氨氯地平片',
  category: 'western',
  drugSpec: '5mg*7片',
  drugSpecUnit: 'mg',
  unit: '盒',
  dosageForm: '片剂',
  manufacturer: '示范制药有限公司',
  defaultUsage: '口服，一次5mg，一日一次',
  priceFen: 2850,
  rx: true,
  picture: '',
}

/** Whether a partner pharmacy has every line of prescription 31 in stock. */
let stocked = true
/** What prescriptionStatus answers of prescription 31 (it changes once it is bought elsewhere). */
let status31: PrescriptionStatusInfo = { id: 31, status: 'approved', statusText: '审核通过', orderable: true, orderId: null }

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data: mapSensitive(data, (v) => Buffer.from(v, 'utf8').toString('base64')) } })
const page = <T,>(records: T[]) => ok({ records, total: records.length, page: 1, size: 10 })

function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = ''] = url.split('?')
    const query = (method === 'GET' ? (data ?? {}) : {}) as Record<string, string | number>
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: 'wx10392demo00000', provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId')
      return ok({ id: 1, hospitalCode: HOSPITAL, hospitalName: HOSPITAL_NAME, address: '示范市人民路100号', phone: '0755-12345678', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, banners: [], menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: 'x', userSig: 's', expire: 1 })
    if (path === '/dld-palm/api/patient/list') return ok([patient(1, '张*', '本人'), patient(2, '王*兰', '母亲')])
    if (path === '/dld-hospital/outflow/getPresList') {
      if (query.patientId === undefined) return page([...mine, ...mothers])
      return page(Number(query.patientId) === 2 ? mothers : mine)
    }
    if (path === '/dld-hospital/pres/presDetail/31') return ok(prescription)
    if (path === '/dld-hospital/pres/getPrescriptionDetail') {
      const presNo = new URLSearchParams(String(data)).get('presNo')
      return presNo === prescription.presNo ? ok(prescription) : { statusCode: 200, data: { code: 2999, msg: '暂无权限', data: null } }
    }
    if (path === '/dld-rpflow/api/order/web/prescription/77') return ok(prescription)
    if (path === '/dld-hospital/pres/order/prescriptionStatus') return ok(status31)
    if (path === '/dld-hospital/pres/drugDetail') return ok(String(query.ids).split(',').includes('5') ? [amlodipine] : [])
    if (path === '/dld-rpflow/api/prescription/31') return ok({ ...prescription, stores: stocked ? [store] : [] })
    if (path === '/dld-hospital/pres/historyDrug') return ok(Number(query.patientId) === 1 ? used : [])
    if (path === '/dld-rpflow/api/store/detail/3') return ok(store)
    if (path === '/dld-hospital/doctor/info') return ok(doctor)
    if (path === '/dld-hospital/im/patient/record/list') return ok([])
    return { statusCode: 404, data: '' }
  })
}

const sent = (path: string) => calls.requests.filter((r) => r.url.split('?')[0] === path)

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10392demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  stocked = true
  status31 = { id: 31, status: 'approved', statusText: '审核通过', orderable: true, orderId: null }
  jest.spyOn(console, 'info').mockImplementation(() => undefined)
  serve()
})
afterEach(() => {
  mockRoot.chat.dispose()
  jest.restoreAllMocks()
})

const itemOf = (diagnosis: string) => screen.getByText(diagnosis).closest('[role="listitem"]') as HTMLElement

describe('我的处方 /internet/prescription/index', () => {
  test('the chosen patient’s prescriptions with their status and validity; 去购药 only on one to buy, 查看订单 on one bought', async () => {
    testing.setRouter('/internet/prescription/index')
    render(<Prescriptions />)
    expect(await screen.findByText('原发性高血压')).toBeTruthy()
    expect(sent('/dld-hospital/outflow/getPresList')[0]!.data).toMatchObject({ patientId: 1, page: 1, size: 10 })

    const open = itemOf('原发性高血压')
    expect(within(open).getByText('审核通过')).toBeTruthy()
    expect(within(open).getByText('药品：苯磺酸氨氯地平片')).toBeTruthy()
    expect(within(open).getByText('合计 ¥67.00')).toBeTruthy()
    expect(within(open).getByText(/^有效期至 2026-11-\d\d \d\d:\d\d$/)).toBeTruthy()
    expect(within(open).getByText('去购药')).toBeTruthy()
    expect(within(open).queryByText('查看订单')).toBeNull()

    const bought = itemOf('2型糖尿病')
    expect(within(bought).getByText('已下单')).toBeTruthy()
    expect(within(bought).queryByText('去购药')).toBeNull()
    fireEvent.click(within(bought).getByText('查看订单'))
    // the pharmacy order pages come with the shop; until they are built the tap says so
    const orderUrl = '/pages/order/shop/detail?id=77'
    expect(calls.navigations.pop()?.url ?? calls.toasts.pop()?.title).toBe(isBuiltPage(orderUrl) ? orderUrl : MSG.comingSoon)

    for (const [diagnosis, status] of [
      ['急性上呼吸道感染', '待审核'],
      ['慢性胃炎', '已过期'],
    ] as const) {
      const item = itemOf(diagnosis)
      expect(within(item).getByText(status)).toBeTruthy()
      expect(within(item).queryByText('去购药')).toBeNull()
      expect(within(item).queryByText('查看订单')).toBeNull()
    }
    expect(within(itemOf('慢性胃炎')).getByText('已超过有效期')).toBeTruthy()

    fireEvent.click(within(open).getByText('原发性高血压'))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/internet/prescription/medicine?id=31' })
  })

  test('another patient chosen: that patient’s prescriptions', async () => {
    testing.setRouter('/internet/prescription/index')
    render(<Prescriptions />)
    await screen.findByText('原发性高血压')
    fireEvent.click(screen.getByText('王*兰'))
    expect(await screen.findByText('腰痛')).toBeTruthy()
    expect(screen.queryByText('原发性高血压')).toBeNull()
  })

  test('去购药 with no partner pharmacy able to fill it opens 暂无可配药的药房', async () => {
    stocked = false
    testing.setRouter('/internet/prescription/index')
    render(<Prescriptions />)
    await screen.findByText('原发性高血压')
    fireEvent.click(within(itemOf('原发性高血压')).getByText('去购药'))
    await waitFor(() => expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/internet/noStorePrescription/index?id=31' }))
  })

  test('去购药 with a partner pharmacy able to fill it opens the order page', async () => {
    testing.setRouter('/internet/prescription/index')
    render(<Prescriptions />)
    await screen.findByText('原发性高血压')
    fireEvent.click(within(itemOf('原发性高血压')).getByText('去购药'))
    const orderUrl = '/internet/sureOrder/index?prescriptionId=31'
    await waitFor(() => expect(calls.navigations.pop()?.url ?? calls.toasts.pop()?.title).toBe(isBuiltPage(orderUrl) ? orderUrl : MSG.comingSoon))
  })
})

describe('处方详情 /internet/prescription/medicine', () => {
  test('reads as the paper prescription: hospital, patient, diagnoses, the Rp lines, fees, doctor and pharmacist', async () => {
    testing.setRouter('/internet/prescription/medicine', { id: '31' })
    render(<Medicine />)
    expect(await screen.findByText('处方笺（西药）')).toBeTruthy()
    expect(screen.getByText(HOSPITAL_NAME)).toBeTruthy()
    expect(screen.getByText('姓名 张*')).toBeTruthy()
    expect(screen.getByText('性别 男')).toBeTruthy()
    expect(screen.getByText('年龄 36岁')).toBeTruthy()
    expect(screen.getByText('诊断：原发性高血压')).toBeTruthy()
    const line = screen.getByRole('listitem')
    expect(within(line).getByText('1. 苯磺酸氨氯地平片')).toBeTruthy()
    expect(within(line).getByText('×2盒')).toBeTruthy()
    expect(within(line).getByText('规格：5mg*7片')).toBeTruthy()
    expect(within(line).getByText('用法：每次5mg，每日一次，共14天')).toBeTruthy()
    expect(within(line).getByText('金额：¥57.00')).toBeTruthy()
    const row = (label: string) => screen.getByText(label).parentElement!.textContent
    expect(row('药品费')).toBe('药品费¥57.00')
    expect(row('诊查费')).toBe('诊查费¥10.00')
    expect(row('合计')).toBe('合计¥67.00')
    expect(row('医师')).toBe('医师李明')
    expect(row('审核药师')).toBe('审核药师陈药师')
    expect(screen.getByText('审核通过')).toBeTruthy()
    expect(screen.getByText('去购药')).toBeTruthy()
  })

  test('opened by its number (a message carries only that) or from its pharmacy order (查看处方): the same prescription', async () => {
    testing.setRouter('/internet/prescription/medicine', { presNo: 'RX202611260031' })
    const byNo = render(<Medicine />)
    expect(await screen.findByText('处方号 RX202611260031')).toBeTruthy()
    expect(sent('/dld-hospital/pres/getPrescriptionDetail')).toHaveLength(1)
    byNo.unmount()

    testing.setRouter('/internet/prescription/medicine', { orderId: '77' })
    render(<Medicine />)
    expect(await screen.findByText('诊断：原发性高血压')).toBeTruthy()
    expect(sent('/dld-rpflow/api/order/web/prescription/77')).toHaveLength(1)
  })

  test('a number that is not the patient’s shows nothing of anyone’s prescription', async () => {
    testing.setRouter('/internet/prescription/medicine', { presNo: 'RX999' })
    render(<Medicine />)
    await waitFor(() => expect(sent('/dld-hospital/pres/getPrescriptionDetail')).toHaveLength(1))
    expect(screen.queryByText('处方笺（西药）')).toBeNull()
  })

  test('a medicine line opens its 药品说明 in a dialog that its 关闭 button closes', async () => {
    testing.setRouter('/internet/prescription/medicine', { id: '31' })
    render(<Medicine />)
    await screen.findByText('处方笺（西药）')
    fireEvent.click(screen.getByRole('button', { name: '苯磺酸氨氯地平片 药品说明' }))
    const sheet = await screen.findByRole('dialog', { name: '苯磺酸氨氯地平片 药品说明' })
    expect(await within(sheet).findByText('示范制药有限公司')).toBeTruthy()
    const row = (label: string) => within(sheet).getByText(label).parentElement!.textContent
    expect(row('规格')).toBe('规格5mg*7片')
    expect(row('用法用量')).toBe('用法用量口服，一次5mg，一日一次')
    expect(row('类别')).toBe('类别处方药')
    expect(sent('/dld-hospital/pres/drugDetail')[0]!.data).toEqual({ ids: '5' })
    fireEvent.click(within(sheet).getByRole('button', { name: '关闭' }))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  test('shown again after it was bought elsewhere: its status line is read again and says 已下单 with 查看订单', async () => {
    testing.setRouter('/internet/prescription/medicine', { id: '31' })
    render(<Medicine />)
    await screen.findByText('审核通过')
    status31 = { id: 31, status: 'approved', statusText: '已下单', orderable: false, orderId: 77 }
    testing.showPage()
    expect(await screen.findByText('已下单')).toBeTruthy()
    expect(screen.queryByText('去购药')).toBeNull()
    expect(screen.getByText('查看订单')).toBeTruthy()
    expect(sent('/dld-hospital/pres/presDetail/31')).toHaveLength(1)
  })
})

describe('问诊室: the prescription card', () => {
  test('a prescription message is drawn as 处方笺 and opens the prescription', () => {
    const card: PrescriptionCard = { prescriptionId: 31, presNo: 'RX202611260031', diagnoses: ['原发性高血压'], drugNames: ['苯磺酸氨氯地平片'], totalFen: 6700 }
    const message: ChatMessage = {
      id: 'm1',
      conversationID: 'C2Cd_100',
      from: 'd_100',
      to: '0_7',
      type: PRESCRIPTION_MESSAGE,
      payload: JSON.stringify(card),
      description: '',
      time: Date.now(),
      status: 'sendSuccess',
    }
    render(<MessageItem message={message} mine={false} avatar='' onResend={() => undefined} onPreview={() => undefined} />)
    expect(screen.getByText('处方笺')).toBeTruthy()
    expect(screen.getByText('诊断：原发性高血压')).toBeTruthy()
    expect(screen.getByText('药品：苯磺酸氨氯地平片')).toBeTruthy()
    expect(screen.getByText('合计：¥67.00')).toBeTruthy()
    expect(screen.queryByText(/prescriptionId/)).toBeNull()
    fireEvent.click(screen.getByRole('link', { name: /查看处方/ }))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/internet/prescription/medicine?id=31' })
  })
})

describe('用药记录 → 续方用药清单 → 复诊续方', () => {
  test('the medicines ticked, with their quantities, fill the renewal form with the doctor who prescribed them', async () => {
    testing.setRouter('/internet/usedMedicine/index')
    const { unmount } = render(<UsedMedicine />)
    const drug = await screen.findByRole('checkbox', { name: '苯磺酸氨氯地平片 5mg*7片' })
    expect(screen.getByText('共开具 3 次')).toBeTruthy()
    expect(screen.getByText(/^最近开具：2026-11-26 \d\d:\d\d$/)).toBeTruthy()
    expect(screen.getByText('开具医生：李明')).toBeTruthy()
    fireEvent.click(drug)
    expect(drug.getAttribute('aria-checked')).toBe('true')
    fireEvent.click(screen.getByText('续方'))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/internet/prescription/edit' })
    unmount()

    testing.setRouter('/internet/prescription/edit')
    const edit = render(<EditMedicine />)
    expect(await screen.findByText('苯磺酸氨氯地平片')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: '增加苯磺酸氨氯地平片' }))
    expect(screen.getByText('2盒')).toBeTruthy()
    expect(screen.getByRole('radio', { name: '李明医生' }).getAttribute('aria-checked')).toBe('true')
    fireEvent.click(screen.getByText('下一步'))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/internet/inquiry/useMedicine?doctorId=100' })
    edit.unmount()

    testing.setRouter('/internet/inquiry/useMedicine', { doctorId: '100' })
    render(<RenewalPage />)
    await screen.findByRole('radiogroup', { name: '就诊人' })
    await waitFor(() => expect((screen.getAllByPlaceholderText(/药品名称/) as HTMLInputElement[]).map((i) => i.value)).toEqual(['苯磺酸氨氯地平片 5mg*7片 ×2盒']))
    expect(screen.getByText('从用药记录选择')).toBeTruthy()
  })

  test('opened from the renewal form, the medicines chosen go back to it', async () => {
    testing.setRouter('/internet/inquiry/useMedicine', { doctorId: '100' })
    render(<RenewalPage />)
    await screen.findByRole('radiogroup', { name: '就诊人' })
    fireEvent.click(await screen.findByText('从用药记录选择'))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/internet/usedMedicine/index?doctorId=100' })

    testing.setRouter('/internet/usedMedicine/index', { doctorId: '100' })
    const picker = render(<UsedMedicine />, { container: document.body.appendChild(document.createElement('div')) })
    fireEvent.click(await picker.findByRole('checkbox', { name: '二甲双胍缓释片 0.5g*30片' }))
    fireEvent.click(picker.getByText('确定'))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateBack', url: '' })
    picker.unmount()
    await waitFor(() => expect((screen.getAllByPlaceholderText(/药品名称/) as HTMLInputElement[]).map((i) => i.value)).toEqual(['二甲双胍缓释片 0.5g*30片 ×1盒']))
  })
})

describe('暂无可配药的药房 /internet/noStorePrescription/index', () => {
  test('says so plainly, with the prescription and the hospital pharmacy to fill it in person', async () => {
    stocked = false
    testing.setRouter('/internet/noStorePrescription/index', { id: '31' })
    render(<NoStorePrescription />)
    expect(await screen.findByText('暂无可配药的药房', { selector: '.no-store__title' })).toBeTruthy()
    expect(screen.getByText('诊断：原发性高血压')).toBeTruthy()
    expect(screen.getByText('药品：苯磺酸氨氯地平片 ×2盒')).toBeTruthy()
    expect(screen.getByText(`${HOSPITAL_NAME} 药房`)).toBeTruthy()
    expect(screen.getByText('地址：示范市人民路100号')).toBeTruthy()
    expect(screen.getByRole('link', { name: '拨打医院电话 0755-12345678' })).toBeTruthy()
  })
})

describe('药房介绍 /internet/store/index', () => {
  test('name, hours, services, intro; the address opens the map and the phone calls', async () => {
    testing.setRouter('/internet/store/index', { id: '3' })
    render(<PharmacyStorePage />)
    expect(await screen.findByText(store.name)).toBeTruthy()
    expect(screen.getByText('营业时间：08:00-20:00')).toBeTruthy()
    expect(screen.getByText('服务：快递配送、到店自提')).toBeTruthy()
    expect(screen.getByText(store.intro)).toBeTruthy()
    fireEvent.click(screen.getByRole('link', { name: `在地图中查看 ${store.address}` }))
    expect(calls.navigations.pop()!.url).toMatch(/^\/pages\/openLocation\/index\?latitude=22\.543096&longitude=114\.057865&name=/)
  })
})

describe('处方流转 /pages/order/prescription/hospital', () => {
  test('every prescription of the user’s patients, with whose it is', async () => {
    testing.setRouter('/pages/order/prescription/hospital')
    render(<PrescriptionOutflow />)
    expect(await screen.findByText('腰痛')).toBeTruthy()
    expect(screen.getByText('原发性高血压')).toBeTruthy()
    expect(sent('/dld-hospital/outflow/getPresList')[0]!.data).toEqual({ page: 1, size: 10 })
    expect(within(itemOf('腰痛')).getByText('就诊人 王*兰 · 心血管内科 李明')).toBeTruthy()
  })
})
