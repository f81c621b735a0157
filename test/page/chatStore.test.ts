import Taro from './doubles/taro'
import { getUserSig } from '../../src/services/auth'
import { listConsultations } from '../../src/services/hospital'
import { ORDER_DESCRIPTION, type ChatDriver, type ChatHandler } from '../../src/services/chat/driver'
import { ChatStore, type ChatConsultation } from '../../src/stores/ChatStore'
import { unpackNickname } from '../../src/utils/nickname'
import type { ChatConversation, ChatEvent, ChatEvents, ChatMessage } from '../../types/api/chat'

jest.mock('../../src/services/auth', () => ({ getUserSig: jest.fn() }))
jest.mock('../../src/services/hospital', () => ({ listConsultations: jest.fn() }))

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
  async getMessageList(conversationID: string) {
    return { messages: this.history.filter((m) => m.conversationID === conversationID), nextCursor: null }
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

const consultation = (orderNo: string, unreadCount: number, conversationID?: string): ChatConsultation => ({
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
    expect(store.conversationList).toEqual([])
    driver.emit('ready', undefined)
    await settle()
    expect(store.ready).toBe(true)
    expect(store.conversationList.map((c) => [c.orderNo, c.unreadCount])).toEqual([
      ['C1', 7],
      ['C2', 4], // no IM conversation: the server's count stands
    ])
    expect(store.unreadTotal).toBe(11)
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

  test('network states are only logged', async () => {
    await readyStore()
    driver.emit('networkStateChange', { state: 'disconnected' })
    await settle()
    expect(console.info).toHaveBeenCalledWith('chat network', 'disconnected')
    expect(store.ready).toBe(true)
    expect(driver.logins).toEqual(['sig-1'])
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
    await store.openChat(DOCTOR)
    const onOrderChanged = jest.fn()
    store.onOrderChanged = onOrderChanged

    driver.emit('messageReceived', [incoming('请描述症状'), incoming('处方已开具', 'prescription')])
    expect(onOrderChanged).not.toHaveBeenCalled()

    const descriptions = [ORDER_DESCRIPTION.start, ORDER_DESCRIPTION.return, ORDER_DESCRIPTION.doctorBusy, ORDER_DESCRIPTION.orderFinished]
    expect(descriptions).toEqual(['start', 'return', 'doctorBusy', 'orderFinished'])
    descriptions.forEach((d, i) => {
      driver.emit('messageReceived', [incoming(d, d)])
      expect(onOrderChanged).toHaveBeenCalledTimes(i + 1)
    })

    driver.emit('messageReceived', [incoming('另一位医生开始接诊', 'start', '1_8')])
    expect(onOrderChanged).toHaveBeenCalledTimes(4)
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
    expect(store.conversationList[0]!.unreadCount).toBe(0)

    await jest.advanceTimersByTimeAsync(1)
    expect(listConsultations).toHaveBeenCalledTimes(2)
    expect(driver.conversationLoads).toBe(2)
    expect(store.conversationList.map((c) => c.unreadCount)).toEqual([3, 4])

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

  test('without a driver (a Tencent IM signature, whose driver is not built) the message fails instead of hanging', async () => {
    jest.mocked(getUserSig).mockResolvedValueOnce({ driver: 'tim', sdkAppId: 1400000000, imAccount: '0_5', userSig: 'tls', expire: 0 })
    const alone = new ChatStore()
    await alone.requestSignature(5)
    await alone.openChat(DOCTOR)
    await alone.send('在吗')
    expect(alone.messageList.map((m) => m.status)).toEqual(['sendFail'])
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
  expect(store.conversationList).toEqual([])
})
