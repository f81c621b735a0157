import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import platform from '../../src/platform/index.h5'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import { mapSensitive } from '../../src/utils/base64'
import ReportIndex from '../../src/palm/report'
import ShowResult from '../../src/palm/report/result/showResult'
import Inspect from '../../src/palm/report/result/inspect'
import PathologyInspect from '../../src/palm/report/pathology/inspect'
import LabTrendPage from '../../src/palm/report/trend'
import PacsRedirect from '../../src/pages/common/pacsRedirect'
import type { ImagingReport, LabReport, LabTrend, PathologyReport, ReportPage, ReportSummary } from '../../types/api/report'
import { patient } from './doubles/patients'

let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

/** The chart library draws on a canvas jsdom has not: what the page asks it to draw is what the test reads. */
const drawn: { categories: string[]; series: { name: string; data: number[] }[] }[] = []
jest.mock('@qiun/ucharts', () => ({
  __esModule: true,
  default: class {
    constructor(opts: { categories: string[]; series: { name: string; data: number[] }[] }) {
      drawn.push(opts)
    }
  },
}))
jest.mock('../../src/palm/report/trend/chartCanvas', () => ({
  chartCanvas: async () => ({ context: {}, width: 300, height: 200, ratio: 2 }),
}))

const HOSPITAL = '10392'
const summary = (id: number, over: Partial<ReportSummary> = {}): ReportSummary => ({
  id,
  kind: 'lab',
  reportNo: `L${id}`,
  title: '血常规（五分类）',
  deptName: '检验科',
  reportedAt: '2026-11-26T02:00:00.000Z',
  unread: false,
  abnormalCount: 0,
  patientId: 1,
  ...over,
})

const lab: LabReport = {
  id: 11,
  kind: 'lab',
  patientId: 1,
  patientName: '张*',
  reportNo: 'L11',
  title: '血常规（五分类）',
  deptName: '检验科',
  doctorName: '李建华',
  reporterName: '周敏',
  checkerName: '陈立华',
  requestedAt: '2026-11-26T01:00:00.000Z',
  reportedAt: '2026-11-26T02:00:00.000Z',
  specimen: '静脉血',
  items: [
    { code: 'WBC', name: '白细胞计数', value: '11.80', unit: '10^9/L', range: '3.50-9.50', low: 3.5, high: 9.5, flag: 'H' },
    { code: 'HGB', name: '血红蛋白', value: '121', unit: 'g/L', range: '130-175', low: 130, high: 175, flag: 'L' },
    { code: 'PLT', name: '血小板计数', value: '228', unit: '10^9/L', range: '125-350', low: 125, high: 350, flag: 'N' },
  ],
}
const ct: ImagingReport = {
  ...lab,
  id: 12,
  kind: 'imaging',
  reportNo: 'I12',
  title: '胸部CT平扫',
  deptName: '放射科',
  modality: 'CT',
  examPart: '胸部',
  device: 'Siemens 64排CT',
  findings: '右肺上叶尖段见一磨玻璃密度结节',
  impression: '右肺上叶磨玻璃结节，建议复查',
  hasImages: true,
}
const biopsy: PathologyReport = { ...lab, id: 13, kind: 'pathology', reportNo: 'P13', title: '胃镜活检病理', deptName: '病理科', description: '镜下见慢性炎细胞浸润', diagnosis: '慢性非萎缩性胃炎' }
const trend: LabTrend = {
  code: 'WBC',
  name: '白细胞计数',
  unit: '10^9/L',
  range: '3.50-9.50',
  low: 3.5,
  high: 9.5,
  points: [
    { reportId: 9, reportedAt: '2026-09-26T02:00:00.000Z', value: 7.2, flag: 'N' },
    { reportId: 10, reportedAt: '2026-10-26T02:00:00.000Z', value: 8.9, flag: 'N' },
    { reportId: 11, reportedAt: '2026-11-26T02:00:00.000Z', value: 11.8, flag: 'H' },
  ],
}

/** Whether the relative's reports have been opened with the code (the server's report_verifications). */
let verified = false

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data: mapSensitive(data, (v) => Buffer.from(v, 'utf8').toString('base64')) } })

function serve() {
  testing.answer(({ url, data }) => {
    const [path = ''] = url.split('?')
    const body = Object.fromEntries(new URLSearchParams(typeof data === 'string' ? data : ''))
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: 'wx10392demo00000', provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 1, hospitalCode: HOSPITAL, hospitalName: '示范市第一人民医院', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: 'x', userSig: 's', expire: 1 })
    if (path === '/dld-palm/api/patient/list') return ok([patient(1, '张*', '本人'), patient(2, '王*兰', '母亲')])
    if (path === '/dld-palm/api/report/list') {
      const page: ReportPage = { records: [], total: 0, page: 1, size: 10, unread: 0, verify: { required: false, mobile: '' } }
      if (body.patientId === '2' && !verified) return ok({ ...page, verify: { required: true, mobile: '137****0001' } })
      if (body.patientId === '2') return ok({ ...page, records: [summary(21, { patientId: 2, title: '肝功能' })], total: 1 })
      const records = [summary(11, { unread: true, abnormalCount: 2 }), summary(9, { reportedAt: '2026-09-26T02:00:00.000Z' })]
      return ok({ ...page, records, total: 2, unread: 1 })
    }
    if (path === '/dld-palm/api/payment/unpaid/list') {
      // the patient 本人 has a CT and a drug bill to pay; only the CT holds a report
      if (body.patientId !== '1') return ok([])
      const bill = (billNo: string, title: string, category: string, amountFen: number) => ({ billNo, title, category, place: '', amountFen, orderedAt: '2026-11-26T01:00:00.000Z', paying: false, payingId: null })
      return ok([{ visitNo: 'MZ1', visitDate: '2026-11-26', deptName: '呼吸内科', doctorName: '许军', amountFen: 33500, bills: [bill('B1', '胸部CT平扫', 'exam', 28000), bill('B2', '西药处方', 'drug', 5500)] }])
    }
    if (path === '/dld-palm/api/verifyCode') {
      if (!body.code) return ok({ sent: true, verified: false, mobile: '137****0001', resendAfter: 60 })
      verified = body.code === '123456'
      return verified ? ok({ sent: false, verified: true, mobile: '137****0001', resendAfter: 0 }) : { statusCode: 200, data: { code: 400, msg: '验证码错误', data: null } }
    }
    if (path === '/dld-palm/api/assay/detail') return ok(lab)
    if (path === '/dld-palm/api/assay/trend') return ok(trend)
    if (path === '/dld-palm/api/pacs/detail') return ok(ct)
    if (path === '/dld-palm/api/report/13') return ok(biopsy)
    if (path === '/dld-palm/api/cloud/pacs/get-param') return ok({ url: '/sandbox/pacs/viewer?study=1.2.3&expires=1&sign=ab', expiresAt: '2026-11-26T03:00:00.000Z' })
    if (path === '/dld-palm/api/report/fhir') return ok({ resourceType: 'Bundle', id: 'b', type: 'collection', timestamp: '2026-11-26T03:00:00.000Z', entry: [] })
    return { statusCode: 404, data: '' }
  })
}

const sent = (path: string) => calls.requests.filter((r) => r.url.split('?')[0] === path)
const formOf = (r: { data: unknown }) => Object.fromEntries(new URLSearchParams(r.data as string))

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10392demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  verified = false
  drawn.length = 0
  serve()
})

describe('报告查询 /palm/report/index', () => {
  test('the chosen patient’s lab reports, newest first, unread and abnormal said in words; a report opens and loses its mark', async () => {
    testing.setRouter('/palm/report/index')
    render(<ReportIndex />)
    expect(await screen.findByText('未读')).toBeTruthy()
    expect(screen.getByText('未读报告 1 份')).toBeTruthy()
    expect(screen.getByText('异常 2 项')).toBeTruthy()
    expect(formOf(sent('/dld-palm/api/report/list')[0]!)).toMatchObject({ hospitalCode: HOSPITAL, patientId: '1', kind: 'lab', page: '1', size: '10' })
    expect(screen.getByText('没有更多了')).toBeTruthy()
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['检验', '检查', '病理', '体检', '核酸', '云影像'])

    fireEvent.click(screen.getAllByText('血常规（五分类）')[0]!)
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/report/result/showResult?id=11' })
    expect(screen.queryByText('未读')).toBeNull()
  })

  test('a test or examination still to pay is named above the reports and opens its payment (报告缴费); a drug bill is not', async () => {
    testing.setRouter('/palm/report/index')
    render(<ReportIndex />)
    const due = await screen.findByRole('link', { name: /^胸部CT平扫\s*¥280\.00\s*去缴费/ })
    expect(screen.getByText('以下项目缴费后才会出具报告')).toBeTruthy()
    expect(screen.queryByText('西药处方')).toBeNull()
    fireEvent.click(due)
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/payment/waitPay?billNo=B1&source=report' })
  })

  test('体检 and 核酸 open their own report pages; 检查 lists the imaging reports', async () => {
    testing.setRouter('/palm/report/index')
    render(<ReportIndex />)
    await screen.findByText('未读')
    fireEvent.click(screen.getByRole('tab', { name: '体检' }))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/report/physical/index' })
    fireEvent.click(screen.getByRole('tab', { name: '核酸' }))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/report/nucleic/index' })
    fireEvent.click(screen.getByRole('tab', { name: '检查' }))
    await waitFor(() => expect(sent('/dld-palm/api/report/list').some((r) => formOf(r).kind === 'imaging')).toBe(true))
  })

  test('a relative’s reports ask for the code sent to their mobile, then show', async () => {
    testing.setRouter('/palm/report/index')
    render(<ReportIndex />)
    await screen.findByText('未读')
    fireEvent.click(screen.getByText('王*兰'))
    expect(await screen.findByText('查看家人的报告需要短信验证')).toBeTruthy()
    expect(screen.getByText(/验证码将发送至就诊人手机 137\*\*\*\*0001/)).toBeTruthy()
    expect(screen.queryByText('导出报告（FHIR）')).toBeNull()
    fireEvent.click(screen.getByText('获取验证码'))
    await waitFor(() => expect(sent('/dld-palm/api/verifyCode')).toHaveLength(1))
    expect(formOf(sent('/dld-palm/api/verifyCode')[0]!)).toEqual({ hospitalCode: HOSPITAL, patientId: '2' })
    fireEvent.change(screen.getByLabelText('验证码'), { target: { value: '123456' } })
    fireEvent.click(screen.getByText('验证并查看报告'))
    expect(await screen.findByText('肝功能')).toBeTruthy()
    expect(formOf(sent('/dld-palm/api/verifyCode')[1]!)).toEqual({ hospitalCode: HOSPITAL, patientId: '2', code: '123456' })
  })

  test('导出报告 hands the patient the FHIR file', async () => {
    const save = jest.spyOn(platform, 'saveTextFile').mockResolvedValue('downloaded')
    testing.setRouter('/palm/report/index')
    render(<ReportIndex />)
    await screen.findByText('未读')
    fireEvent.click(screen.getByText('导出报告（FHIR）'))
    await waitFor(() => expect(save).toHaveBeenCalled())
    const [name, text, mime] = save.mock.calls[0]!
    expect(name).toMatch(/^检查检验报告-1-\d{4}-\d{2}-\d{2}\.fhir\.json$/)
    expect(JSON.parse(text).resourceType).toBe('Bundle')
    expect(mime).toBe('application/fhir+json')
    save.mockRestore()
  })
})

describe('检验报告单 /palm/report/result/showResult', () => {
  test('each item with value, unit and range; abnormal ones say ↑ 偏高 / ↓ 偏低; an item opens its trend', async () => {
    testing.setRouter('/palm/report/result/showResult', { id: '11' })
    render(<ShowResult />)
    expect(await screen.findByText('检验结果（异常 2 项）')).toBeTruthy()
    expect(screen.getByText('↑ 偏高')).toBeTruthy()
    expect(screen.getByText('↓ 偏低')).toBeTruthy()
    expect(screen.getByText('参考范围 3.50-9.50')).toBeTruthy()
    const wbc = screen.getByRole('button', { name: /^白细胞计数\s*11\.80 10\^9\/L\s*参考范围 3\.50-9\.50\s*↑ 偏高\s*查看趋势$/ })
    fireEvent.click(wbc)
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/report/trend/index?id=11&code=WBC' })
  })
})

describe('指标趋势 /palm/report/trend/index', () => {
  test('the chart draws the values oldest first; the same values are listed in words', async () => {
    testing.setRouter('/palm/report/trend/index', { id: '11', code: 'WBC' })
    render(<LabTrendPage />)
    expect(await screen.findByText('白细胞计数（10^9/L）')).toBeTruthy()
    expect(screen.getByText('历次结果（共 3 次）')).toBeTruthy()
    expect(screen.getByText('11.8 10^9/L')).toBeTruthy()
    expect(screen.getByText('↑ 偏高')).toBeTruthy()
    expect(screen.getAllByText('正常')).toHaveLength(2)
    await waitFor(() => expect(drawn).toHaveLength(1))
    expect(drawn[0]!.series[0]!.data).toEqual([7.2, 8.9, 11.8])
    expect(drawn[0]!.categories).toHaveLength(3)
  })
})

describe('检查报告单 and 病理报告单', () => {
  test('an examination’s findings and impression, and its cloud film', async () => {
    testing.setRouter('/palm/report/result/inspect', { id: '12' })
    render(<Inspect />)
    expect(await screen.findByText('右肺上叶尖段见一磨玻璃密度结节')).toBeTruthy()
    expect(screen.getByText('右肺上叶磨玻璃结节，建议复查')).toBeTruthy()
    expect(screen.getByText('胸部')).toBeTruthy()
    fireEvent.click(screen.getByText('查看云影像'))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/pages/common/pacsRedirect?id=12' })
  })

  test('a pathology report’s description and diagnosis', async () => {
    testing.setRouter('/palm/report/pathology/inspect', { id: '13' })
    render(<PathologyInspect />)
    expect(await screen.findByText('慢性非萎缩性胃炎')).toBeTruthy()
    expect(screen.getByText('镜下见慢性炎细胞浸润')).toBeTruthy()
  })

  test('云影像 opens the viewer link on this server', async () => {
    const leave = jest.spyOn(platform, 'leaveTo').mockImplementation(() => undefined)
    testing.setRouter('/pages/common/pacsRedirect', { id: '12' })
    render(<PacsRedirect />)
    await waitFor(() => expect(leave).toHaveBeenCalledWith(`${window.location.origin}/sandbox/pacs/viewer?study=1.2.3&expires=1&sign=ab`))
    expect(formOf(sent('/dld-palm/api/cloud/pacs/get-param')[0]!)).toEqual({ id: '12' })
    leave.mockRestore()
  })
})
