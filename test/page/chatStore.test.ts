import Taro from './doubles/taro'
import { uploadFile } from '../../src/services/auth'
import { listConsultations } from '../../src/services/hospital'
import { getUnreadCount, getUserSig } from '../../src/services/im'
import { finishInquiry, getInquiry } from '../../src/services/inquiry'
import type { ChatDriver, ChatHandler } from '../../src/services/chat/driver'
import { ORDER_DESCRIPTION } from '../../src/utils/chatRules'
import { ChatStore } from '../../src/stores/ChatStore'
import { READY_WAIT_MS } from '../../src/stores/ChatConnection'
import { CHAT_MSG } from '../../src/utils/chatRules'
import type { ConsultationItem } from '../../types/api/hospital'
import { unpackNickname } from '../../src/utils/nickname'
import type { ChatConversation, ChatEvent, ChatEvents, ChatMessage, ChatMessagePage } from '../../types/api/chat'
import type { Inquiry, InquiryStatus } from '../../types/api/inquiry'

jest.mock('../../src/services/auth', () => ({ uploadFile: jest.fn() }))
jest.mock('../../src/services/hospital', () => ({ listConsultations: jest.fn() }))
jest.mock('../../src/services/im', () => ({ getUnreadCount: jest.fn(), getUserSig: jest.fn() }))
jest.mock('../../src/services/inquiry', () => ({ getInquiry: jest.fn(), finishInquiry: jest.fn(), checkInquiry: jest.fn() }))

const DOCTOR = '1_9'

/** An IM service in memory: it records what the store asks and emits what the test says. */
class FakeDriver implements ChatDriver {
  logins: string[] = []
  failLogins = false
  failSends = false
  loggedOut = false
  profiles: { nick: string; avatar: string }[] = []
  conversations: ChatConversation[] = []
  conversationLoads = 0
  history: ChatMessage[] = []
  /** how many messages one history page holds (the whole conversation unless a test says otherwise) */
  pageSize = Infinity
  historyAsks: (string | undefined)[] = []
  read: string[] = []
  sent: ChatMessage[] = []
  private handlers = new Map<ChatEvent, Set<(payload: never) => void>>()

  async login(_userID: string, userSig: string) {
    this.logins.push(userSig)
    if (this.failLogins) throw new Error('login refused')
  }
  async logout() {
    this.loggedOut = true
  }
  async updateProfile(profile: { nick: string; avatar: string }) {
    this.profiles.push(profile)
  }
  async getConversationList() {
    this.conversationLoads += 1
    return this.conversations
  }
  /** Pages as the service does: oldest first, `cursor` the id of the oldest message of the page before. */
  async getMessageList(conversationID: string, cursor?: string): Promise<ChatMessagePage> {
    this.historyAsks.push(cursor)
    const all = this.history.filter((m) => m.conversationID === conversationID)
    const end = cursor === undefined ? all.length : all.findIndex((m) => m.id === cursor)
    const start = Math.max(0, end - this.pageSize)
    return { messages: all.slice(start, end), nextCursor: start > 0 ? all[start]!.id : null }
  }
  async sendMessage(message: ChatMessage) {
    this.sent.push(message)
    if (this.failSends) throw new Error('network down')
    return { ...message, id: `server-${message.id}`, status: 'sendSuccess' as const }
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
  get listeners() {
    return [...this.handlers.values()].reduce((n, s) => n + s.size, 0)
  }
}

const consultation = (orderNo: string, unreadCount: number, conversationID?: string): ConsultationItem => ({
  id: Number(orderNo.slice(1)),
  orderNo,
  doctorName: '王医生',
  doctorAvatar: '',
  deptName: '内科',
  status: '问诊中',
  lastMessage: '',
  unreadCount,
  updatedAt: '2026-01-01T00:00:00Z',
  hospitalCode: '10392',
  hospitalName: '示范医院',
  conversationID,
})

const conversation = (peer: string, unreadCount: number): ChatConversation => ({
  conversationID: `C2C${peer}`,
  peer,
  unreadCount,
  lastMessage: null,
})

let seq = 0
const incoming = (payload: string, description = '', from = DOCTOR, to = '0_5'): ChatMessage => ({
  id: `in-${++seq}`,
  conversationID: `C2C${from === '0_5' ? to : from}`,
  from,
  to,
  type: 'text',
  payload,
  description,
  time: 1,
  status: 'sendSuccess',
})

/** Lets every pending promise chain run (real timers only). */
const settle = () => new Promise((resolve) => jest.requireActual<typeof import('timers')>('timers').setImmediate(resolve))

let driver: FakeDriver
let store: ChatStore

beforeEach(() => {
  let signatures = 0
  jest.mocked(getUserSig).mockReset().mockImplementation(async (imAccount) => ({
    driver: 'local',
    sdkAppId: 0,
    imAccount,
    userSig: `sig-${++signatures}`,
    expire: 0,
  }))
  jest.mocked(listConsultations).mockReset().mockResolvedValue([consultation('C1', 0, `C2C${DOCTOR}`), consultation('C2', 4)])
  jest.mocked(getUnreadCount).mockReset().mockResolvedValue({ unreadCount: 9 })
  jest.spyOn(console, 'warn').mockImplementation(() => undefined)
  jest.spyOn(console, 'info').mockImplementation(() => undefined)
  driver = new FakeDriver()
  store = new ChatStore(driver)
})

afterEach(() => {
  store.dispose()
  jest.restoreAllMocks()
  jest.useRealTimers()
})

/** Signed in and ready, as after startup. */
async function readyStore() {
  await store.requestSignature(5, { nick: '张三', avatar: 'https://img/a.png' })
  driver.emit('ready', undefined)
  await settle()
}

describe('sign-in (spec §2)', () => {
  test('the signature of IM account 0_ + user id logs the driver in', async () => {
    await store.requestSignature(5)
    expect(getUserSig).toHaveBeenCalledWith('0_5')
    expect(store.userID).toBe('0_5')
    expect(driver.logins).toEqual(['sig-1'])
  })

  test('a driver attached after startup logs in with the signature already fetched', async () => {
    const late = new ChatStore()
    await late.requestSignature(5)
    const lateDriver = new FakeDriver()
    late.attach(lateDriver)
    await settle()
    expect(lateDriver.logins).toEqual(['sig-1'])
    late.dispose()
    expect(lateDriver.listeners).toBe(0)
  })

  test('once ready, the profile gets the packed nickname and the avatar', async () => {
    await readyStore()
    expect(driver.profiles).toHaveLength(1)
    expect(driver.profiles[0]!.avatar).toBe('https://img/a.png')
    expect(unpackNickname(driver.profiles[0]!.nick)).toEqual({ nick: '张三', sex: '', age: '', orderType: '' })
  })
})

describe('chat session (spec §4)', () => {
  test('ready loads the conversation list with the IM unread counts merged in', async () => {
    driver.conversations = [conversation(DOCTOR, 7)]
    await store.requestSignature(5)
    expect(store.conversations.list).toEqual([])
    driver.emit('ready', undefined)
    await settle()
    expect(store.ready).toBe(true)
    expect(store.conversations.list.map((c) => [c.orderNo, c.unreadCount])).toEqual([
      ['C1', 7],
      ['C2', 4], // no IM conversation: the server's count stands
    ])
    expect(store.conversations.unreadTotal).toBe(11)
    // with a driver the counts are the IM service's: the server's total is never asked
    await store.conversations.refreshUnread()
    expect(getUnreadCount).not.toHaveBeenCalled()
  })

  test('kicked out or an error logs in again with a fresh signature', async () => {
    await readyStore()
    driver.emit('kickedOut', { reason: 'another device' })
    await settle()
    expect(driver.logins).toEqual(['sig-1', 'sig-2'])
    expect(store.signature?.userSig).toBe('sig-2')
    expect(store.ready).toBe(false)

    driver.emit('ready', undefined)
    driver.emit('error', { code: 1, message: 'socket closed' })
    await settle()
    expect(driver.logins).toEqual(['sig-1', 'sig-2', 'sig-3'])
  })

  test('a kick and an error together give one re-login', async () => {
    await readyStore()
    driver.emit('kickedOut', { reason: 'another device' })
    driver.emit('error', { code: 1, message: 'socket closed' })
    await settle()
    expect(driver.logins).toEqual(['sig-1', 'sig-2'])
  })

  test('re-login gives up after the 5th failed attempt, and ready allows another 5', async () => {
    await readyStore()
    driver.failLogins = true
    driver.emit('kickedOut', { reason: 'another device' })
    await settle()
    expect(driver.logins).toEqual(['sig-1', 'sig-2', 'sig-3', 'sig-4', 'sig-5', 'sig-6'])

    driver.emit('error', { code: 1, message: 'still down' })
    await settle()
    expect(driver.logins).toHaveLength(6)
    expect(getUserSig).toHaveBeenCalledTimes(6)

    driver.failLogins = false
    driver.emit('ready', undefined)
    driver.emit('kickedOut', { reason: 'another device' })
    await settle()
    expect(driver.logins).toHaveLength(7)
    expect(store.signature?.userSig).toBe('sig-7')
  })

  test('a failed start is retried the same way (spec §8)', async () => {
    driver.failLogins = true
    await store.requestSignature(5)
    await settle()
    expect(driver.logins).toHaveLength(1 + 5)
  })

  test('network states are only logged: no new login; the store knows the connection is down until it is up', async () => {
    await readyStore()
    driver.emit('networkStateChange', { state: 'disconnected' })
    await settle()
    expect(console.info).toHaveBeenCalledWith('chat network', 'disconnected')
    expect(store.ready).toBe(true)
    expect(store.online).toBe(false)
    expect(driver.logins).toEqual(['sig-1'])
    driver.emit('networkStateChange', { state: 'connected' })
    expect(store.online).toBe(true)
  })

  test('a message sent while the connection is down waits for it, and goes out when it is back', async () => {
    await readyStore()
    await store.openChat(DOCTOR)
    driver.emit('networkStateChange', { state: 'disconnected' })
    const sending = store.send('断网时发的')
    await settle()
    expect(store.messageList.map((m) => m.status)).toEqual(['created'])
    expect(driver.sent).toEqual([])
    driver.emit('networkStateChange', { state: 'connecting' })
    await settle()
    expect(driver.sent).toEqual([])
    driver.emit('networkStateChange', { state: 'connected' })
    await sending
    expect(store.messageList.map((m) => [m.payload, m.status])).toEqual([['断网时发的', 'sendSuccess']])
  })

  test('opening a chat loads its history and marks it read', async () => {
    driver.history = [incoming('您好'), incoming('别的医生', '', '1_8')]
    await readyStore()
    await store.openChat(DOCTOR)
    expect(store.messageList.map((m) => m.payload)).toEqual(['您好'])
    expect(driver.read).toEqual([`C2C${DOCTOR}`])
  })

  test('a chat opened before ready gets its history once ready', async () => {
    driver.history = [incoming('您好')]
    await store.requestSignature(5)
    await store.openChat(DOCTOR)
    expect(store.messageList).toEqual([])
    driver.emit('ready', undefined)
    await settle()
    expect(store.messageList.map((m) => m.payload)).toEqual(['您好'])
  })

  test('messages of the open chat are appended; the four order descriptions reload the order, nothing else does', async () => {
    await readyStore()
    jest.mocked(getInquiry).mockReset().mockResolvedValue(inquiry('inProgress'))
    await store.openChat(DOCTOR, INQUIRY)
    const reloads = () => jest.mocked(getInquiry).mock.calls.length - 1 // the first read is the room's opening

    driver.emit('messageReceived', [incoming('请描述症状'), incoming('处方已开具', 'prescription')])
    expect(reloads()).toBe(0)

    const descriptions = [ORDER_DESCRIPTION.start, ORDER_DESCRIPTION.return, ORDER_DESCRIPTION.doctorBusy, ORDER_DESCRIPTION.orderFinished]
    expect(descriptions).toEqual(['start', 'return', 'doctorBusy', 'orderFinished'])
    descriptions.forEach((d, i) => {
      driver.emit('messageReceived', [incoming(d, d)])
      expect(reloads()).toBe(i + 1)
    })

    driver.emit('messageReceived', [incoming('另一位医生开始接诊', 'start', '1_8')])
    expect(reloads()).toBe(4)
    // our own messages sent from another device: this chat's are kept, another chat's are not
    driver.emit('messageReceived', [incoming('手机上发的', '', '0_5', DOCTOR), incoming('发给别的医生', '', '0_5', '1_8')])
    expect(store.messageList.map((m) => m.payload)).toEqual(['请描述症状', '处方已开具', 'start', 'return', 'doctorBusy', 'orderFinished', '手机上发的'])
  })

  test('list updates within a second give one refresh, 1 s after the first, with the latest unread counts', async () => {
    jest.useFakeTimers()
    await store.requestSignature(5)
    driver.emit('ready', undefined)
    await jest.advanceTimersByTimeAsync(0)
    expect(listConsultations).toHaveBeenCalledTimes(1)

    driver.conversations = [conversation(DOCTOR, 1)]
    driver.emit('conversationListUpdated', driver.conversations)
    await jest.advanceTimersByTimeAsync(400)
    driver.conversations = [conversation(DOCTOR, 2)]
    driver.emit('conversationListUpdated', driver.conversations)
    await jest.advanceTimersByTimeAsync(400)
    driver.conversations = [conversation(DOCTOR, 3)]
    driver.emit('conversationListUpdated', driver.conversations)
    await jest.advanceTimersByTimeAsync(199)
    expect(listConsultations).toHaveBeenCalledTimes(1)
    expect(store.conversations.list[0]!.unreadCount).toBe(0)

    await jest.advanceTimersByTimeAsync(1)
    expect(listConsultations).toHaveBeenCalledTimes(2)
    expect(driver.conversationLoads).toBe(2)
    expect(store.conversations.list.map((c) => c.unreadCount)).toEqual([3, 4])

    await jest.advanceTimersByTimeAsync(5000)
    expect(listConsultations).toHaveBeenCalledTimes(2)
  })

  test('dispose drops a pending refresh and the driver', async () => {
    jest.useFakeTimers()
    await store.requestSignature(5)
    driver.emit('conversationListUpdated', [])
    expect(jest.getTimerCount()).toBe(1)
    store.dispose()
    expect(jest.getTimerCount()).toBe(0)
    expect(driver.listeners).toBe(0)
    await jest.advanceTimersByTimeAsync(2000)
    expect(listConsultations).not.toHaveBeenCalled()
  })
})

describe('send (spec §4, §5)', () => {
  test('receiver required, content non-empty', async () => {
    await readyStore()
    expect(await store.send('您好')).toBe('接收人不能为空')
    await store.openChat(DOCTOR)
    expect(await store.send('')).toBe('发送内容不能为空')
    expect(await store.send('  \n')).toBe('发送内容不能为空')
    expect(store.messageList).toEqual([])
  })

  test('created, then sendSuccess with the service’s copy', async () => {
    await readyStore()
    await store.openChat(DOCTOR)
    const sending = store.send('头疼三天了')
    expect(store.messageList.map((m) => [m.payload, m.status, m.from, m.to])).toEqual([['头疼三天了', 'created', '0_5', DOCTOR]])
    expect(await sending).toBeNull()
    const [sent] = store.messageList
    expect([sent!.id.startsWith('server-'), sent!.status]).toEqual([true, 'sendSuccess'])
    // the id the service stores the message under once: long and random, never reused by a later session
    expect(driver.sent[0]!.id).toMatch(/^[A-Za-z0-9_-]{16,64}$/)
  })

  test('created, then sendFail; resend goes through created to sendSuccess', async () => {
    await readyStore()
    await store.openChat(DOCTOR)
    driver.failSends = true
    await store.send('头疼三天了')
    const failed = store.messageList[0]!
    expect(failed.status).toBe('sendFail')

    driver.failSends = false
    const resending = store.resend(failed.id)
    expect(store.messageList[0]!.status).toBe('created')
    await resending
    expect(store.messageList.map((m) => [m.payload, m.status])).toEqual([['头疼三天了', 'sendSuccess']])
  })

  test('a Tencent IM signature before any chat page has brought its driver: the server’s count; a message fails instead of hanging', async () => {
    jest.mocked(getUserSig).mockResolvedValueOnce({ driver: 'tim', sdkAppId: 1400000000, imAccount: '0_5', userSig: 'tls', expire: 0 })
    const alone = new ChatStore()
    await alone.requestSignature(5)
    expect(alone.conversations.unreadTotal).toBe(9)
    await alone.conversations.load()
    expect(alone.conversations.unreadTotal).toBe(9) // the server's total, not the listed consultations' 4
    await alone.openChat(DOCTOR)
    await alone.send('在吗')
    expect(alone.messageList.map((m) => m.status)).toEqual(['sendFail'])
    alone.reset()
    expect(alone.conversations.unreadTotal).toBe(0)
    alone.dispose()
  })

  test('a signature of our own chat service attaches its driver, which connects with it', async () => {
    const urls: string[] = []
    const connect = jest.spyOn(Taro, 'connectSocket').mockImplementation(async ({ url }: { url: string }) => {
      urls.push(url)
      return { onOpen() {}, onMessage() {}, onClose() {}, onError() {}, send() {}, close() {} }
    })
    const own = new ChatStore()
    await own.requestSignature(5)
    await settle()
    expect(urls).toEqual(['ws://localhost/dld-im/ws?sig=sig-1'])
    own.dispose()
    connect.mockRestore()
  })
})

test('reset signs out of chat and forgets the account', async () => {
  await readyStore()
  store.reset()
  await settle()
  expect(driver.loggedOut).toBe(true)
  expect(store.userID).toBe('')
  expect(store.conversations.list).toEqual([])
})

// ---------- the consultation room ----------

const INQUIRY = 31
const inquiry = (status: InquiryStatus, over: Partial<Inquiry> = {}): Inquiry => ({
  id: INQUIRY,
  inquiryNo: 'I20260101000000000001',
  status,
  statusText: { unpaid: '待支付', waiting: '待接诊', inProgress: '问诊中', finished: '已结束', cancelled: '已取消', closed: '已关闭' }[status],
  serviceType: 'text',
  serviceName: '图文问诊',
  kind: 'inquiry',
  description: '头疼三天',
  pictures: [],
  priceFen: 3000,
  patientId: 3,
  patientName: '张*',
  hospitalCode: '10392',
  hospitalName: '示范医院',
  doctor: { id: 9, doctorName: '王医生', title: '主任医师', avatar: '', deptName: '内科', imAccount: DOCTOR },
  paidAt: '2026-01-01T00:00:00Z',
  acceptedAt: null,
  serviceEndsAt: '2026-01-03T00:00:00Z',
  finishedAt: null,
  cancellable: status === 'waiting',
  complaint: null,
  intake: null,
  evaluated: false,
  order: null,
  createdAt: '2026-01-01T00:00:00Z',
  ...over,
})

/** A message of the conversation as the service stored it: ids and times grow together. */
const stored = (n: number, from = DOCTOR): ChatMessage => ({
  id: String(n),
  conversationID: `C2C${DOCTOR}`,
  from,
  to: from === DOCTOR ? '0_5' : DOCTOR,
  type: 'text',
  payload: `第${n}条`,
  description: '',
  time: 1000 * n,
  status: 'sendSuccess',
})
const payloads = () => store.messageList.map((m) => m.payload)

/** A promise the test settles when it wants to. */
function deferred<T>() {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const UPLOADED = { url: '/dld-file/files/abcdefghijklmnopqrstuv.jpg', name: 'a.jpg', size: 10, mime: 'image/jpeg' }

describe('pictures (spec §4 created → sendSuccess / sendFail)', () => {
  beforeEach(() => jest.mocked(uploadFile).mockReset())

  test('shown at once from the chosen file, uploaded, then sent as the uploaded url', async () => {
    await readyStore()
    await store.openChat(DOCTOR)
    const upload = deferred<typeof UPLOADED>()
    jest.mocked(uploadFile).mockReturnValueOnce(upload.promise)
    const sending = store.sendImage('blob:local-1')
    expect(store.messageList.map((m) => [m.type, m.payload, m.status])).toEqual([['image', 'blob:local-1', 'created']])
    expect(uploadFile).toHaveBeenCalledWith('blob:local-1')
    expect(driver.sent).toEqual([])

    upload.resolve(UPLOADED)
    expect(await sending).toBeNull()
    expect(driver.sent.map((m) => [m.type, m.payload])).toEqual([['image', UPLOADED.url]])
    expect(store.messageList.map((m) => [m.type, m.payload, m.status])).toEqual([['image', UPLOADED.url, 'sendSuccess']])
  })

  test('a failed upload is a failed message; resend uploads the same file again, then sends it', async () => {
    await readyStore()
    await store.openChat(DOCTOR)
    jest.mocked(uploadFile).mockRejectedValueOnce(new Error('未连接到服务器')).mockResolvedValueOnce(UPLOADED)
    await store.sendImage('blob:local-1')
    expect(store.messageList.map((m) => [m.payload, m.status])).toEqual([['blob:local-1', 'sendFail']])
    expect(driver.sent).toEqual([])

    await store.resend(store.messageList[0]!.id)
    expect(jest.mocked(uploadFile).mock.calls).toEqual([['blob:local-1'], ['blob:local-1']])
    expect(store.messageList.map((m) => [m.payload, m.status])).toEqual([[UPLOADED.url, 'sendSuccess']])
  })

  test('uploaded but not delivered: resend sends the uploaded url without uploading again', async () => {
    await readyStore()
    await store.openChat(DOCTOR)
    jest.mocked(uploadFile).mockResolvedValue(UPLOADED)
    driver.failSends = true
    await store.sendImage('blob:local-1')
    expect(store.messageList.map((m) => [m.payload, m.status])).toEqual([[UPLOADED.url, 'sendFail']])
    driver.failSends = false
    await store.resend(store.messageList[0]!.id)
    expect(uploadFile).toHaveBeenCalledTimes(1)
    expect(driver.sent.map((m) => m.payload)).toEqual([UPLOADED.url, UPLOADED.url])
    // the service stores it once: the same client id both times
    expect(driver.sent[0]!.id).toBe(driver.sent[1]!.id)
    expect(store.messageList.map((m) => m.status)).toEqual(['sendSuccess'])
  })

  test('receiver required, as for text', async () => {
    await readyStore()
    expect(await store.sendImage('blob:local-1')).toBe('接收人不能为空')
    expect(uploadFile).not.toHaveBeenCalled()
  })
})

describe('the room before the driver is ready', () => {
  test('a message waits as created and goes out once the driver is ready', async () => {
    await store.requestSignature(5)
    await store.openChat(DOCTOR)
    const sending = store.send('在吗')
    await settle()
    expect(store.messageList.map((m) => m.status)).toEqual(['created'])
    expect(driver.sent).toEqual([])
    driver.emit('ready', undefined)
    await sending
    expect(driver.sent.map((m) => m.payload)).toEqual(['在吗'])
    expect(store.messageList.map((m) => [m.payload, m.status])).toEqual([['在吗', 'sendSuccess']])
  })

  test('not ready in time: the message fails without reaching the driver, and resend sends it once ready', async () => {
    jest.useFakeTimers()
    await store.requestSignature(5)
    await store.openChat(DOCTOR)
    const sending = store.send('在吗')
    await jest.advanceTimersByTimeAsync(READY_WAIT_MS - 1)
    expect(store.messageList.map((m) => m.status)).toEqual(['created'])
    await jest.advanceTimersByTimeAsync(1)
    await sending
    expect(store.messageList.map((m) => m.status)).toEqual(['sendFail'])
    expect(driver.sent).toEqual([])

    driver.emit('ready', undefined)
    await store.resend(store.messageList[0]!.id)
    expect(store.messageList.map((m) => [m.payload, m.status])).toEqual([['在吗', 'sendSuccess']])
  })

  test('a message still waiting when the room is left is not sent', async () => {
    await store.requestSignature(5)
    await store.openChat(DOCTOR)
    const sending = store.send('在吗')
    store.closeChat()
    driver.emit('ready', undefined)
    await sending
    expect(driver.sent).toEqual([])
  })
})

describe('history paging', () => {
  test('loadOlder asks with the driver’s cursor for the page before, until nothing is left', async () => {
    driver.history = [1, 2, 3, 4, 5].map((n) => stored(n))
    driver.pageSize = 2
    await readyStore()
    await store.openChat(DOCTOR)
    expect(payloads()).toEqual(['第4条', '第5条'])
    expect(store.hasMore).toBe(true)

    await store.loadOlder()
    expect(driver.historyAsks).toEqual([undefined, '4'])
    expect(payloads()).toEqual(['第2条', '第3条', '第4条', '第5条'])
    expect(store.hasMore).toBe(true)

    await store.loadOlder()
    expect(driver.historyAsks).toEqual([undefined, '4', '2'])
    expect(payloads()).toEqual(['第1条', '第2条', '第3条', '第4条', '第5条'])
    expect(store.hasMore).toBe(false)
    await store.loadOlder()
    expect(driver.historyAsks).toHaveLength(3)
  })

  test('two pulls at once ask once', async () => {
    driver.history = [1, 2, 3, 4, 5].map((n) => stored(n))
    driver.pageSize = 2
    await readyStore()
    await store.openChat(DOCTOR)
    await Promise.all([store.loadOlder(), store.loadOlder()])
    expect(driver.historyAsks).toEqual([undefined, '4'])
    expect(payloads()).toEqual(['第2条', '第3条', '第4条', '第5条'])
  })

  test('a conversation that fits one page has nothing older', async () => {
    driver.history = [stored(1)]
    await readyStore()
    await store.openChat(DOCTOR)
    expect(store.hasMore).toBe(false)
  })

  test('after a reconnect the history shows again: older pages kept, nothing twice, a failed send kept', async () => {
    driver.history = [1, 2, 3, 4, 5].map((n) => stored(n))
    driver.pageSize = 2
    await readyStore()
    await store.openChat(DOCTOR)
    await store.loadOlder()
    driver.failSends = true
    await store.send('没发出去')
    // while the connection was down the doctor wrote once more
    driver.history.push(stored(6))
    driver.emit('kickedOut', { reason: 'network' })
    await settle()
    driver.emit('ready', undefined)
    await settle()
    // in time order: the failed send (this phone's clock, now) after what the service stored earlier
    expect(payloads()).toEqual(['第2条', '第3条', '第4条', '第5条', '第6条', '没发出去'])
    expect(store.messageList.find((m) => m.payload === '没发出去')!.status).toBe('sendFail')
    expect(store.hasMore).toBe(true)
    await store.loadOlder()
    expect(driver.historyAsks.at(-1)).toBe('2')
    expect(payloads()).toEqual(['第1条', '第2条', '第3条', '第4条', '第5条', '第6条', '没发出去'])
  })

  test('a reconnect after more was written than one page: the newest page stands and paging goes on from it', async () => {
    driver.history = [1, 2, 3, 4].map((n) => stored(n))
    driver.pageSize = 2
    await readyStore()
    await store.openChat(DOCTOR)
    expect(payloads()).toEqual(['第3条', '第4条'])
    driver.history.push(stored(5), stored(6), stored(7))
    driver.emit('error', { code: 1, message: 'socket closed' })
    await settle()
    driver.emit('ready', undefined)
    await settle()
    expect(payloads()).toEqual(['第6条', '第7条'])
    await store.loadOlder()
    expect(payloads()).toEqual(['第4条', '第5条', '第6条', '第7条'])
  })
})

describe('read marks', () => {
  test('what the doctor writes while the room is open is marked read; our own messages and other chats are not', async () => {
    await readyStore()
    await store.openChat(DOCTOR)
    expect(driver.read).toEqual([`C2C${DOCTOR}`])

    driver.emit('messageReceived', [incoming('请描述症状')])
    await settle()
    expect(driver.read).toEqual([`C2C${DOCTOR}`, `C2C${DOCTOR}`])

    driver.emit('messageReceived', [incoming('手机上发的', '', '0_5', DOCTOR), incoming('别的医生', '', '1_8')])
    await settle()
    expect(driver.read).toHaveLength(2)
  })

  test('the consultation list drops the unread count of the open chat at once', async () => {
    driver.conversations = [conversation(DOCTOR, 3)]
    await readyStore()
    expect(store.conversations.list[0]!.unreadCount).toBe(3)
    await store.openChat(DOCTOR)
    expect(store.conversations.list.map((c) => c.unreadCount)).toEqual([0, 4])
  })

  test('after the room is closed, messages are neither shown nor marked read', async () => {
    await readyStore()
    await store.openChat(DOCTOR)
    store.closeChat()
    driver.emit('messageReceived', [incoming('您好')])
    await settle()
    expect(store.messageList).toEqual([])
    expect(driver.read).toEqual([`C2C${DOCTOR}`])
  })
})

describe('the room’s order (spec §4)', () => {
  beforeEach(() => {
    jest.mocked(getInquiry).mockReset()
    jest.mocked(finishInquiry).mockReset()
  })

  test('loads with the room, by the inquiry id it was opened with', async () => {
    jest.mocked(getInquiry).mockResolvedValue(inquiry('waiting'))
    await readyStore()
    await store.openChat(DOCTOR, INQUIRY)
    expect(getInquiry).toHaveBeenCalledWith(INQUIRY)
    expect(store.order.inquiry?.statusText).toBe('待接诊')
    expect(store.order.canSend).toBe(true)
  })

  test('reloads on each of start, return, doctorBusy and orderFinished, and not on an ordinary message', async () => {
    jest.mocked(getInquiry).mockResolvedValue(inquiry('waiting'))
    await readyStore()
    await store.openChat(DOCTOR, INQUIRY)
    expect(getInquiry).toHaveBeenCalledTimes(1)

    driver.emit('messageReceived', [incoming('请描述症状'), incoming('处方已开具', 'prescription')])
    await settle()
    expect(getInquiry).toHaveBeenCalledTimes(1)

    const turns: [string, InquiryStatus][] = [
      [ORDER_DESCRIPTION.start, 'inProgress'],
      [ORDER_DESCRIPTION.doctorBusy, 'inProgress'],
      [ORDER_DESCRIPTION.return, 'cancelled'],
      [ORDER_DESCRIPTION.orderFinished, 'finished'],
    ]
    for (const [i, [description, status]] of turns.entries()) {
      jest.mocked(getInquiry).mockResolvedValueOnce(inquiry(status))
      driver.emit('messageReceived', [incoming(description, description)])
      await settle()
      expect(getInquiry).toHaveBeenCalledTimes(2 + i)
      expect(getInquiry).toHaveBeenLastCalledWith(INQUIRY)
      expect(store.order.inquiry?.status).toBe(status)
    }
    expect(store.order.ended).toBe(true)
    expect(store.order.canSend).toBe(false)
    expect(await store.send('还在吗')).toBe(CHAT_MSG.ended)
    expect(payloads()).not.toContain('还在吗')
  })

  test('a slower answer to an older reload does not overwrite a newer one', async () => {
    jest.mocked(getInquiry).mockResolvedValue(inquiry('waiting'))
    await readyStore()
    await store.openChat(DOCTOR, INQUIRY)
    const slow = deferred<Inquiry>()
    jest.mocked(getInquiry).mockReturnValueOnce(slow.promise).mockResolvedValueOnce(inquiry('finished'))
    driver.emit('messageReceived', [incoming('start', 'start')])
    driver.emit('messageReceived', [incoming('orderFinished', 'orderFinished')])
    await settle()
    slow.resolve(inquiry('inProgress'))
    await settle()
    expect(store.order.inquiry?.status).toBe('finished')
  })

  test('a reconnect reloads the order too (turns may have been missed)', async () => {
    jest.mocked(getInquiry).mockResolvedValue(inquiry('waiting'))
    await readyStore()
    await store.openChat(DOCTOR, INQUIRY)
    jest.mocked(getInquiry).mockResolvedValue(inquiry('inProgress'))
    driver.emit('kickedOut', { reason: 'network' })
    await settle()
    driver.emit('ready', undefined)
    await settle()
    expect(getInquiry).toHaveBeenCalledTimes(2)
    expect(store.order.inquiry?.status).toBe('inProgress')
  })

  test('order.finish ends the consultation in progress', async () => {
    jest.mocked(getInquiry).mockResolvedValue(inquiry('inProgress'))
    jest.mocked(finishInquiry).mockResolvedValue(inquiry('finished'))
    await readyStore()
    await store.openChat(DOCTOR, INQUIRY)
    expect(await store.order.finish()).toBe(true)
    expect(finishInquiry).toHaveBeenCalledWith(INQUIRY)
    expect(store.order.ended).toBe(true)
  })

  test('opened with the inquiry alone, the room talks to its doctor', async () => {
    jest.mocked(getInquiry).mockResolvedValue(inquiry('inProgress'))
    driver.history = [stored(1)]
    await readyStore()
    await store.openChat('', INQUIRY)
    expect(store.toUserID).toBe(DOCTOR)
    expect(payloads()).toEqual(['第1条'])
  })
})
