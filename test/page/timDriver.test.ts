import { listConsultations } from '../../src/services/hospital'
import { getUnreadCount, getUserSig } from '../../src/services/im'
import { IMAGE_SUMMARY, REVOKED_TEXT, TIM_LOG_LEVEL, TimChatDriver, UNSUPPORTED_TEXT, largestImageUrl } from '../../src/services/chat/timDriver'
import { ChatStore } from '../../src/stores/ChatStore'
import { RELOGIN_LIMIT } from '../../src/stores/ChatConnection'
import { packNickname, unpackNickname } from '../../src/utils/nickname'
import type { ChatEvent, ChatMessage } from '../../types/api/chat'
// what the internet pages that chat import: the Tencent IM driver, registered for the chat store
import '../../src/platform/imDriver'

// The SDK of the platform layer: the fake below, for the driver and for the one the chat pages register for the store
jest.mock('@/platform/im', () => ({ __esModule: true, get default() { return mockSdk } }))
jest.mock('../../src/services/hospital', () => ({ listConsultations: jest.fn() }))
jest.mock('../../src/services/im', () => ({ getUnreadCount: jest.fn(), getUserSig: jest.fn() }))
jest.mock('../../src/services/inquiry', () => ({ getInquiry: jest.fn() }))

/** Nothing here may reach for the network: the real SDK would open a socket and fetch as soon as it is created. */
const network = { WebSocket: jest.fn(), fetch: jest.fn() }
Object.assign(globalThis, network)

type Listener = (event: { name: string; data: unknown }) => void

/** Loads a real SDK file for its constants only (it prints its version when it loads). */
function realSdk(id: string) {
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined)
  try {
    return jest.requireActual(id)
  } finally {
    log.mockRestore()
  }
}

/** The SDK's own event names and types: the fake speaks with them, so a wrong constant in the driver shows. */
const { EVENT, TYPES } = realSdk('tim-js-sdk')

const ME = '0_5'
const DOCTOR = 'd_7'

/** A Tencent message as the SDK hands it over (seconds, its own ID, its status words). */
function timMessage(over: Record<string, unknown> = {}) {
  return {
    ID: 'tim-1',
    type: TYPES.MSG_TEXT,
    payload: { text: '您好' },
    conversationID: `C2C${DOCTOR}`,
    conversationType: TYPES.CONV_C2C,
    from: DOCTOR,
    to: ME,
    flow: 'in',
    time: 1_700_000_000,
    status: 'success',
    isRevoked: false,
    isDeleted: false,
    cloudCustomData: '',
    ...over,
  }
}

/** A TIM instance in memory: the SDK's method names, its `{ name, data }` events; it records every call. */
class FakeTim {
  calls: [string, unknown][] = []
  logLevel: number | null = null
  listeners = new Map<string, Set<Listener>>()
  loginAnswer: unknown = { data: { repeatLogin: false } }
  loginError: unknown = null
  logoutError: unknown = null
  sendError: unknown = null
  conversations: unknown[] = []
  pages = new Map<string, { messageList: unknown[]; nextReqMessageID: string; isCompleted: boolean }>()
  private seq = 0

  on(name: string, listener: Listener) {
    if (!this.listeners.has(name)) this.listeners.set(name, new Set())
    this.listeners.get(name)!.add(listener)
  }
  off(name: string, listener: Listener) {
    this.listeners.get(name)?.delete(listener)
  }
  fire(name: string, data?: unknown) {
    for (const l of this.listeners.get(name) ?? []) l({ name, data })
  }
  setLogLevel(level: number) {
    this.logLevel = level
  }
  async login(options: unknown) {
    this.calls.push(['login', options])
    if (this.loginError) throw this.loginError
    return this.loginAnswer
  }
  async logout() {
    this.calls.push(['logout', null])
    if (this.logoutError) throw this.logoutError
    return { data: {} }
  }
  private create(type: string, options: { to: string; conversationType: string; payload: unknown; cloudCustomData?: string }) {
    const message = timMessage({
      ID: `out-${++this.seq}`,
      type,
      payload: options.payload,
      to: options.to,
      from: ME,
      flow: 'out',
      conversationType: options.conversationType,
      conversationID: `${options.conversationType}${options.to}`,
      cloudCustomData: options.cloudCustomData ?? '',
      status: 'unSend',
      time: 1_700_000_100,
    })
    this.calls.push([`create:${type}`, options])
    return message
  }
  createTextMessage(options: { to: string; conversationType: string; payload: unknown; cloudCustomData?: string }) {
    return this.create(TYPES.MSG_TEXT, options)
  }
  createCustomMessage(options: { to: string; conversationType: string; payload: unknown; cloudCustomData?: string }) {
    return this.create(TYPES.MSG_CUSTOM, options)
  }
  private async deliver(kind: string, message: { status: string; ID: string }) {
    this.calls.push([kind, message])
    if (this.sendError) {
      message.status = 'fail'
      throw this.sendError
    }
    message.status = 'success'
    return { data: { message } }
  }
  sendMessage(message: { status: string; ID: string }) {
    return this.deliver('sendMessage', message)
  }
  resendMessage(message: { status: string; ID: string }) {
    return this.deliver('resendMessage', message)
  }
  async getMessageList(options: { conversationID: string; nextReqMessageID?: string }) {
    this.calls.push(['getMessageList', options])
    return { data: this.pages.get(options.nextReqMessageID ?? '') ?? { messageList: [], nextReqMessageID: '', isCompleted: true } }
  }
  async setMessageRead(options: unknown) {
    this.calls.push(['setMessageRead', options])
    return { data: {} }
  }
  async getConversationList() {
    this.calls.push(['getConversationList', null])
    return { data: { conversationList: this.conversations, isSyncCompleted: true } }
  }
  async updateMyProfile(options: unknown) {
    this.calls.push(['updateMyProfile', options])
    return { data: {} }
  }
  called(name: string) {
    return this.calls.filter(([n]) => n === name).map(([, o]) => o)
  }
}

let tim: FakeTim
let mockSdk: { create: jest.Mock; EVENT: typeof EVENT; TYPES: typeof TYPES }

/** Lets every pending promise chain run. */
const settle = () => new Promise((resolve) => jest.requireActual<typeof import('timers')>('timers').setImmediate(resolve))

const newDriver = () => new TimChatDriver(1400000001, mockSdk as never)

/** Everything the driver raised, in order. */
function record(driver: TimChatDriver) {
  const events: [ChatEvent, unknown][] = []
  for (const e of ['ready', 'messageReceived', 'conversationListUpdated', 'kickedOut', 'networkStateChange', 'error'] as const) {
    driver.on(e, (payload) => events.push([e, payload]))
  }
  return events
}

async function signedIn(driver = newDriver()) {
  await driver.login(ME, 'tls-1')
  tim.fire(EVENT.SDK_READY)
  return driver
}

const outgoing = (over: Partial<ChatMessage> = {}): ChatMessage => ({
  id: 'c0123456789abcdef',
  conversationID: `C2C${DOCTOR}`,
  from: ME,
  to: DOCTOR,
  type: 'text',
  payload: '头疼三天了',
  description: '',
  time: 1,
  status: 'created',
  ...over,
})

beforeEach(() => {
  tim = new FakeTim()
  mockSdk = { create: jest.fn(() => tim), EVENT, TYPES }
})

afterEach(() => {
  jest.restoreAllMocks()
})

describe('the SDK through the platform layer', () => {
  test('H5 gets tim-js-sdk; both mini-programs get tim-wx-sdk, which finds Alipay’s `my` as well as `wx`', () => {
    expect(realSdk('../../src/platform/im.h5').default).toBe(realSdk('tim-js-sdk'))
    const wx = realSdk('tim-wx-sdk')
    expect(realSdk('../../src/platform/im.weapp').default).toBe(wx)
    expect(realSdk('../../src/platform/im.alipay').default).toBe(wx)
    expect([wx.EVENT.SDK_READY, wx.TYPES.CONV_C2C]).toEqual([EVENT.SDK_READY, TYPES.CONV_C2C])
  })

  test('in an Alipay mini-program tim-wx-sdk talks through `my` (its socket and requests), not a browser’s', async () => {
    jest.useFakeTimers()
    const used: string[] = []
    // Alipay's API object as the SDK probes it when it loads: anything else it calls is recorded
    const my = new Proxy({} as Record<string, unknown>, {
      get: (_, name: string) => {
        if (name === 'getSystemInfoSync') return () => ({ fontSizeSetting: 16, platform: 'android' })
        if (name === 'getStorageSync') return () => ({ data: undefined })
        return (options?: { url?: string }) => void used.push(options?.url ? `${name} ${new URL(options.url).protocol}` : name)
      },
    })
    Object.assign(globalThis, { my })
    jest.spyOn(console, 'log').mockImplementation(() => undefined)
    jest.spyOn(console, 'info').mockImplementation(() => undefined)
    try {
      let wx: typeof mockSdk | undefined
      jest.isolateModules(() => {
        wx = jest.requireActual<typeof mockSdk>('tim-wx-sdk')
      })
      const instance = wx!.create({ SDKAppID: 1400000001 }) as unknown as { setLogLevel(n: number): void; login(o: object): Promise<unknown> }
      instance.setLogLevel(4)
      void instance.login({ userID: ME, userSig: 'tls-1' }).catch(() => undefined)
      await jest.advanceTimersByTimeAsync(100)
      expect(used).toEqual(expect.arrayContaining(['connectSocket wss:', 'onSocketMessage', 'request https:']))
    } finally {
      jest.clearAllTimers()
      jest.useRealTimers()
      delete (globalThis as { my?: unknown }).my
    }
  })
})

describe('creating and signing in', () => {
  test('creates the instance for the app, at log level 1 (spec §9), listening before it logs in', async () => {
    const driver = newDriver()
    expect(mockSdk.create).toHaveBeenCalledWith({ SDKAppID: 1400000001 })
    expect(tim.logLevel).toBe(1)
    expect(TIM_LOG_LEVEL).toBe(1)
    for (const name of [EVENT.SDK_READY, EVENT.MESSAGE_RECEIVED, EVENT.CONVERSATION_LIST_UPDATED, EVENT.KICKED_OUT, EVENT.NET_STATE_CHANGE, EVENT.ERROR]) {
      expect(tim.listeners.get(name)?.size).toBe(1)
    }
    const events = record(driver)
    await driver.login(ME, 'tls-1')
    expect(tim.called('login')).toEqual([{ userID: ME, userSig: 'tls-1' }])
    expect(events).toEqual([])
    tim.fire(EVENT.SDK_READY)
    expect(events).toEqual([['ready', undefined]])
  })

  test('a refused login rejects with Tencent’s message', async () => {
    tim.loginError = { code: 70001, message: 'userSig 已过期' }
    await expect(newDriver().login(ME, 'old')).rejects.toThrow('userSig 已过期')
  })

  test('logging in again while still signed in and ready says ready again (the SDK will not)', async () => {
    const driver = await signedIn()
    const events = record(driver)
    tim.loginAnswer = { data: { repeatLogin: true } }
    await driver.login(ME, 'tls-2')
    expect(events).toEqual([['ready', undefined]])
  })

  test('another account signs the first one out before it logs in', async () => {
    const driver = await signedIn()
    await driver.login('0_6', 'tls-6')
    expect(tim.calls.map(([n]) => n)).toEqual(['login', 'logout', 'login'])
    expect(tim.called('login')[1]).toEqual({ userID: '0_6', userSig: 'tls-6' })
  })

  test('logout signs out; not being signed in (2024) is no failure, anything else is', async () => {
    const driver = await signedIn()
    await driver.logout()
    expect(tim.called('logout')).toHaveLength(1)
    tim.logoutError = { code: 2024, message: 'not logged in' }
    await expect(driver.logout()).resolves.toBeUndefined()
    tim.logoutError = { code: 2800, message: 'network' }
    await expect(driver.logout()).rejects.toThrow('network')
  })
})

describe('events', () => {
  test('kicked out, network states and errors become the driver’s events', async () => {
    const driver = await signedIn()
    const events = record(driver)
    tim.fire(EVENT.KICKED_OUT, { type: TYPES.KICKED_OUT_MULT_DEVICE })
    tim.fire(EVENT.NET_STATE_CHANGE, { state: TYPES.NET_STATE_CONNECTING })
    tim.fire(EVENT.NET_STATE_CHANGE, { state: TYPES.NET_STATE_CONNECTED })
    tim.fire(EVENT.NET_STATE_CHANGE, { state: TYPES.NET_STATE_DISCONNECTED })
    tim.fire(EVENT.NET_STATE_CHANGE, { state: 'somethingNew' })
    tim.fire(EVENT.ERROR, { code: 2800, message: '网络错误' })
    expect(events).toEqual([
      ['kickedOut', { reason: 'multipleDevice' }],
      ['networkStateChange', { state: 'connecting' }],
      ['networkStateChange', { state: 'connected' }],
      ['networkStateChange', { state: 'disconnected' }],
      ['error', { code: 2800, message: '网络错误' }],
    ])
  })

  test('after a kick-out or the SDK’s not-ready a repeat login answer does not claim ready: the SDK will say it', async () => {
    const driver = await signedIn()
    tim.fire(EVENT.KICKED_OUT, { type: TYPES.KICKED_OUT_USERSIG_EXPIRED })
    const events = record(driver)
    tim.loginAnswer = { data: { repeatLogin: true } }
    await driver.login(ME, 'tls-2')
    tim.fire(EVENT.SDK_READY)
    tim.fire(EVENT.SDK_NOT_READY)
    await driver.login(ME, 'tls-3')
    expect(events).toEqual([['ready', undefined]])
  })

  test('received messages are mapped; group tips, system notices and deleted messages are not chat and are dropped', async () => {
    const driver = await signedIn()
    const events = record(driver)
    tim.fire(EVENT.MESSAGE_RECEIVED, [
      timMessage({ ID: 'tim-1', payload: { text: '请描述症状' } }),
      timMessage({ ID: 'tim-2', type: TYPES.MSG_GRP_TIP, payload: {} }),
      timMessage({ ID: 'tim-3', type: TYPES.MSG_GRP_SYS_NOTICE, payload: {} }),
      timMessage({ ID: 'tim-4', isDeleted: true }),
    ])
    tim.fire(EVENT.MESSAGE_RECEIVED, [timMessage({ ID: 'tim-5', type: TYPES.MSG_GRP_TIP, payload: {} })])
    expect(events).toEqual([
      [
        'messageReceived',
        [
          {
            id: 'tim-1',
            conversationID: 'C2Cd_7',
            from: DOCTOR,
            to: ME,
            type: 'text',
            payload: '请描述症状',
            description: '',
            time: 1_700_000_000_000,
            status: 'sendSuccess',
          },
        ],
      ],
    ])
  })

  test('an updated conversation list comes with the event, mapped', async () => {
    const driver = await signedIn()
    const events = record(driver)
    tim.fire(EVENT.CONVERSATION_LIST_UPDATED, [{ conversationID: `C2C${DOCTOR}`, type: TYPES.CONV_C2C, unreadCount: 3, lastMessage: { lastTime: 0 } }])
    expect(events).toEqual([['conversationListUpdated', [{ conversationID: 'C2Cd_7', peer: DOCTOR, unreadCount: 3, lastMessage: null }]]])
  })
})

describe('message mapping', () => {
  const map = (over: Record<string, unknown>) => newDriver().toChatMessage(timMessage(over) as never)

  test('text; our id from cloudCustomData, else Tencent’s ID; seconds to ms; the SDK’s status words', () => {
    expect(map({ ID: 'tim-9', payload: { text: '好的' } })).toMatchObject({ id: 'tim-9', type: 'text', payload: '好的', time: 1_700_000_000_000, status: 'sendSuccess' })
    expect(map({ ID: 'tim-9', cloudCustomData: JSON.stringify({ clientId: 'c-1' }) })!.id).toBe('c-1')
    expect(map({ status: 'unSend' })!.status).toBe('created')
    expect(map({ status: 'fail' })!.status).toBe('sendFail')
  })

  test('an image is the url of its biggest size, whatever the order Tencent lists them in', () => {
    const imageInfoArray = [
      { type: 1, url: 'https://img/large', width: 720, height: 960, size: 90_000 },
      { type: 0, url: 'https://img/original', width: 1500, height: 2000, size: 400_000 },
      { type: 2, url: 'https://img/small', width: 150, height: 200, size: 8_000 },
    ]
    expect(map({ type: TYPES.MSG_IMAGE, payload: { uuid: 'u', imageFormat: 1, imageInfoArray } })).toMatchObject({ type: 'image', payload: 'https://img/original' })
    // sizes unknown: the most bytes; nothing usable: no url
    expect(largestImageUrl({ imageInfoArray: [{ url: 'a', size: 1 }, { url: 'b', size: 5 }, { url: '', size: 9 }] })).toBe('b')
    expect(largestImageUrl({ imageInfoArray: [] })).toBe('')
  })

  test('the four order descriptions: a custom message’s desc, its data alone, or the cloudCustomData', () => {
    expect(map({ type: TYPES.MSG_CUSTOM, payload: { data: '{}', description: 'start', extension: '医生已接诊' } })).toMatchObject({
      type: 'text',
      payload: '医生已接诊',
      description: 'start',
    })
    expect(map({ type: TYPES.MSG_CUSTOM, payload: { data: 'orderFinished', description: '', extension: '' } })).toMatchObject({
      payload: 'orderFinished',
      description: 'orderFinished',
    })
    expect(map({ payload: { text: '医生正在忙' }, cloudCustomData: JSON.stringify({ description: 'doctorBusy' }) })).toMatchObject({
      type: 'text',
      payload: '医生正在忙',
      description: 'doctorBusy',
    })
    expect(map({ payload: { text: '已退诊' }, cloudCustomData: 'return' })!.description).toBe('return')
    // a bare cloudCustomData that is not one of them says nothing
    expect(map({ cloudCustomData: 'vip' })!.description).toBe('')
    // any other desc is kept as it is: the room decides what it means
    expect(map({ type: TYPES.MSG_CUSTOM, payload: { data: 'x', description: 'prescription', extension: '' } })!.description).toBe('prescription')
  })

  test('a prescription card (a custom message with the desc prescription) is a prescription message carrying the card', () => {
    const card = JSON.stringify({ prescriptionId: 31, presNo: 'RX1', diagnoses: ['原发性高血压'], drugNames: ['苯磺酸氨氯地平片'], totalFen: 6700 })
    expect(map({ type: TYPES.MSG_CUSTOM, payload: { data: card, description: 'prescription', extension: '' } })).toMatchObject({ type: 'prescription', payload: card })
  })

  test('our picture (a custom message naming its url) is an image again; other kinds show a placeholder', () => {
    expect(map({ type: TYPES.MSG_CUSTOM, payload: { data: JSON.stringify({ type: 'image', url: 'https://files/p.jpg' }), description: '', extension: IMAGE_SUMMARY } })).toMatchObject({
      type: 'image',
      payload: 'https://files/p.jpg',
    })
    expect(map({ type: TYPES.MSG_AUDIO, payload: { url: 'x', second: 3 } })).toMatchObject({ type: 'text', payload: UNSUPPORTED_TEXT })
    expect(map({ isRevoked: true })).toMatchObject({ type: 'text', payload: REVOKED_TEXT })
  })
})

describe('conversations', () => {
  test('C2C and group conversations with their unread counts and last messages; the system one is left out', async () => {
    const driver = await signedIn()
    tim.conversations = [
      {
        conversationID: `C2C${DOCTOR}`,
        type: TYPES.CONV_C2C,
        unreadCount: 2,
        userProfile: { userID: DOCTOR },
        lastMessage: { lastTime: 1_700_000_050, lastSequence: 12, fromAccount: DOCTOR, type: TYPES.MSG_TEXT, payload: { text: '请上传化验单' }, messageForShow: '请上传化验单', cloudCustomData: '' },
      },
      {
        conversationID: 'C2Cd_8',
        type: TYPES.CONV_C2C,
        unreadCount: 0,
        lastMessage: { lastTime: 1_700_000_060, lastSequence: 3, fromAccount: ME, type: TYPES.MSG_TEXT, payload: { text: '谢谢' }, cloudCustomData: JSON.stringify({ clientId: 'c-2' }) },
      },
      {
        conversationID: 'GROUPg_1',
        type: TYPES.CONV_GROUP,
        unreadCount: 1,
        groupProfile: { groupID: 'g_1' },
        lastMessage: { lastTime: 1_700_000_070, lastSequence: 4, fromAccount: DOCTOR, type: TYPES.MSG_AUDIO, payload: {}, messageForShow: '[语音]' },
      },
      { conversationID: '@TIM#SYSTEM', type: TYPES.CONV_SYSTEM, unreadCount: 5, lastMessage: { lastTime: 1 } },
    ]
    const list = await driver.getConversationList()
    expect(list.map((c) => [c.conversationID, c.peer, c.unreadCount])).toEqual([
      ['C2Cd_7', DOCTOR, 2],
      ['C2Cd_8', 'd_8', 0],
      ['GROUPg_1', 'g_1', 1],
    ])
    expect(list[0]!.lastMessage).toEqual({
      id: 'C2Cd_7-12',
      conversationID: 'C2Cd_7',
      from: DOCTOR,
      to: ME,
      type: 'text',
      payload: '请上传化验单',
      description: '',
      time: 1_700_000_050_000,
      status: 'sendSuccess',
    })
    expect(list[1]!.lastMessage).toMatchObject({ id: 'c-2', from: ME, to: 'd_8', payload: '谢谢' })
    expect(list[2]!.lastMessage).toMatchObject({ type: 'text', payload: '[语音]' })
  })
})

describe('history and read marks', () => {
  test('pages of history follow nextReqMessageID until Tencent says it is complete', async () => {
    const driver = await signedIn()
    tim.pages.set('', { messageList: [timMessage({ ID: 'm-11', payload: { text: '二' } }), timMessage({ ID: 'm-12', payload: { text: '三' } })], nextReqMessageID: 'm-10', isCompleted: false })
    tim.pages.set('m-10', { messageList: [timMessage({ ID: 'm-10', payload: { text: '一' } })], nextReqMessageID: '', isCompleted: true })

    const newest = await driver.getMessageList('C2Cd_7')
    expect(newest.messages.map((m) => [m.id, m.payload])).toEqual([
      ['m-11', '二'],
      ['m-12', '三'],
    ])
    expect(newest.nextCursor).toBe('m-10')
    const older = await driver.getMessageList('C2Cd_7', newest.nextCursor!)
    expect(older).toMatchObject({ messages: [{ id: 'm-10', payload: '一' }], nextCursor: null })
    expect(tim.called('getMessageList')).toEqual([{ conversationID: 'C2Cd_7' }, { conversationID: 'C2Cd_7', nextReqMessageID: 'm-10' }])

    await driver.setMessageRead('C2Cd_7')
    expect(tim.called('setMessageRead')).toEqual([{ conversationID: 'C2Cd_7' }])
  })
})

describe('sending', () => {
  test('a text goes as a C2C text message carrying our id; it resolves with Tencent’s copy under the same id', async () => {
    const driver = await signedIn()
    const sent = await driver.sendMessage(outgoing())
    expect(tim.called(`create:${TYPES.MSG_TEXT}`)).toEqual([
      { to: DOCTOR, conversationType: TYPES.CONV_C2C, payload: { text: '头疼三天了' }, cloudCustomData: '{"clientId":"c0123456789abcdef"}' },
    ])
    expect(sent).toEqual({ ...outgoing(), time: 1_700_000_100_000, status: 'sendSuccess' })
  })

  test('a picture (its url) goes as a custom message naming it; a description rides in cloudCustomData', async () => {
    const driver = await signedIn()
    const sent = await driver.sendMessage(outgoing({ type: 'image', payload: 'https://files/p.jpg', description: 'start' }))
    expect(tim.called(`create:${TYPES.MSG_CUSTOM}`)).toEqual([
      {
        to: DOCTOR,
        conversationType: TYPES.CONV_C2C,
        payload: { data: '{"type":"image","url":"https://files/p.jpg"}', description: '', extension: IMAGE_SUMMARY },
        cloudCustomData: '{"clientId":"c0123456789abcdef","description":"start"}',
      },
    ])
    expect(sent).toMatchObject({ id: 'c0123456789abcdef', type: 'image', payload: 'https://files/p.jpg', description: 'start', status: 'sendSuccess' })
  })

  test('a failed send rejects; the resend sends the same Tencent message again and keeps our id', async () => {
    const driver = await signedIn()
    tim.sendError = { code: 2800, message: '网络错误' }
    await expect(driver.sendMessage(outgoing())).rejects.toThrow('网络错误')
    const [first] = tim.called('sendMessage') as { ID: string }[]

    await expect(driver.sendMessage(outgoing())).rejects.toThrow('网络错误')
    tim.sendError = null
    const sent = await driver.sendMessage(outgoing())
    expect(tim.called('resendMessage')).toEqual([first, first])
    expect(tim.called(`create:${TYPES.MSG_TEXT}`)).toHaveLength(1)
    expect(sent).toMatchObject({ id: 'c0123456789abcdef', status: 'sendSuccess' })

    // sent: the id is free again, and a later message with it would be a new one
    await driver.sendMessage(outgoing())
    expect(tim.called(`create:${TYPES.MSG_TEXT}`)).toHaveLength(2)
  })

  test('after a logout a failed message is created anew (Tencent forgot it), still under our id', async () => {
    const driver = await signedIn()
    tim.sendError = { code: 2800, message: '网络错误' }
    await expect(driver.sendMessage(outgoing())).rejects.toThrow()
    await driver.logout()
    await signedIn(driver)
    tim.sendError = null
    expect(await driver.sendMessage(outgoing())).toMatchObject({ id: 'c0123456789abcdef' })
    expect(tim.called('resendMessage')).toEqual([])
    expect(tim.called(`create:${TYPES.MSG_TEXT}`)).toHaveLength(2)
  })
})

describe('the chat store over Tencent IM', () => {
  let signatures = 0

  beforeEach(() => {
    signatures = 0
    jest.mocked(getUserSig).mockReset().mockImplementation(async (imAccount) => ({
      driver: 'tim',
      sdkAppId: 1400000001,
      imAccount,
      userSig: `tls-${++signatures}`,
      expire: 0,
    }))
    jest.mocked(listConsultations).mockReset().mockResolvedValue([])
    jest.mocked(getUnreadCount).mockReset().mockResolvedValue({ unreadCount: 3 })
    jest.spyOn(console, 'warn').mockImplementation(() => undefined)
    jest.spyOn(console, 'info').mockImplementation(() => undefined)
  })

  test('a tim signature attaches the registered Tencent driver, which logs in with it; ready sets the packed nickname and avatar', async () => {
    const store = new ChatStore()
    await store.requestSignature(5, { nick: '张三', avatar: 'https://img/a.png', sex: '男', age: '30', orderType: '1' })
    await settle()
    expect(mockSdk.create).toHaveBeenCalledWith({ SDKAppID: 1400000001 })
    expect(tim.called('login')).toEqual([{ userID: '0_5', userSig: 'tls-1' }])
    expect(store.ready).toBe(false)

    tim.fire(EVENT.SDK_READY)
    await settle()
    expect(store.ready).toBe(true)
    expect(tim.called('getConversationList')).toHaveLength(1)
    const [profile] = tim.called('updateMyProfile') as { nick: string; avatar: string }[]
    expect(profile).toEqual({ nick: packNickname({ nick: '张三', sex: '男', age: '30', orderType: '1' }), avatar: 'https://img/a.png' })
    expect(unpackNickname(profile!.nick)).toEqual({ nick: '张三', sex: '男', age: '30', orderType: '1' })
    // the counts are Tencent's: the server's total is never asked
    expect(getUnreadCount).not.toHaveBeenCalled()
    store.dispose()
  })

  test('kicked out: a fresh signature each time, fewer than 5 attempts (spec §4), and ready allows 5 more', async () => {
    const store = new ChatStore()
    await store.requestSignature(5)
    await settle()
    tim.fire(EVENT.SDK_READY)
    await settle()

    tim.fire(EVENT.KICKED_OUT, { type: TYPES.KICKED_OUT_MULT_ACCOUNT })
    await settle()
    expect(store.ready).toBe(false)
    expect(tim.called('login')).toEqual([
      { userID: '0_5', userSig: 'tls-1' },
      { userID: '0_5', userSig: 'tls-2' },
    ])

    tim.loginError = { code: 2800, message: '网络错误' }
    tim.fire(EVENT.ERROR, { code: 2800, message: '网络错误' })
    await settle()
    expect(RELOGIN_LIMIT).toBe(5)
    expect(tim.called('login')).toHaveLength(2 + 4) // one attempt was spent on the kick-out
    tim.fire(EVENT.KICKED_OUT, { type: TYPES.KICKED_OUT_MULT_ACCOUNT })
    await settle()
    expect(tim.called('login')).toHaveLength(6)

    tim.loginError = null
    tim.fire(EVENT.SDK_READY)
    tim.fire(EVENT.KICKED_OUT, { type: TYPES.KICKED_OUT_USERSIG_EXPIRED })
    await settle()
    expect(tim.called('login')).toHaveLength(7)
    expect(store.signature?.userSig).toBe(`tls-${signatures}`)
    store.dispose()
  })

  test('when the SDK cannot start, the store goes on without chat: the server’s count, a message fails instead of hanging', async () => {
    mockSdk.create.mockImplementation(() => {
      throw new Error('SDK failed')
    })
    const store = new ChatStore()
    await store.requestSignature(5)
    expect(store.userID).toBe('0_5')
    expect(console.warn).toHaveBeenCalledWith('chat SDK not started', expect.any(Error))
    expect(store.conversations.unreadTotal).toBe(3)
    await store.openChat(DOCTOR)
    await store.send('在吗')
    expect(store.messageList.map((m) => m.status)).toEqual(['sendFail'])
  })
})

afterAll(() => {
  // nothing here reached for the network
  expect(network.WebSocket).not.toHaveBeenCalled()
  expect(network.fetch).not.toHaveBeenCalled()
})
