import Taro from './doubles/taro'
import { CLOSE_BAD_SIGNATURE, CLOSE_GOING_AWAY, LocalChatDriver, RECONNECT_MIN_MS, REQUEST_TIMEOUT_MS } from '../../src/services/chat/localDriver'
import type { ChatEvent, ChatMessage } from '../../types/api/chat'

/** A stand-in for Taro's SocketTask: what the driver sends is recorded, what the service says is played in. */
class FakeSocket {
  sent: Record<string, any>[] = []
  closed: { code?: number } | null = null
  private cb: Record<string, (r: any) => void> = {}
  constructor(readonly url: string) {}
  onOpen(f: (r: any) => void) {
    this.cb.open = f
  }
  onMessage(f: (r: any) => void) {
    this.cb.message = f
  }
  onClose(f: (r: any) => void) {
    this.cb.close = f
  }
  onError(f: (r: any) => void) {
    this.cb.error = f
  }
  send({ data }: { data: string }) {
    this.sent.push(JSON.parse(data))
  }
  close(o: { code?: number }) {
    this.closed = o
  }
  open() {
    this.cb.open!({ header: {} })
  }
  say(frame: unknown) {
    this.cb.message!({ data: JSON.stringify(frame) })
  }
  drop(code: number, reason = '') {
    this.cb.close!({ code, reason })
  }
  last() {
    return this.sent[this.sent.length - 1]!
  }
}

let sockets: FakeSocket[] = []
const socket = () => sockets[sockets.length - 1]!
const flush = () => new Promise((r) => jest.requireActual<typeof import('timers')>('timers').setImmediate(r))

/** Everything the driver raised, in order. */
function record(driver: LocalChatDriver) {
  const events: [ChatEvent, unknown][] = []
  for (const e of ['ready', 'messageReceived', 'conversationListUpdated', 'kickedOut', 'networkStateChange', 'error'] as const) {
    driver.on(e, (payload) => events.push([e, payload]))
  }
  return events
}

async function connected(driver: LocalChatDriver, sig = 'sig-1') {
  const login = driver.login('0_5', sig)
  await flush()
  socket().open()
  await login
}

const message = (over: Partial<ChatMessage> = {}): ChatMessage => ({
  id: 'c0123456789abcdef',
  conversationID: 'C2Cd_7',
  from: '0_5',
  to: 'd_7',
  type: 'text',
  payload: '头疼三天了',
  description: '',
  time: 1,
  status: 'created',
  ...over,
})

beforeEach(() => {
  sockets = []
  ;(Taro as unknown as { connectSocket: unknown }).connectSocket = async ({ url }: { url: string }) => {
    const s = new FakeSocket(url)
    sockets.push(s)
    return s
  }
})
afterEach(() => jest.useRealTimers())

describe('our own chat service driver', () => {
  test('connects beside the API with the signature and is ready once the service accepts it', async () => {
    const driver = new LocalChatDriver()
    const events = record(driver)
    await connected(driver, 'a.b/c')
    expect(socket().url).toBe('ws://localhost/dld-im/ws?sig=a.b%2Fc')
    expect(events).toEqual([
      ['networkStateChange', { state: 'connecting' }],
      ['networkStateChange', { state: 'connected' }],
      ['ready', undefined],
    ])
  })

  test('a message goes out with its id as the client id and resolves with the service’s copy, or rejects with its reason', async () => {
    const driver = new LocalChatDriver()
    await connected(driver)
    const sending = driver.sendMessage(message())
    const frame = socket().last()
    expect(frame).toEqual({ op: 'send', id: frame.id, message: { clientId: 'c0123456789abcdef', to: 'd_7', type: 'text', payload: '头疼三天了' } })
    socket().say({ op: 'reply', id: frame.id, ok: true, data: message({ id: '41', status: 'sendSuccess' }) })
    expect((await sending).id).toBe('41')

    const refused = driver.sendMessage(message({ payload: ' ' }))
    socket().say({ op: 'reply', id: socket().last().id, ok: false, error: '发送内容不能为空' })
    await expect(refused).rejects.toThrow('发送内容不能为空')
  })

  test('pushes become events: a message, and an updated conversation list asked for again', async () => {
    const driver = new LocalChatDriver()
    const events = record(driver)
    await connected(driver)
    events.length = 0
    socket().say({ op: 'message', message: message({ id: '42', from: 'd_7', to: '0_5', description: 'start' }) })
    socket().say({ op: 'conversationsUpdated' })
    await flush()
    const ask = socket().last()
    expect(ask).toEqual({ op: 'conversations', id: ask.id })
    socket().say({ op: 'reply', id: ask.id, ok: true, data: [{ conversationID: 'C2Cd_7', peer: 'd_7', unreadCount: 2, lastMessage: null }] })
    await flush()
    expect(events).toEqual([
      ['messageReceived', [message({ id: '42', from: 'd_7', to: '0_5', description: 'start' })]],
      ['conversationListUpdated', [{ conversationID: 'C2Cd_7', peer: 'd_7', unreadCount: 2, lastMessage: null }]],
    ])
  })

  test('history and read marks name the peer of the conversation', async () => {
    const driver = new LocalChatDriver()
    await connected(driver)
    void driver.getMessageList('C2Cd_7', '40')
    expect(socket().last()).toMatchObject({ op: 'history', peer: 'd_7', before: '40' })
    void driver.setMessageRead('C2Cd_7')
    expect(socket().last()).toMatchObject({ op: 'read', peer: 'd_7' })
  })

  test('a dropped connection fails what is waiting, says so, and connects again with backoff', async () => {
    jest.useFakeTimers()
    const driver = new LocalChatDriver()
    const events = record(driver)
    await connected(driver, 'sig-9')
    const waiting = driver.sendMessage(message())
    events.length = 0
    socket().drop(1006)
    await expect(waiting).rejects.toThrow('chat connection closed')
    expect(events).toEqual([['networkStateChange', { state: 'disconnected' }]])
    expect(sockets).toHaveLength(1)
    jest.advanceTimersByTime(999)
    expect(sockets).toHaveLength(1)
    jest.advanceTimersByTime(1)
    await flush()
    expect(sockets).toHaveLength(2)
    expect(socket().url).toContain('sig=sig-9')
    socket().drop(1006) // still down: the next try waits twice as long
    jest.advanceTimersByTime(1999)
    await flush()
    expect(sockets).toHaveLength(2)
    jest.advanceTimersByTime(1)
    await flush()
    expect(sockets).toHaveLength(3)
    socket().open()
    expect(events.slice(-2)).toEqual([
      ['networkStateChange', { state: 'connected' }],
      ['ready', undefined],
    ])
  })

  test('a server going away for a restart (1001) is a dropped connection: back with the usual backoff, nobody logged out', async () => {
    jest.useFakeTimers()
    const driver = new LocalChatDriver()
    const events = record(driver)
    await connected(driver, 'sig-3')
    const waiting = driver.getConversationList()
    events.length = 0
    socket().drop(CLOSE_GOING_AWAY, 'server restarting')
    await expect(waiting).rejects.toThrow('chat connection closed')
    expect(events).toEqual([['networkStateChange', { state: 'disconnected' }]])
    jest.advanceTimersByTime(RECONNECT_MIN_MS - 1)
    await flush()
    expect(sockets).toHaveLength(1)
    jest.advanceTimersByTime(1)
    await flush()
    expect(sockets).toHaveLength(2)
    expect(socket().url).toContain('sig=sig-3')
    socket().open()
    expect(events.slice(1)).toEqual([
      ['networkStateChange', { state: 'connecting' }],
      ['networkStateChange', { state: 'connected' }],
      ['ready', undefined],
    ])
    // the new connection carries requests as before
    void driver.getConversationList()
    expect(socket().last()).toMatchObject({ op: 'conversations' })
  })

  test('a refused signature is a kick-out, with no reconnecting on the old one', async () => {
    jest.useFakeTimers()
    const driver = new LocalChatDriver()
    const events = record(driver)
    await connected(driver)
    socket().drop(CLOSE_BAD_SIGNATURE, 'signature expired')
    expect(events.filter(([e]) => e === 'kickedOut')).toEqual([['kickedOut', { reason: 'signature expired' }]])
    jest.advanceTimersByTime(60_000)
    await flush()
    expect(sockets).toHaveLength(1)
    socket().say({ op: 'kicked', reason: 'x' }) // a closed socket's late frame changes nothing
  })

  test('a request the service never answers fails after the time-out; nothing is sent without a connection', async () => {
    jest.useFakeTimers()
    const driver = new LocalChatDriver()
    await expect(driver.getConversationList()).rejects.toThrow('chat not connected')
    await connected(driver)
    const asking = driver.getConversationList()
    jest.advanceTimersByTime(REQUEST_TIMEOUT_MS)
    await expect(asking).rejects.toThrow('chat request timed out')
    await driver.logout()
    expect(socket().closed).toEqual({ code: 1000, reason: 'logout' })
  })
})
