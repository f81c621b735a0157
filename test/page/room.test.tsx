import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import Taro, { calls, testing } from './doubles/taro'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import type { ChatDriver, ChatHandler } from '../../src/services/chat/driver'
import Room from '../../src/internet/tim'
import HistoryCases from '../../src/internet/historyCases'
import type { ChatEvent, ChatEvents, ChatMessage, ChatMessagePage } from '../../types/api/chat'
import type { Inquiry, InquiryStatus } from '../../types/api/inquiry'
import type { MedicalHistoryItem, PrescriptionRequestInput, ShareRecordInput } from '../../types/api/medical'
import { useRecordStore } from '../../src/stores/RecordStore'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const ME = '0_7'
const DOCTOR = 'd_9'
const INQUIRY = 31
const HOUR = 3600_000

// ---------- the chat service: a driver in memory ----------

/** The chat service as the room sees it: history in pages, sends answered with the stored copy, events on demand. */
class FakeDriver implements ChatDriver {
  history: ChatMessage[] = []
  pageSize = 20
  historyAsks: (string | undefined)[] = []
  sent: ChatMessage[] = []
  read: string[] = []
  failSends = false
  private stored = 100
  private handlers = new Map<ChatEvent, Set<(payload: never) => void>>()

  async login() {}
  async logout() {}
  async updateProfile() {}
  async getConversationList() {
    return []
  }
  async getMessageList(conversationID: string, cursor?: string): Promise<ChatMessagePage> {
    this.historyAsks.push(cursor)
    const all = this.history.filter((m) => m.conversationID === conversationID)
    const end = cursor === undefined ? all.length : all.findIndex((m) => m.id === cursor)
    const start = Math.max(0, end - this.pageSize)
    return { messages: all.slice(start, end), nextCursor: start > 0 ? all[start]!.id : null }
  }
  async sendMessage(message: ChatMessage) {
    this.sent.push(message)
    if (this.failSends) throw new Error('chat connection closed')
    const copy = { ...message, id: String(++this.stored), time: Date.now(), status: 'sendSuccess' as const }
    this.history.push(copy)
    return copy
  }
  async setMessageRead(conversationID: string) {
    this.read.push(conversationID)
  }
  on<E extends ChatEvent>(event: E, handler: ChatHandler<E>) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set())
    this.handlers.get(event)!.add(handler as (payload: never) => void)
  }
  off<E extends ChatEvent>(event: E, handler: ChatHandler<E>) {
    this.handlers.get(event)?.delete(handler as (payload: never) => void)
  }
  emit<E extends ChatEvent>(event: E, payload: ChatEvents[E]) {
    for (const handler of this.handlers.get(event) ?? []) (handler as ChatHandler<E>)(payload)
  }
}

let seq = 0
const fromDoctor = (payload: string, description = '', time = Date.now()): ChatMessage => ({
  id: `d${++seq}`,
  conversationID: `C2C${DOCTOR}`,
  from: DOCTOR,
  to: ME,
  type: 'text',
  payload,
  description,
  time,
  status: 'sendSuccess',
})

// ---------- the fake server ----------

const STATUS_TEXT: Record<InquiryStatus, string> = {
  unpaid: '待支付',
  waiting: '待接诊',
  inProgress: '问诊中',
  finished: '已结束',
  cancelled: '已取消',
  closed: '已关闭',
}

let inquiry: Inquiry
function setStatus(status: InquiryStatus, serviceEndsAt: string | null = new Date(Date.now() + 20 * HOUR).toISOString()) {
  inquiry = { ...inquiry, status, statusText: STATUS_TEXT[status], serviceEndsAt }
}

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data } })
const refused = (msg: string) => ({ statusCode: 200, data: { code: 400, msg, data: null } })

/** An earlier consultation of the same patient with a record: what /internet/historyCases lists. */
const EARLIER: MedicalHistoryItem = {
  inquiryId: 12,
  inquiryNo: 'I20251201000000000012',
  recordId: 5,
  doctorId: 9,
  doctorName: '李明',
  deptName: '心血管内科',
  hospitalName: '示范互联网医院',
  diagnosis: '原发性高血压',
  diseases: [],
  finishedAt: new Date(Date.now() - 30 * 24 * HOUR).toISOString(),
}
const RECORD_TEXT = '【历史病历】2025-12-01 示范互联网医院 心血管内科 李明医生\n诊断：原发性高血压\n处理意见：规律服药'

/** The chat message the server stores for the patient (the share, the 续方申请), as it answers it. */
const storedMessage = (id: string, payload: string): ChatMessage => ({
  id,
  conversationID: `C2C${DOCTOR}`,
  from: ME,
  to: DOCTOR,
  type: 'text',
  payload,
  description: '',
  time: Date.now(),
  status: 'sendSuccess',
})

/** The server's text of a 续方申请 (server/src/domain/medicalSend.ts). */
const renewalText = ({ medicines, note }: PrescriptionRequestInput) => ['【续方申请】', `药品：${medicines.join('、')}`, ...(note ? [`说明：${note}`] : [])].join('\n')

/** What the server refuses a 续方申请 or a share with, when it does; null: it stores them. */
let refusal: string | null = null
/** The chat service delivers the stored message before the HTTP answer arrives. */
let deliverFirst = false

function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = ''] = url.split('?')
    const query = (method === 'GET' ? data ?? {} : {}) as Record<string, string | number>
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: query.appId, provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 3, hospitalCode: '10412', hospitalName: '示范互联网医院', configDto: { isInternet: true, isPalm: false } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: query.imAccount, userSig: 's', expire: 1 })
    if (path === '/dld-hospital/im/patient/record/list') return ok([])
    if (path === '/dld-hospital/inquiry/order/detail') return Number(query.id) === inquiry.id ? ok(inquiry) : ok(null)
    if (path === '/dld-hospital/im/trade/service/im/user/close') {
      setStatus('finished')
      return ok(inquiry)
    }
    if (path === '/dld-hospital/im/trade/service/im/check') return ok(inquiry)
    if (path === '/dld-hospital/inquiry/medical/list') return ok(Number(query.patientId) === inquiry.patientId ? [EARLIER] : [])
    if (path === '/dld-hospital/im/medical/send/record' || path === '/dld-hospital/im/medical/send/pres') {
      if (refusal) return refused(refusal)
      const message = path.endsWith('/record') ? storedMessage('501', RECORD_TEXT) : storedMessage('502', renewalText(data as PrescriptionRequestInput))
      if (deliverFirst) driver.emit('messageReceived', [message])
      return ok(message)
    }
    return { statusCode: 404, data: '' }
  })
}

// ---------- helpers ----------

const PICTURE = '/dld-file/files/abcdefghijklmnopqrstuv.jpg'
/** What the upload call answers for a picture (spec §7 /dld-file/files-upload). */
const UPLOADED = { statusCode: 200, data: JSON.stringify({ code: 200, msg: 'success', data: { url: PICTURE, name: 'a.jpg', size: 1, mime: 'image/jpeg' } }) } as never

const detailAsks = () => calls.requests.filter((r) => r.url.split('?')[0] === '/dld-hospital/inquiry/order/detail').length
const toasts = () => calls.toasts.map((t) => t.title)
const banner = () => screen.getByRole('status', { name: '问诊状态' })
const bar = () => screen.getByLabelText('输入栏')
const sendButton = () => within(bar()).getByText('发送') as HTMLButtonElement
const bubbles = (side: 'mine' | 'theirs') => Array.from(document.querySelectorAll(`.room-msg--${side} .room-msg__bubble`)).map((b) => b.textContent)
const notes = () => screen.queryAllByRole('note').map((n) => n.textContent)

let driver: FakeDriver

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10412demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  driver = new FakeDriver()
  mockRoot.chat.attach(driver)
  inquiry = {
    id: INQUIRY,
    inquiryNo: 'I20260101000000000031',
    status: 'waiting',
    statusText: '待接诊',
    serviceType: 'text',
    serviceName: '图文问诊',
    kind: 'inquiry',
    description: '头疼三天',
    pictures: [],
    priceFen: 3000,
    patientId: 3,
    patientName: '张*',
    hospitalCode: '10412',
    hospitalName: '示范互联网医院',
    doctor: { id: 9, doctorName: '李明', title: '主任医师', avatar: '/static/doctors/9.svg', deptName: '心血管内科', imAccount: DOCTOR },
    paidAt: new Date().toISOString(),
    acceptedAt: null,
    serviceEndsAt: new Date(Date.now() + 48 * HOUR).toISOString(),
    finishedAt: null,
    cancellable: true,
    complaint: null,
    intake: null,
    evaluated: false,
    order: null,
    createdAt: new Date().toISOString(),
  }
  ;(Taro as unknown as { previewImage: unknown }).previewImage = jest.fn(async () => undefined)
  jest.spyOn(console, 'warn').mockImplementation(() => undefined)
  jest.spyOn(console, 'info').mockImplementation(() => undefined)
  refusal = null
  deliverFirst = false
  serve()
})
afterEach(() => {
  mockRoot.chat.dispose()
  jest.restoreAllMocks()
})

/** Opens the room as the consultation pages link to it, and waits for the order's banner. */
async function open(params: Record<string, string> = { toUserId: DOCTOR, type: 'inquiry', inquiryId: String(INQUIRY) }) {
  testing.setRouter('/internet/tim/index', params)
  render(<Room />)
  if (params.inquiryId) await screen.findByRole('status', { name: '问诊状态' })
  else await screen.findByLabelText('输入栏')
}

/** The chat service says it is ready (it was logged in at startup). */
async function connect() {
  await act(async () => {
    driver.emit('ready', undefined)
  })
  await waitFor(() => expect(screen.queryByText('正在连接消息服务…')).toBeNull())
}

async function type(text: string) {
  fireEvent.change(within(bar()).getByPlaceholderText('请输入您想咨询的问题'), { target: { value: text } })
}

describe('问诊室 /internet/tim/index: the order banner', () => {
  test('the doctor’s name heads the room; 待接诊 says the doctor will answer here, and the patient can write', async () => {
    await open()
    expect(document.querySelector('.nav-bar__title')!.textContent).toBe('李明')
    expect(within(banner()).getByText('待接诊')).toBeTruthy()
    expect(within(banner()).getByText('等待医生接诊，医生接诊后会在这里回复您')).toBeTruthy()
    expect(bar().getAttribute('aria-disabled')).toBe('false')
    expect(sendButton().disabled).toBe(false)
    expect(screen.queryByText('结束问诊')).toBeNull()
  })

  test('问诊中 shows the time left until the service ends, and 结束问诊', async () => {
    setStatus('inProgress', new Date(Date.now() + 5 * HOUR + 30 * 60_000 + 20_000).toISOString())
    await open()
    expect(within(banner()).getByText('问诊中')).toBeTruthy()
    expect(within(banner()).getByText('剩余5小时30分钟')).toBeTruthy()
    expect(screen.getByText('结束问诊')).toBeTruthy()
    expect(sendButton().disabled).toBe(false)
  })

  test.each([
    ['finished', '已结束', '本次问诊已结束'],
    ['closed', '已关闭', '本次问诊已关闭'],
    ['cancelled', '已取消', '本次问诊已取消'],
  ] as const)('%s shows so and disables the input bar', async (status, text, note) => {
    setStatus(status)
    await open()
    expect(within(banner()).getByText(text)).toBeTruthy()
    expect(within(banner()).getByText(note)).toBeTruthy()
    expect(bar().getAttribute('aria-disabled')).toBe('true')
    expect(sendButton().disabled).toBe(true)
    expect(within(bar()).getByPlaceholderText('本次问诊已结束，无法发送消息')).toBeTruthy()
    expect(screen.queryByText('结束问诊')).toBeNull()
    // rating and gifts belong to a consultation that was served to its end
    expect(!!screen.queryByText('评价医生')).toBe(status === 'finished')
    expect(!!screen.queryByText('送心意')).toBe(status === 'finished')
  })

  test('评价医生 and 送心意 lead to their pages', async () => {
    setStatus('finished')
    await open()
    fireEvent.click(screen.getByText('评价医生'))
    fireEvent.click(screen.getByText('送心意'))
    expect(toasts()).toEqual([])
    expect(calls.navigations).toEqual([
      { kind: 'navigateTo', url: `/internet/tim/evaluate/index?inquiryId=${INQUIRY}` },
      { kind: 'navigateTo', url: `/internet/tim/gift/index?doctorId=9&inquiryId=${INQUIRY}` },
    ])
  })

  test('a consultation the patient has rated shows 已评价 instead of 评价医生; 送心意 stays', async () => {
    setStatus('finished')
    inquiry = { ...inquiry, evaluated: true }
    await open()
    expect(screen.getByText('已评价')).toBeTruthy()
    expect(screen.queryByText('评价医生')).toBeNull()
    expect(screen.getByText('送心意')).toBeTruthy()
  })

  test('结束问诊 asks first, then ends the consultation: the banner and the bar follow', async () => {
    setStatus('inProgress')
    const modal = jest.spyOn(Taro, 'showModal')
    await open()
    fireEvent.click(screen.getByText('结束问诊'))
    await waitFor(() => expect(within(banner()).getByText('已结束')).toBeTruthy())
    expect(modal).toHaveBeenCalledTimes(1)
    expect(calls.requests.filter((r) => r.url.startsWith('/dld-hospital/im/trade/service/im/user/close')).map((r) => r.data)).toEqual([{ id: INQUIRY }])
    expect(sendButton().disabled).toBe(true)
    expect(screen.getByText('评价医生')).toBeTruthy()
  })

  test('cancelling the confirm leaves the consultation as it is', async () => {
    setStatus('inProgress')
    jest.spyOn(Taro, 'showModal').mockResolvedValueOnce({ confirm: false, cancel: true } as never)
    await open()
    fireEvent.click(screen.getByText('结束问诊'))
    await act(async () => undefined)
    expect(calls.requests.some((r) => r.url.startsWith('/dld-hospital/im/trade/service/im/user/close'))).toBe(false)
    expect(within(banner()).getByText('问诊中')).toBeTruthy()
  })
})

describe('问诊室: messages', () => {
  test('history shows once connected: the doctor’s on the left, the patient’s on the right', async () => {
    driver.history = [fromDoctor('您好，请描述一下症状'), { ...fromDoctor('头疼三天了'), from: ME, to: DOCTOR }]
    await open()
    expect(screen.getByText('正在连接消息服务…')).toBeTruthy()
    await connect()
    await screen.findByText('您好，请描述一下症状')
    expect(bubbles('theirs')).toEqual(['您好，请描述一下症状'])
    expect(bubbles('mine')).toEqual(['头疼三天了'])
    expect(driver.read).toEqual([`C2C${DOCTOR}`])
  })

  test('a doctor message appears without a reload, and is marked read', async () => {
    await open()
    await connect()
    const asked = [detailAsks(), driver.historyAsks.length]
    act(() => driver.emit('messageReceived', [fromDoctor('请问发热吗？')]))
    expect(await screen.findByText('请问发热吗？')).toBeTruthy()
    expect(bubbles('theirs')).toEqual(['请问发热吗？'])
    expect([detailAsks(), driver.historyAsks.length]).toEqual(asked)
    await waitFor(() => expect(driver.read).toHaveLength(2))
  })

  test('the patient’s message goes out from the input, on the right; the input empties', async () => {
    await open()
    await connect()
    await type('头疼三天了')
    fireEvent.click(sendButton())
    await waitFor(() => expect(driver.sent.map((m) => [m.to, m.type, m.payload])).toEqual([[DOCTOR, 'text', '头疼三天了']]))
    await waitFor(() => expect(screen.queryByRole('status', { name: '发送中' })).toBeNull())
    expect(bubbles('mine')).toEqual(['头疼三天了'])
    expect((within(bar()).getByPlaceholderText('请输入您想咨询的问题') as HTMLInputElement).value).toBe('')
  })

  test('spec §5: an empty message is refused with a toast', async () => {
    await open()
    await connect()
    await type('   ')
    fireEvent.click(sendButton())
    await waitFor(() => expect(toasts()).toEqual(['发送内容不能为空']))
    expect(driver.sent).toEqual([])
    expect(document.querySelectorAll('.room-msg')).toHaveLength(0)
  })

  test('spec §5: a room without a receiver refuses to send, with a toast', async () => {
    await open({ type: 'inquiry' })
    await connect()
    await type('在吗')
    fireEvent.click(sendButton())
    await waitFor(() => expect(toasts()).toEqual(['接收人不能为空']))
    expect(driver.sent).toEqual([])
  })

  test('a failed send shows 重发; resending succeeds', async () => {
    await open()
    await connect()
    driver.failSends = true
    await type('头疼三天了')
    fireEvent.click(sendButton())
    const resend = await screen.findByRole('button', { name: '重发' })
    expect(bubbles('mine')).toEqual(['头疼三天了'])

    driver.failSends = false
    fireEvent.click(resend)
    await waitFor(() => expect(screen.queryByRole('button', { name: '重发' })).toBeNull())
    expect(bubbles('mine')).toEqual(['头疼三天了'])
    // the same message both times: the service stores it once
    expect(driver.sent.map((m) => m.id)).toEqual([driver.sent[0]!.id, driver.sent[0]!.id])
  })

  test('before the chat service is ready a message waits with a spinner, and goes out once it is', async () => {
    await open()
    await type('在吗')
    fireEvent.click(sendButton())
    expect(await screen.findByRole('status', { name: '发送中' })).toBeTruthy()
    expect(driver.sent).toEqual([])
    await connect()
    await waitFor(() => expect(screen.queryByRole('status', { name: '发送中' })).toBeNull())
    expect(driver.sent.map((m) => m.payload)).toEqual(['在吗'])
    expect(screen.queryByRole('button', { name: '重发' })).toBeNull()
  })

  test('a picture is chosen, uploaded and sent; its thumbnail opens the preview', async () => {
    jest.spyOn(Taro, 'chooseImage').mockResolvedValue({ tempFilePaths: ['blob:pic-1'] } as never)
    const upload = jest
      .spyOn(Taro, 'uploadFile')
      .mockResolvedValue(UPLOADED)
    await open()
    await connect()
    fireEvent.click(screen.getByRole('button', { name: '发送图片' }))
    await waitFor(() => expect(driver.sent.map((m) => [m.type, m.payload])).toEqual([['image', PICTURE]]))
    expect((upload.mock.calls[0] as unknown[])[0]).toMatchObject({ filePath: 'blob:pic-1' })
    const thumb = await screen.findByRole('button', { name: '查看图片' })
    await waitFor(() => expect(thumb.closest('.room-msg')!.querySelector('.room-msg__sending')).toBeNull())
    expect(thumb.closest('.room-msg--mine')).toBeTruthy()
    fireEvent.click(thumb)
    expect((Taro as unknown as { previewImage: jest.Mock }).previewImage).toHaveBeenCalledWith({
      current: PICTURE,
      urls: [PICTURE],
    })
  })

  test('a picture whose upload failed shows 重发, which uploads it again', async () => {
    jest.spyOn(Taro, 'chooseImage').mockResolvedValue({ tempFilePaths: ['blob:pic-1'] } as never)
    const upload = jest
      .spyOn(Taro, 'uploadFile')
      .mockRejectedValueOnce(new Error('network'))
      .mockResolvedValueOnce(UPLOADED)
    await open()
    await connect()
    fireEvent.click(screen.getByRole('button', { name: '发送图片' }))
    fireEvent.click(await screen.findByRole('button', { name: '重发' }))
    await waitFor(() => expect(driver.sent.map((m) => m.payload)).toEqual([PICTURE]))
    expect(upload).toHaveBeenCalledTimes(2)
    await waitFor(() => expect(screen.queryByRole('button', { name: '重发' })).toBeNull())
  })

  test('查看更多消息 brings the older history above, until there is none', async () => {
    const start = Date.now() - HOUR
    driver.history = Array.from({ length: 25 }, (_, i) => fromDoctor(`第${i + 1}条`, '', start + i * 1000))
    await open()
    await connect()
    await screen.findByText('第25条')
    expect(screen.queryByText('第5条')).toBeNull()
    fireEvent.click(screen.getByText('查看更多消息'))
    await screen.findByText('第5条')
    expect(driver.historyAsks).toEqual([undefined, driver.history[5]!.id])
    expect(bubbles('theirs')).toEqual(driver.history.map((m) => m.payload))
    expect(screen.queryByText('查看更多消息')).toBeNull()
  })

  test('after a reconnect the history shows again, each message once', async () => {
    driver.history = [fromDoctor('您好')]
    await open()
    await connect()
    await screen.findByText('您好')
    act(() => driver.emit('kickedOut', { reason: 'network' }))
    await screen.findByText('正在连接消息服务…')
    driver.history.push(fromDoctor('断线时发的'))
    await connect()
    await screen.findByText('断线时发的')
    expect(bubbles('theirs')).toEqual(['您好', '断线时发的'])
    expect(driver.historyAsks).toEqual([undefined, undefined])
  })

  test('time lines: before the first message and after a pause of more than 5 minutes, in time-ago words', async () => {
    const now = Date.now()
    driver.history = [fromDoctor('早上好', '', now - 2 * HOUR - 60_000), fromDoctor('在吗', '', now - 2 * HOUR), fromDoctor('刚才的', '', now - 10 * 60_000)]
    await open()
    await connect()
    await screen.findByText('刚才的')
    expect(Array.from(document.querySelectorAll('.room__time')).map((t) => t.textContent)).toEqual(['2小时前', '10分钟前'])
  })
})

describe('问诊室: the doctor side’s turns (spec §4)', () => {
  test('start, return, doctorBusy and orderFinished show as centred notes', async () => {
    await open()
    await connect()
    act(() => driver.emit('messageReceived', ['start', 'doctorBusy', 'return', 'orderFinished'].map((d) => fromDoctor(d, d))))
    await waitFor(() => expect(notes()).toEqual(['医生已接诊', '医生正在忙，请稍候', '医生已退诊，费用将原路退回', '问诊已结束']))
    expect(bubbles('theirs')).toEqual([])
  })

  test('start reloads the order: 待接诊 becomes 问诊中', async () => {
    await open()
    await connect()
    const before = detailAsks()
    setStatus('inProgress')
    act(() => driver.emit('messageReceived', [fromDoctor('start', 'start')]))
    await waitFor(() => expect(within(banner()).getByText('问诊中')).toBeTruthy())
    expect(detailAsks()).toBe(before + 1)
    expect(screen.getByText('结束问诊')).toBeTruthy()
  })

  test('orderFinished arrives: the order reloads, the banner says so and the input is disabled', async () => {
    setStatus('inProgress')
    await open()
    await connect()
    const before = detailAsks()
    expect(sendButton().disabled).toBe(false)
    act(() => driver.emit('messageReceived', [fromDoctor('好的，注意休息')]))
    await screen.findByText('好的，注意休息')
    expect(detailAsks()).toBe(before)

    setStatus('finished')
    act(() => driver.emit('messageReceived', [fromDoctor('orderFinished', 'orderFinished')]))
    await waitFor(() => expect(within(banner()).getByText('已结束')).toBeTruthy())
    expect(detailAsks()).toBe(before + 1)
    expect(notes()).toEqual(['问诊已结束'])
    expect(bar().getAttribute('aria-disabled')).toBe('true')
    expect(sendButton().disabled).toBe(true)
    expect(screen.getByText('评价医生')).toBeTruthy()
    expect(screen.queryByText('结束问诊')).toBeNull()
  })
})

describe('问诊室: 发送病历 and 续方申请 while the consultation is open', () => {
  const tools = () => screen.queryByRole('toolbar', { name: '问诊工具' })
  const panel = () => screen.getByRole('dialog', { name: '续方申请' })
  const medicineInputs = () => within(panel()).getAllByPlaceholderText('药品名称，如：苯磺酸氨氯地平片') as HTMLInputElement[]
  const sentBodies = <T,>(path: string) => calls.requests.filter((r) => r.url.split('?')[0] === `/dld-hospital${path}`).map((r) => r.data as T)

  test.each(['waiting', 'inProgress'] as const)('%s: the tools show above the input bar', async (status) => {
    setStatus(status)
    await open()
    expect(within(tools()!).getByRole('button', { name: '发送病历' })).toBeTruthy()
    expect(within(tools()!).getByRole('button', { name: '续方申请' })).toBeTruthy()
  })

  test.each(['unpaid', 'finished', 'closed', 'cancelled'] as const)('%s: no tools', async (status) => {
    setStatus(status)
    await open()
    expect(tools()).toBeNull()
  })

  test('the tools go when the doctor finishes the consultation', async () => {
    setStatus('inProgress')
    await open()
    await connect()
    expect(tools()).toBeTruthy()
    setStatus('finished')
    act(() => driver.emit('messageReceived', [fromDoctor('orderFinished', 'orderFinished')]))
    await waitFor(() => expect(tools()).toBeNull())
  })

  test('续方申请 sends the listed medicines and the note; the panel closes and the request shows once', async () => {
    await open()
    await connect()
    fireEvent.click(screen.getByRole('button', { name: '续方申请' }))
    fireEvent.change(medicineInputs()[0]!, { target: { value: '苯磺酸氨氯地平片' } })
    fireEvent.click(within(panel()).getByText('+ 添加药品'))
    fireEvent.click(within(panel()).getByText('+ 添加药品'))
    fireEvent.change(medicineInputs()[1]!, { target: { value: '阿托伐他汀钙片' } })
    expect(within(panel()).getByText('3/10')).toBeTruthy()
    fireEvent.change(within(panel()).getByPlaceholderText('补充说明（选填），如用药后的情况'), { target: { value: '血压平稳' } })
    fireEvent.click(within(panel()).getByText('发送'))

    await waitFor(() => expect(screen.queryByRole('dialog', { name: '续方申请' })).toBeNull())
    // the blank third row is left out
    expect(sentBodies<PrescriptionRequestInput>('/im/medical/send/pres')).toEqual([
      { inquiryId: INQUIRY, medicines: ['苯磺酸氨氯地平片', '阿托伐他汀钙片'], note: '血压平稳' },
    ])
    const text = '【续方申请】\n药品：苯磺酸氨氯地平片、阿托伐他汀钙片\n说明：血压平稳'
    expect(bubbles('mine')).toEqual([text])
    // the chat service delivers the same stored message afterwards: still once
    act(() => driver.emit('messageReceived', [storedMessage('502', text)]))
    expect(bubbles('mine')).toEqual([text])
    expect(driver.sent).toEqual([])
    expect(toasts()).toEqual([])

    // opened again, the panel starts empty
    fireEvent.click(screen.getByRole('button', { name: '续方申请' }))
    expect(medicineInputs().map((i) => i.value)).toEqual([''])
  })

  test('续方申请 without a medicine name is not sent', async () => {
    await open()
    fireEvent.click(screen.getByRole('button', { name: '续方申请' }))
    fireEvent.change(medicineInputs()[0]!, { target: { value: '   ' } })
    fireEvent.click(within(panel()).getByText('发送'))
    expect(toasts()).toEqual(['请填写需要续方的药品'])
    expect(sentBodies('/im/medical/send/pres')).toEqual([])
    expect(panel()).toBeTruthy()
  })

  test('a 续方申请 the server refuses keeps the panel open as written, with the server’s text as a toast', async () => {
    await open()
    await connect()
    refusal = '问诊未在进行中，无法发送续方申请'
    fireEvent.click(screen.getByRole('button', { name: '续方申请' }))
    fireEvent.change(medicineInputs()[0]!, { target: { value: '苯磺酸氨氯地平片' } })
    fireEvent.click(within(panel()).getByText('发送'))
    await waitFor(() => expect(toasts()).toEqual(['问诊未在进行中，无法发送续方申请']))
    expect(sentBodies('/im/medical/send/pres')).toHaveLength(1)
    expect(medicineInputs().map((i) => i.value)).toEqual(['苯磺酸氨氯地平片'])
    expect(bubbles('mine')).toEqual([])

    // 取消 closes it
    fireEvent.click(within(panel()).getByText('取消'))
    expect(screen.queryByRole('dialog', { name: '续方申请' })).toBeNull()
  })

  test('发送病历 opens the patient’s history cases; the case chosen there is shared once and the choice cleared', async () => {
    // a case chosen earlier for another page is not sent
    useRecordStore.of(mockRoot).chooseCase(EARLIER, inquiry.patientId)
    await open()
    await connect()
    fireEvent.click(screen.getByRole('button', { name: '发送病历' }))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: `/internet/historyCases/index?patientId=${inquiry.patientId}` }])
    expect(useRecordStore.of(mockRoot).chosenCase).toBeNull()
    expect(sentBodies('/im/medical/send/record')).toEqual([])

    // the history cases page opens over the room; the chat service delivers the stored message before the answer
    deliverFirst = true
    testing.setRouter('/internet/historyCases/index', { patientId: String(inquiry.patientId) })
    const cases = render(<HistoryCases />)
    fireEvent.click(await within(cases.container).findByText('选择'))
    cases.unmount()

    await waitFor(() => expect(sentBodies<ShareRecordInput>('/im/medical/send/record')).toEqual([{ inquiryId: INQUIRY, imOrderNo: EARLIER.inquiryNo }]))
    await waitFor(() => expect(bubbles('mine')).toEqual([RECORD_TEXT]))
    expect(useRecordStore.of(mockRoot).chosenCase).toBeNull()
    await act(async () => undefined)
    expect(bubbles('mine')).toEqual([RECORD_TEXT])
    expect(toasts()).toEqual([])
  })

  test('a share the server refuses shows its text as a toast, and nothing in the room', async () => {
    await open()
    await connect()
    refusal = '请选择以往的病历'
    fireEvent.click(screen.getByRole('button', { name: '发送病历' }))
    act(() => useRecordStore.of(mockRoot).chooseCase(EARLIER, inquiry.patientId))
    await waitFor(() => expect(toasts()).toEqual(['请选择以往的病历']))
    expect(sentBodies('/im/medical/send/record')).toHaveLength(1)
    expect(bubbles('mine')).toEqual([])
    expect(useRecordStore.of(mockRoot).chosenCase).toBeNull()
  })

  test('a case chosen for another patient is not shared', async () => {
    await open()
    fireEvent.click(screen.getByRole('button', { name: '发送病历' }))
    act(() => useRecordStore.of(mockRoot).chooseCase(EARLIER, inquiry.patientId + 1))
    await act(async () => undefined)
    expect(sentBodies('/im/medical/send/record')).toEqual([])
    expect(useRecordStore.of(mockRoot).chosenCase).not.toBeNull()
  })
})
