import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import Taro, { calls, testing } from './doubles/taro'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import MessageCentre from '../../src/pages/message'
import MedicalHistory from '../../src/pages/medicalHistory'
import Mine from '../../src/pages/sys/user'
import InquiryDetail from '../../src/pages/order/inquiry/detail'
import TimHistory from '../../src/internet/timHistory'
import HistoryCases from '../../src/internet/historyCases'
import Complaint from '../../src/internet/complaint'
import AccessLog from '../../src/pages/accessLog'
import type { ChatMessage } from '../../types/api/chat'
import type { InquiryHistory } from '../../types/api/consultation'
import type { Inquiry, InquiryStatus } from '../../types/api/inquiry'
import type { MedicalHistoryItem, MedicalRecord } from '../../types/api/medical'
import type { UserMessage } from '../../types/api/message'
import type { AccessRecord } from '../../types/api/audit'
import type { Patient } from '../../types/api/patient'
import { useRecordStore } from '../../src/stores/RecordStore'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10412'
const HOSPITAL_NAME = '示范互联网医院'
const ME = '0_7'
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

// ---------- the fake server: the calls of server/src/routes/patient/message.ts, medical.ts and consultation.ts over the data below ----------

const people = [
  { id: 1, name: '张三' },
  { id: 2, name: '王小二' },
]
let patients: typeof people = []
const patientDto = (p: (typeof people)[number], i: number): Patient => ({
  id: p.id,
  name: p.name,
  idCard: '110101********4514',
  mobile: '138****5678',
  sex: 1,
  sexText: '男',
  birthday: '1990-03-07',
  age: 36,
  relation: i === 0 ? '本人' : '父母',
  source: 'idCard',
  neonate: false,
  isDefault: i === 0,
  hisMedCardNo: `A10000${p.id}`,
  complete: true,
  missing: [],
})

let notices: UserMessage[] = []
const notice = (id: number, extra: Partial<UserMessage> = {}): UserMessage => ({
  id,
  kind: 'inquiry',
  title: `通知${id}`,
  content: `第${id}条通知的内容`,
  link: '',
  read: false,
  createdAt: new Date(Date.now() - id * MINUTE).toISOString(),
  ...extra,
})

let inquiries: Inquiry[] = []
let accessRecords: AccessRecord[] = []
const STATUS_TEXT: Record<InquiryStatus, string> = {
  unpaid: '待支付',
  waiting: '待接诊',
  inProgress: '问诊中',
  finished: '已结束',
  cancelled: '已取消',
  closed: '已关闭',
}
const inquiryNoOf = (id: number) => `I20261123${String(id).padStart(12, '0')}`

/** An inquiry as the server answers it (a paid one with no payment order: the fields the pages here read). */
function inquiryOf(id: number, status: InquiryStatus, extra: Partial<Inquiry> = {}): Inquiry {
  const over = status === 'finished' || status === 'cancelled' || status === 'closed'
  return {
    id,
    inquiryNo: inquiryNoOf(id),
    status,
    statusText: STATUS_TEXT[status],
    serviceType: 'text',
    serviceName: '图文问诊',
    kind: 'inquiry',
    description: `胸闷两周（${id}）`,
    pictures: [],
    priceFen: 0,
    patientId: 1,
    patientName: '张*',
    hospitalCode: HOSPITAL,
    hospitalName: HOSPITAL_NAME,
    doctor: { id: 100, doctorName: '李明', title: '主任医师', avatar: '/static/doctors/100.svg', deptName: '心血管内科', imAccount: 'd_100' },
    paidAt: status === 'unpaid' ? null : '2026-11-23T01:05:00.000Z',
    acceptedAt: status === 'inProgress' || status === 'finished' ? '2026-11-23T02:00:00.000Z' : null,
    serviceEndsAt: status === 'waiting' || status === 'inProgress' ? new Date(Date.now() + 20 * HOUR).toISOString() : null,
    finishedAt: over ? new Date(Date.UTC(2026, 10, 23, 3, 0, 0) - id * DAY).toISOString() : null,
    cancellable: status === 'unpaid' || status === 'waiting',
    complaint: null,
    intake: null,
    evaluated: false,
    order: null,
    createdAt: new Date(Date.UTC(2026, 10, 23, 1, 0, 0) - id * DAY).toISOString(),
    ...extra,
  }
}

let medicalRecords: MedicalRecord[] = []
function recordOf(id: number, patientId: number, inquiryId: number, createdAt: string, extra: Partial<MedicalRecord['fields']> = {}): MedicalRecord {
  return {
    id,
    inquiryId,
    imOrderNo: inquiryNoOf(inquiryId),
    patientId,
    patientName: patientId === 1 ? '张*' : '王*二',
    sex: 1,
    age: 36,
    hospitalName: HOSPITAL_NAME,
    deptName: '心血管内科',
    doctorId: 100,
    doctorName: '李明',
    doctorTitle: '主任医师',
    fields: {
      chiefComplaint: `胸闷两周（病历${id}）`,
      presentIllness: '活动后胸闷，休息后缓解。',
      pastHistory: '',
      allergyHistory: '青霉素过敏',
      diagnosis: '稳定型心绞痛',
      advice: '规律服药，两周后复诊。',
      ...extra,
    },
    diseases: [
      { code: '11', name: '稳定型心绞痛', deptName: '心血管内科' },
      { code: '12', name: '高血压病', deptName: '心血管内科' },
    ],
    createdAt,
    updatedAt: createdAt,
  }
}

let cases: Record<number, MedicalHistoryItem[]> = {}
let chatMessages: Record<number, ChatMessage[]> = {}
let steps: Record<number, InquiryHistory> = {}
let failing = new Set<string>()

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data } })
const refuse = (code: number, msg: string) => ({ statusCode: 200, data: { code, msg, data: null } })
const forbidden = () => refuse(2999, '暂无权限')
const pageOf = <T,>(list: T[], query: Record<string, unknown>) => {
  const page = Number(query.page)
  const size = Number(query.size)
  return { records: list.slice((page - 1) * size, page * size), total: list.length, page, size }
}

function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = ''] = url.split('?')
    const query = (method === 'GET' ? data ?? {} : {}) as Record<string, string | number>
    const form = Object.fromEntries(new URLSearchParams(typeof data === 'string' ? data : ''))
    const json = (method !== 'GET' && data && typeof data === 'object' ? data : {}) as Record<string, unknown>
    if (failing.has(path)) return refuse(500, '服务器开小差了')
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '/static/me.png', mobile: '138****5678', roles: [], appId: query.appId, provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 3, hospitalCode: HOSPITAL, hospitalName: HOSPITAL_NAME, configDto: { isInternet: true, isPalm: false } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: query.imAccount, userSig: 's', expire: 1 })
    if (path === '/dld-palm/api/patient/list') return ok(patients.map(patientDto))

    // the message centre
    if (path === '/dld-hospital/message/messageList') {
      const newestFirst = [...notices].sort((a, b) => b.id - a.id)
      return ok({ ...pageOf(newestFirst, query), unread: notices.filter((n) => !n.read).length })
    }
    if (path === '/dld-hospital/message/read') {
      const id = form.id === undefined ? undefined : Number(form.id)
      if (id !== undefined && !notices.some((n) => n.id === id)) return forbidden()
      const marked = notices.filter((n) => !n.read && (id === undefined || n.id === id))
      for (const n of marked) n.read = true
      return ok({ marked: marked.length, unread: notices.filter((n) => !n.read).length })
    }

    // 访问记录
    if (path === '/dld-user/user/access-log') return ok(pageOf(accessRecords, query))

    // medical records
    if (path === '/dld-hospital/im/medical/his/record') {
      const patientId = Number(query.patientId)
      if (!patients.some((p) => p.id === patientId)) return forbidden()
      const mine = medicalRecords.filter((r) => r.patientId === patientId).sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      return ok(pageOf(mine, query))
    }
    if (path === '/dld-hospital/im/medical/his/recordDetail') {
      if (!inquiries.some((i) => i.inquiryNo === query.imOrderNo)) return forbidden()
      return ok(medicalRecords.find((r) => r.imOrderNo === query.imOrderNo) ?? null)
    }
    if (path === '/dld-hospital/inquiry/medical/list') {
      const patientId = Number(query.patientId)
      if (!patients.some((p) => p.id === patientId)) return forbidden()
      return ok(cases[patientId] ?? [])
    }

    // past consultations
    if (path === '/dld-hospital/im/core/historyList') {
      const over = inquiries.filter((i) => i.status === 'finished' || i.status === 'cancelled' || i.status === 'closed').sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      return ok(pageOf(over, query))
    }
    const chat = /^\/dld-hospital\/manage\/order\/chatRecord\/(\d+)$/.exec(path)
    if (chat) {
      const inq = inquiries.find((i) => i.id === Number(chat[1]))
      if (!inq) return forbidden()
      return ok({ inquiryId: inq.id, inquiryNo: inq.inquiryNo, doctor: inq.doctor, messages: chatMessages[inq.id] ?? [] })
    }
    const history = /^\/dld-hospital\/im\/trade\/checkListRecord\/(\d+)$/.exec(path)
    if (history) return steps[Number(history[1])] ? ok(steps[Number(history[1])]) : forbidden()

    // one inquiry: checked on opening, complained about once
    const inq = inquiries.find((i) => i.id === Number(query.id ?? json.id))
    if (path === '/dld-hospital/im/trade/service/im/check') return inq ? ok(inq) : forbidden()
    if (path === '/dld-hospital/im/trade/complaint') {
      if (!inq) return forbidden()
      if (!inq.paidAt) return refuse(400, '未支付的问诊无法投诉')
      if (inq.complaint) return refuse(400, '该问诊已投诉，请勿重复提交')
      inq.complaint = { content: String(json.content), time: new Date().toISOString() }
      return ok(inq)
    }
    return { statusCode: 404, data: '' }
  })
}

const sent = (path: string) => calls.requests.filter((r) => r.url.split('?')[0] === path)
const formOf = (r: { data: unknown }) => Object.fromEntries(new URLSearchParams(typeof r.data === 'string' ? r.data : ''))
const toasts = () => calls.toasts.map((t) => t.title)

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10412demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  patients = [...people]
  notices = []
  inquiries = []
  accessRecords = []
  medicalRecords = []
  cases = {}
  chatMessages = {}
  steps = {}
  failing = new Set()
  serve()
})

// ---------- the message centre ----------

describe('消息中心 /pages/message/index', () => {
  const open = async () => {
    testing.setRouter('/pages/message/index')
    render(<MessageCentre />)
    await screen.findByText('全部已读')
  }
  const rows = () => Array.from(document.querySelectorAll<HTMLElement>('.message-item'))
  const titles = () => rows().map((r) => r.querySelector('.message-item__title')!.textContent)
  const dots = () => rows().map((r) => !!within(r).queryByRole('status', { name: '未读' }))
  const readAllButton = () => screen.getByText('全部已读') as HTMLButtonElement
  /** An entry of the mine page's menu, by its title. */
  const entry = (title: string) => screen.getAllByRole('button').find((b) => b.textContent?.startsWith(title))!

  test('newest first, each with its unread dot, title, content and time ago; tapping one marks it read and opens its link', async () => {
    notices = [
      notice(1, { title: '系统通知', content: '就诊须知已更新', createdAt: new Date(Date.now() - 2 * DAY - HOUR).toISOString() }),
      notice(2, { title: '问诊已结束', content: '您与李明医生的问诊已结束', read: true, link: '/pages/order/inquiry/detail?id=52', createdAt: new Date(Date.now() - 3 * HOUR - MINUTE).toISOString() }),
      notice(3, { title: '医生已接诊', content: '李明医生已接诊您的问诊', link: '/pages/order/inquiry/detail?id=52', createdAt: new Date(Date.now() - 2 * MINUTE).toISOString() }),
    ]
    await open()
    await waitFor(() => expect(rows()).toHaveLength(3))
    expect(titles()).toEqual(['医生已接诊', '问诊已结束', '系统通知'])
    expect(dots()).toEqual([true, false, true])
    expect(rows().map((r) => r.querySelector('.message-item__time')!.textContent)).toEqual(['刚刚', '3小时前', '2天前'])
    expect(rows()[0]!.textContent).toContain('李明医生已接诊您的问诊')
    expect(screen.getByText('2条未读')).toBeTruthy()
    expect(screen.getByText('没有更多了')).toBeTruthy()

    fireEvent.click(rows()[0]!)
    await waitFor(() => expect(dots()).toEqual([false, false, true]))
    expect(sent('/dld-hospital/message/read').map(formOf)).toEqual([{ id: '3' }])
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/pages/order/inquiry/detail?id=52' }])
    expect(screen.getByText('1条未读')).toBeTruthy()

    // unread without a link: marked, nothing opened
    fireEvent.click(rows()[2]!)
    await waitFor(() => expect(dots()).toEqual([false, false, false]))
    expect(sent('/dld-hospital/message/read').map(formOf)).toEqual([{ id: '3' }, { id: '1' }])
    expect(calls.navigations).toHaveLength(1)
    expect(screen.getByText('暂无未读消息')).toBeTruthy()
    expect(readAllButton().disabled).toBe(true)

    // read already: opens its link without asking the server again
    fireEvent.click(rows()[1]!)
    await waitFor(() => expect(calls.navigations).toHaveLength(2))
    expect(sent('/dld-hospital/message/read')).toHaveLength(2)
  })

  test('a link to a page not in this build says so instead of opening a blank page', async () => {
    notices = [notice(1, { link: '/internet/diagnosisTemplate/index' })]
    await open()
    fireEvent.click(await screen.findByText('通知1'))
    await waitFor(() => expect(toasts()).toEqual(['该服务暂未开放，敬请期待']))
    expect(calls.navigations).toEqual([])
    expect(notices[0]!.read).toBe(true)
  })

  test('全部已读 marks every notice, those on pages not yet shown too', async () => {
    notices = Array.from({ length: 12 }, (_, i) => notice(i + 1))
    await open()
    await waitFor(() => expect(rows()).toHaveLength(10))
    expect(screen.getByText('12条未读')).toBeTruthy()
    expect(dots().every(Boolean)).toBe(true)

    fireEvent.click(readAllButton())
    await waitFor(() => expect(dots().some(Boolean)).toBe(false))
    expect(sent('/dld-hospital/message/read')).toHaveLength(1)
    expect(sent('/dld-hospital/message/read')[0]!.data).toBeUndefined()
    expect(screen.getByText('暂无未读消息')).toBeTruthy()
    expect(readAllButton().disabled).toBe(true)

    fireEvent.click(screen.getByText('加载更多'))
    await waitFor(() => expect(rows()).toHaveLength(12))
    expect(dots()).toEqual(Array(12).fill(false))
    // tapping a read one asks nothing more
    fireEvent.click(rows()[11]!)
    expect(sent('/dld-hospital/message/read')).toHaveLength(1)
  })

  test('a page at a time: 加载更多, 加载中..., 没有更多了; a failed page says 加载失败 and is retried on a tap', async () => {
    notices = Array.from({ length: 23 }, (_, i) => notice(i + 1, { read: true }))
    await open()
    await waitFor(() => expect(rows()).toHaveLength(10))
    expect(titles()[0]).toBe('通知23')

    failing.add('/dld-hospital/message/messageList')
    fireEvent.click(screen.getByText('加载更多'))
    expect(screen.getByText('加载中...')).toBeTruthy()
    expect(await screen.findByText('加载失败')).toBeTruthy()
    expect(rows()).toHaveLength(10)

    failing.clear()
    fireEvent.click(screen.getByText('加载失败'))
    await waitFor(() => expect(rows()).toHaveLength(20))
    fireEvent.click(screen.getByText('加载更多'))
    expect(await screen.findByText('没有更多了')).toBeTruthy()
    expect(rows()).toHaveLength(23)
    expect(titles()[22]).toBe('通知1')
    expect(sent('/dld-hospital/message/messageList').map((r) => (r.data as { page: number }).page)).toEqual([1, 2, 2, 3])
  })

  test('nothing yet: 暂无消息, and 全部已读 has nothing to mark', async () => {
    await open()
    expect(await screen.findByText('暂无消息')).toBeTruthy()
    expect(readAllButton().disabled).toBe(true)
    fireEvent.click(readAllButton())
    expect(sent('/dld-hospital/message/read')).toHaveLength(0)
  })

  test('a first page that fails says 加载失败, and 重新加载 asks again', async () => {
    notices = [notice(1)]
    failing.add('/dld-hospital/message/messageList')
    await open()
    expect(await screen.findByText('加载失败')).toBeTruthy()
    failing.clear()
    fireEvent.click(screen.getByText('重新加载'))
    expect(await screen.findByText('通知1')).toBeTruthy()
  })

  test('the mine page: 消息中心 with the unread count, 问诊记录 and 电子病历 open their pages', async () => {
    notices = [notice(1), notice(2), notice(3, { read: true })]
    testing.setRouter('/pages/sys/user/index')
    render(<Mine />)
    const badge = await screen.findByLabelText('2条未读')
    expect(badge.textContent).toBe('2')
    expect(badge.closest('[role=button]')).toBe(entry('消息中心'))
    fireEvent.click(entry('消息中心'))
    fireEvent.click(entry('问诊记录'))
    fireEvent.click(entry('电子病历'))
    expect(calls.navigations).toEqual([
      { kind: 'navigateTo', url: '/pages/message/index' },
      { kind: 'navigateTo', url: '/internet/timHistory/index' },
      { kind: 'navigateTo', url: '/pages/medicalHistory/index' },
    ])
  })

  test('the mine page without unread notices shows no count', async () => {
    notices = [notice(1, { read: true })]
    testing.setRouter('/pages/sys/user/index')
    render(<Mine />)
    await screen.findByText('当前就诊人')
    expect(entry('消息中心').textContent).toBe('消息中心›')
    await waitFor(() => expect(sent('/dld-hospital/message/messageList')).toHaveLength(1))
    expect(document.querySelector('.mine__badge')).toBeNull()
  })
})

// ---------- the electronic medical record ----------

describe('电子病历 /pages/medicalHistory/index', () => {
  const open = async (params: Record<string, string> = {}) => {
    testing.setRouter('/pages/medicalHistory/index', params)
    render(<MedicalHistory />)
  }
  const cards = () => Array.from(document.querySelectorAll<HTMLElement>('.medical-record'))
  const fieldsOf = (el: HTMLElement) =>
    Array.from(el.querySelectorAll('.record-field')).map((f) => [f.querySelector('.record-field__label')!.textContent, f.querySelector('.record-field__value')!.textContent])

  test('the default patient’s records newest first; a record opens in place to its whole text; another chip shows that patient’s', async () => {
    medicalRecords = [
      recordOf(1, 1, 41, '2026-10-01T02:00:00.000Z'),
      recordOf(2, 1, 42, '2026-11-20T02:00:00.000Z', { diagnosis: '高血压病' }),
      recordOf(3, 2, 43, '2026-11-01T02:00:00.000Z'),
    ]
    await open()
    const chips = within(await screen.findByRole('radiogroup', { name: '就诊人' })).getAllByRole('radio')
    expect(chips.map((c) => [c.textContent, c.getAttribute('aria-checked')])).toEqual([
      ['张*', 'true'],
      ['王*二', 'false'],
    ])
    await waitFor(() => expect(cards()).toHaveLength(2))
    expect(cards().map((c) => c.querySelector('.medical-record__date')!.textContent)).toEqual(['2026-11-20', '2026-10-01'])
    const first = cards()[0]!
    expect(first.textContent).toContain(`${HOSPITAL_NAME} · 心血管内科`)
    expect(first.textContent).toContain('李明 主任医师')
    // the doctor's words, then the coded names not already in them
    expect(first.querySelector('.medical-record__diagnosis')!.textContent).toBe('诊断：高血压病、稳定型心绞痛')
    expect(cards()[1]!.querySelector('.medical-record__diagnosis')!.textContent).toBe('诊断：稳定型心绞痛、高血压病')
    expect(sent('/dld-hospital/im/medical/his/record').map((r) => r.data)).toEqual([{ patientId: 1, page: 1, size: 10 }])

    const summary = within(cards()[1]!).getByRole('button')
    expect(summary.getAttribute('aria-expanded')).toBe('false')
    expect(cards()[1]!.querySelector('.record-field')).toBeNull()
    fireEvent.click(summary)
    expect(summary.getAttribute('aria-expanded')).toBe('true')
    expect(fieldsOf(cards()[1]!)).toEqual([
      ['主诉', '胸闷两周（病历1）'],
      ['现病史', '活动后胸闷，休息后缓解。'],
      ['既往史', '无'],
      ['过敏史', '青霉素过敏'],
      ['初步诊断', '稳定型心绞痛'],
      ['处理意见', '规律服药，两周后复诊。'],
    ])
    expect(Array.from(cards()[1]!.querySelectorAll('.record-field__disease')).map((d) => d.textContent)).toEqual(['稳定型心绞痛', '高血压病'])
    fireEvent.click(summary)
    expect(cards()[1]!.querySelector('.record-field')).toBeNull()

    fireEvent.click(chips[1]!)
    await waitFor(() => expect(cards()).toHaveLength(1))
    expect(chips[1]!.getAttribute('aria-checked')).toBe('true')
    expect(within(cards()[0]!).getByRole('button').textContent).toContain('2026-11-01')
    expect(sent('/dld-hospital/im/medical/his/record').map((r) => (r.data as { patientId: number }).patientId)).toEqual([1, 2])
  })

  test('a patient with no record: 暂无病历', async () => {
    medicalRecords = [recordOf(3, 2, 43, '2026-11-01T02:00:00.000Z')]
    await open()
    expect(await screen.findByText('暂无病历')).toBeTruthy()
  })

  test('no patient yet: says so with a way to add one', async () => {
    patients = []
    await open()
    expect(await screen.findByText('还没有就诊人，添加后可查看其电子病历')).toBeTruthy()
    fireEvent.click(screen.getByText('添加就诊人'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/custom/10412/cardType/index' }])
    expect(sent('/dld-hospital/im/medical/his/record')).toHaveLength(0)
  })

  test('?imOrderNo= shows one consultation’s record whole, with who and where', async () => {
    inquiries = [inquiryOf(42, 'finished')]
    medicalRecords = [recordOf(2, 1, 42, '2026-11-20T02:00:00.000Z')]
    await open({ imOrderNo: inquiryNoOf(42) })
    expect(await screen.findByText('门诊病历')).toBeTruthy()
    const head = document.querySelector('.record-head')!
    expect(head.textContent).toContain('张*')
    expect(head.textContent).toContain('36岁')
    expect(head.textContent).toContain('李明 主任医师')
    expect(fieldsOf(document.querySelector('.medical') as HTMLElement).map(([label]) => label)).toEqual(['主诉', '现病史', '既往史', '过敏史', '初步诊断', '处理意见'])
    expect(sent('/dld-hospital/im/medical/his/recordDetail').map((r) => r.data)).toEqual([{ imOrderNo: inquiryNoOf(42) }])
    expect(screen.queryByRole('radiogroup')).toBeNull()
  })

  test('?imOrderNo= of a consultation with no record yet says so', async () => {
    inquiries = [inquiryOf(44, 'finished')]
    await open({ imOrderNo: inquiryNoOf(44) })
    expect(await screen.findByText('医生暂未填写病历')).toBeTruthy()
  })
})

describe('查看病历 on 问诊详情 /pages/order/inquiry/detail', () => {
  const open = async (id: number) => {
    testing.setRouter('/pages/order/inquiry/detail', { id: String(id) })
    render(<InquiryDetail />)
    await screen.findByText('问诊单号')
  }
  const buttons = () => Array.from(document.querySelectorAll('.inquiry-detail__actions button')).map((b) => b.textContent)

  test('shown when the doctor has written a record, and it opens that record', async () => {
    inquiries = [inquiryOf(42, 'finished')]
    medicalRecords = [recordOf(2, 1, 42, '2026-11-20T02:00:00.000Z')]
    await open(42)
    await waitFor(() => expect(buttons()).toEqual(['进入诊室', '查看病历', '投诉']))
    fireEvent.click(screen.getByText('查看病历'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: `/pages/medicalHistory/index?imOrderNo=${inquiryNoOf(42)}` }])
  })

  test('not shown while the server has none (it answers null)', async () => {
    inquiries = [inquiryOf(43, 'inProgress')]
    await open(43)
    await waitFor(() => expect(sent('/dld-hospital/im/medical/his/recordDetail').map((r) => r.data)).toEqual([{ imOrderNo: inquiryNoOf(43) }]))
    expect(buttons()).toEqual(['进入诊室', '结束问诊', '投诉'])
  })

  test('not asked before a doctor has accepted', async () => {
    inquiries = [inquiryOf(45, 'waiting')]
    await open(45)
    expect(buttons()).toEqual(['进入诊室', '取消问诊', '投诉'])
    expect(sent('/dld-hospital/im/medical/his/recordDetail')).toHaveLength(0)
  })
})

// ---------- past consultations ----------

describe('问诊记录 /internet/timHistory/index', () => {
  const rows = () => Array.from(document.querySelectorAll<HTMLElement>('.tim-history__item'))

  test('the past consultations, newest first; one opens its record', async () => {
    inquiries = [inquiryOf(62, 'finished'), inquiryOf(61, 'cancelled', { statusText: '已退款' }), inquiryOf(63, 'inProgress')]
    testing.setRouter('/internet/timHistory/index')
    render(<TimHistory />)
    await waitFor(() => expect(rows()).toHaveLength(2))
    expect(rows().map((r) => r.querySelector('.tim-history__status')!.textContent)).toEqual(['已退款', '已结束'])
    expect(rows()[0]!.textContent).toContain('李明')
    expect(rows()[0]!.textContent).toContain('就诊人：张*')
    expect(rows()[0]!.textContent).toContain('胸闷两周（61）')
    expect(screen.getByText('没有更多了')).toBeTruthy()
    fireEvent.click(rows()[1]!)
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/internet/timHistory/index?inquiryId=62' }])
  })

  test('none yet: 暂无问诊记录', async () => {
    testing.setRouter('/internet/timHistory/index')
    render(<TimHistory />)
    expect(await screen.findByText('暂无问诊记录')).toBeTruthy()
  })

  test('one consultation read back: its steps on top, the messages as the room shows them, and no input bar', async () => {
    inquiries = [inquiryOf(62, 'finished')]
    const t0 = Date.now() - 2 * HOUR
    const msg = (id: string, from: string, payload: string, time: number, extra: Partial<ChatMessage> = {}): ChatMessage => ({
      id,
      conversationID: 'C2Cd_100',
      from,
      to: from === ME ? 'd_100' : ME,
      type: 'text',
      payload,
      description: '',
      time,
      status: 'sendSuccess',
      ...extra,
    })
    chatMessages = {
      62: [
        msg('1', 'd_100', '医生已接诊', t0, { description: 'start' }),
        msg('2', ME, '医生您好，我胸闷两周了', t0 + MINUTE),
        msg('3', ME, '/dld-file/files/ecg0000000000000000001.jpg', t0 + 2 * MINUTE, { type: 'image' }),
        msg('4', 'd_100', '建议做心电图检查', t0 + 30 * MINUTE),
      ],
    }
    steps = {
      62: {
        id: 62,
        inquiryNo: inquiryNoOf(62),
        status: 'finished',
        statusText: '已结束',
        steps: [
          { step: 'created', text: '提交问诊', time: '2026-11-20T01:00:00.000Z' },
          { step: 'paid', text: '免费问诊，无需支付', time: '2026-11-20T01:00:00.000Z' },
          { step: 'accepted', text: '医生接诊', time: '2026-11-20T01:30:00.000Z' },
          { step: 'finished', text: '问诊结束', time: '2026-11-20T03:00:00.000Z' },
        ],
      },
    }
    ;(Taro as unknown as { previewImage: unknown }).previewImage = jest.fn(async () => undefined)
    testing.setRouter('/internet/timHistory/index', { inquiryId: '62' })
    render(<TimHistory />)
    const timelineList = await screen.findByRole('list', { name: '问诊进度' })
    expect(within(timelineList).getAllByRole('listitem').map((s) => s.querySelector('.chat-step__text')!.textContent)).toEqual([
      '提交问诊',
      '免费问诊，无需支付',
      '医生接诊',
      '问诊结束',
    ])
    expect(sent('/dld-hospital/manage/order/chatRecord/62')).toHaveLength(1)
    expect(sent('/dld-hospital/im/trade/checkListRecord/62')).toHaveLength(1)
    expect(document.querySelector('.chat-record__doctor')!.textContent).toContain(`心血管内科 · 问诊单号 ${inquiryNoOf(62)}`)

    const log = screen.getByRole('log', { name: '聊天记录' })
    // the doctor's mark of the order is a note, not a bubble
    expect(within(log).getByRole('note').textContent).toBe('医生已接诊')
    const bubbles = Array.from(log.querySelectorAll<HTMLElement>('.room-msg'))
    expect(bubbles.map((b) => [b.className.includes('room-msg--mine') ? 'mine' : 'theirs', b.textContent])).toEqual([
      ['mine', '医生您好，我胸闷两周了'],
      ['mine', ''],
      ['theirs', '建议做心电图检查'],
    ])
    expect(bubbles[1]!.querySelectorAll('img')[1]!.getAttribute('src')).toBe('/dld-file/files/ecg0000000000000000001.jpg')
    expect(bubbles[0]!.querySelector('img')!.getAttribute('src')).toBe('/static/me.png')
    expect(bubbles[2]!.querySelector('img')!.getAttribute('src')).toBe('/static/doctors/100.svg')
    // a time line before the first message and after the 28-minute pause
    expect(log.querySelectorAll('.room__time')).toHaveLength(2)
    fireEvent.click(within(log).getByRole('button', { name: '查看图片' }))
    expect((Taro as unknown as { previewImage: jest.Mock }).previewImage).toHaveBeenCalledWith({
      current: '/dld-file/files/ecg0000000000000000001.jpg',
      urls: ['/dld-file/files/ecg0000000000000000001.jpg'],
    })
    // read only: nothing to type in, nothing to send
    expect(document.querySelector('input, textarea')).toBeNull()
    expect(screen.queryByText('发送')).toBeNull()
    expect(screen.queryByLabelText('输入栏')).toBeNull()
    expect(screen.getByText('以上为问诊记录，仅供查看')).toBeTruthy()
  })

  test('someone else’s consultation goes to the no-permission page and shows 加载失败', async () => {
    testing.setRouter('/internet/timHistory/index', { inquiryId: '999' })
    render(<TimHistory />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/pages/permission' }])
  })
})

// ---------- the cases a follow-up may continue ----------

describe('历史病例 /internet/historyCases/index', () => {
  const caseOf = (inquiryId: number, diagnosis: string, names: string[]): MedicalHistoryItem => ({
    inquiryId,
    inquiryNo: inquiryNoOf(inquiryId),
    recordId: inquiryId + 1000,
    doctorId: 100,
    doctorName: '李明',
    deptName: '心血管内科',
    hospitalName: HOSPITAL_NAME,
    diagnosis,
    diseases: names.map((name, i) => ({ code: String(i + 1), name, deptName: '心血管内科' })),
    finishedAt: '2026-11-20T03:00:00.000Z',
  })
  const items = () => Array.from(document.querySelectorAll<HTMLElement>('.case-item'))

  test('the patient’s finished consultations with a record; 选择 keeps the choice for the follow-up and goes back', async () => {
    cases = { 2: [caseOf(72, '高血压病', ['高血压病']), caseOf(71, '稳定型心绞痛', ['稳定型心绞痛', '高脂血症'])] }
    testing.setRouter('/internet/historyCases/index', { patientId: '2' })
    render(<HistoryCases />)
    await waitFor(() => expect(items()).toHaveLength(2))
    expect(sent('/dld-hospital/inquiry/medical/list').map((r) => r.data)).toEqual([{ patientId: 2 }])
    expect(items().map((i) => i.querySelector('.case-item__diagnosis')!.textContent)).toEqual(['高血压病', '稳定型心绞痛、高脂血症'])
    expect(items()[0]!.textContent).toContain('李明 · 心血管内科')
    expect(useRecordStore.of(mockRoot).chosenCase).toBeNull()

    fireEvent.click(within(items()[1]!).getByText('选择'))
    expect(useRecordStore.of(mockRoot).chosenCase).toEqual({ ...caseOf(71, '稳定型心绞痛', ['稳定型心绞痛', '高脂血症']), patientId: 2 })
    expect(calls.navigations).toEqual([{ kind: 'navigateBack', url: '' }])
    expect(items()[1]!.getAttribute('aria-selected')).toBe('true')
    expect(within(items()[1]!).getByText('已选择')).toBeTruthy()
  })

  test('查看病历 opens the record to read', async () => {
    cases = { 1: [caseOf(71, '稳定型心绞痛', [])] }
    testing.setRouter('/internet/historyCases/index', { patientId: '1' })
    render(<HistoryCases />)
    fireEvent.click(await screen.findByText('查看病历'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: `/pages/medicalHistory/index?imOrderNo=${inquiryNoOf(71)}` }])
    expect(useRecordStore.of(mockRoot).chosenCase).toBeNull()
  })

  test('none: 暂无历史病例', async () => {
    testing.setRouter('/internet/historyCases/index', { patientId: '1' })
    render(<HistoryCases />)
    expect(await screen.findByText('暂无历史病例')).toBeTruthy()
  })
})

// ---------- the complaint ----------

describe('投诉 /internet/complaint/index', () => {
  test('from the detail: an empty one is refused with the server’s words; sent, the page goes back and the detail shows it', async () => {
    inquiries = [inquiryOf(56, 'finished')]
    testing.setRouter('/pages/order/inquiry/detail', { id: '56' })
    const detail = render(<InquiryDetail />)
    await within(detail.container).findByText('问诊单号')
    fireEvent.click(within(detail.container).getByText('投诉'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/internet/complaint/index?id=56' }])

    testing.setRouter('/internet/complaint/index', { id: '56' })
    const page = render(<Complaint />)
    const form = within(page.container)
    await form.findByText('投诉对象')
    expect(page.container.textContent).toContain('李明 主任医师 · 心血管内科')
    expect(page.container.textContent).toContain(`问诊单号 ${inquiryNoOf(56)}`)
    // the inquiry came with the detail: not fetched again
    expect(sent('/dld-hospital/im/trade/service/im/check')).toHaveLength(1)

    fireEvent.click(form.getByText('提交投诉'))
    await waitFor(() => expect(toasts()).toEqual(['请填写投诉内容']))
    expect(sent('/dld-hospital/im/trade/complaint')).toHaveLength(0)

    fireEvent.change(form.getByPlaceholderText('请描述您遇到的问题，我们会尽快核实处理'), { target: { value: '医生回复太慢' } })
    expect(form.getByText('6/500')).toBeTruthy()
    fireEvent.click(form.getByText('提交投诉'))
    await waitFor(() => expect(calls.navigations).toHaveLength(2))
    expect(calls.navigations[1]).toEqual({ kind: 'navigateBack', url: '' })
    expect(sent('/dld-hospital/im/trade/complaint').map((r) => r.data)).toEqual([{ id: 56, content: '医生回复太慢' }])
    expect(toasts()).toEqual(['请填写投诉内容', '投诉已提交'])

    // the detail underneath now shows the complaint, and no 投诉
    const shown = within(detail.container)
    expect(shown.getByText('我的投诉')).toBeTruthy()
    expect(shown.getByText('医生回复太慢')).toBeTruthy()
    expect(Array.from(detail.container.querySelectorAll('.inquiry-detail__actions button')).map((b) => b.textContent)).toEqual(['进入诊室'])
  })

  test('opened on its own it loads the inquiry; a refusal from the server keeps the page and the text', async () => {
    inquiries = [inquiryOf(57, 'finished')]
    testing.setRouter('/internet/complaint/index', { id: '57' })
    render(<Complaint />)
    await screen.findByText('投诉对象')
    expect(sent('/dld-hospital/im/trade/service/im/check').map((r) => r.data)).toEqual([{ id: 57 }])
    // complained about meanwhile (another phone): the server says so
    inquiries[0]!.complaint = { content: '态度不好', time: '2026-11-23T05:00:00.000Z' }
    fireEvent.change(screen.getByPlaceholderText('请描述您遇到的问题，我们会尽快核实处理'), { target: { value: '回复太慢' } })
    fireEvent.click(screen.getByText('提交投诉'))
    await waitFor(() => expect(toasts()).toEqual(['该问诊已投诉，请勿重复提交']))
    expect(calls.navigations).toEqual([])
    expect((screen.getByPlaceholderText('请描述您遇到的问题，我们会尽快核实处理') as HTMLTextAreaElement).value).toBe('回复太慢')
  })

  test('a consultation complained about already shows what was sent, with no form', async () => {
    inquiries = [inquiryOf(58, 'finished', { complaint: { content: '态度不好', time: '2026-11-23T05:00:00.000Z' } })]
    testing.setRouter('/internet/complaint/index', { id: '58' })
    render(<Complaint />)
    expect(await screen.findByText('态度不好')).toBeTruthy()
    expect(screen.getByText('我的投诉')).toBeTruthy()
    expect(screen.queryByText('提交投诉')).toBeNull()
    expect(document.querySelector('textarea')).toBeNull()
  })

  test('an unpaid consultation cannot be complained about', async () => {
    inquiries = [inquiryOf(59, 'unpaid')]
    testing.setRouter('/internet/complaint/index', { id: '59' })
    render(<Complaint />)
    expect(await screen.findByText('未支付的问诊无法投诉')).toBeTruthy()
    expect(screen.queryByText('提交投诉')).toBeNull()
  })
})

// ---------- 访问记录 ----------

describe('访问记录 /pages/accessLog/index', () => {
  const open = async () => {
    testing.setRouter('/pages/accessLog/index')
    render(<AccessLog />)
  }

  test('who at the hospital opened the records, newest first, with the time; a page at a time', async () => {
    accessRecords = Array.from({ length: 25 }, (_, i) => ({
      id: 100 - i,
      at: new Date(2026, 10, 24, 9, 59 - i).toISOString(),
      who: i === 0 ? '姚秀英医生' : '林晓雯（医生助理）',
      what: i === 0 ? '查看了病历' : '查看了问诊记录',
    }))
    await open()
    const items = await screen.findAllByRole('listitem')
    expect(items).toHaveLength(20)
    expect(items[0]!.textContent).toBe('姚秀英医生查看了病历2026-11-24 09:59')
    expect(items[1]!.textContent).toBe('林晓雯（医生助理）查看了问诊记录2026-11-24 09:58')
    fireEvent.click(screen.getByText('加载更多'))
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(25))
    expect(screen.getByText('没有更多了')).toBeTruthy()
    expect(sent('/dld-user/user/access-log').map((r) => r.data)).toEqual([
      { page: 1, size: 20 },
      { page: 2, size: 20 },
    ])
  })

  test('says so when nobody at the hospital has opened them', async () => {
    await open()
    expect(await screen.findByText('暂无医院工作人员访问您的信息')).toBeTruthy()
  })

  test('a failed first page offers a retry', async () => {
    failing.add('/dld-user/user/access-log')
    await open()
    expect(await screen.findByText('加载失败')).toBeTruthy()
  })

  test('the mine page opens it', async () => {
    testing.setRouter('/pages/sys/user/index')
    render(<Mine />)
    const entry = await waitFor(() => screen.getAllByRole('button').find((b) => b.textContent?.startsWith('访问记录'))!)
    fireEvent.click(entry)
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/pages/accessLog/index' }])
  })
})
