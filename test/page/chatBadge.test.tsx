import { act, render, screen, waitFor } from '@testing-library/react'
import { StoresContext } from '../../src/stores'
import { calls, testing } from './doubles/taro'
import { RootStore } from '../../src/stores/RootStore'
import TabBar from '../../src/components/TabBar'
import { TimChatDriver } from '../../src/services/chat/timDriver'
import type { ChatDriver, ChatHandler } from '../../src/services/chat/driver'
import type { UserSig } from '../../types/api/auth'
import type { ConsultationItem } from '../../types/api/hospital'
import type { ChatConversation, ChatEvent, ChatEvents } from '../../types/api/chat'

/**
 * The 我的问诊 badge of the tab bar, as the patient sees it. With Tencent IM the driver and its SDK come with the
 * internet pages that chat (src/platform/imDriver.ts): until one has loaded, the badge is the server's count, asked
 * again each time a tab page shows; then it is Tencent's live count. With our own chat service nothing of that applies.
 */

/** Tencent IM's driver, as the chat pages bring it: a driver in memory in place of the SDK's. */
class MockTencentDriver implements ChatDriver {
  logins: string[] = []
  conversations: ChatConversation[] = []
  private handlers = new Map<ChatEvent, Set<(payload: never) => void>>()
  async login(_userID: string, userSig: string) {
    this.logins.push(userSig)
  }
  async logout() {}
  async updateProfile() {}
  async getConversationList() {
    return this.conversations
  }
  async getMessageList() {
    return { messages: [], nextCursor: null }
  }
  async sendMessage(): Promise<never> {
    throw new Error('not in this test')
  }
  async setMessageRead() {}
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
jest.mock('../../src/services/chat/timDriver', () => ({ TimChatDriver: jest.fn(() => new MockTencentDriver()) }))

const DOCTOR = 'd_9'
const SDK_APP_ID = 1400000001

const CONSULTATION: ConsultationItem = {
  id: 41,
  orderNo: 'IQ202611220001',
  doctorName: '李明',
  doctorAvatar: '',
  deptName: '心血管内科',
  status: '问诊中',
  lastMessage: '',
  unreadCount: 2,
  conversationID: `C2C${DOCTOR}`,
  updatedAt: '2026-11-22T08:00:00Z',
  hospitalCode: '10412',
  hospitalName: '示范互联网医院',
}

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data } })

/** The server: the chat signature of `driver`, the consultations, and its count of unread messages (`count.unread`). */
function serve(driver: UserSig['driver'], count: { unread: number }) {
  testing.answer(({ url, data }) => {
    const q = (data ?? {}) as Record<string, string>
    if (url === '/dld-im/im/user-sig') {
      return ok({ driver, sdkAppId: driver === 'tim' ? SDK_APP_ID : 0, imAccount: q.imAccount, userSig: 'sig-1', expire: 0 } satisfies UserSig)
    }
    if (url === '/dld-im/im/update-unread-count') return ok({ unreadCount: count.unread })
    if (url === '/dld-hospital/im/patient/record/list') return ok([CONSULTATION])
    return { statusCode: 404, data: '' }
  })
}

const countAsks = () => calls.requests.filter((r) => r.url === '/dld-im/im/update-unread-count').length
/** The number on 我的问诊, as shown and as said; null without a badge. */
const badge = () => {
  const shown = screen.queryByLabelText(/条未读$/)
  return shown && `${shown.textContent} (${shown.getAttribute('aria-label')})`
}

let root: RootStore

/** A tab page of an internet hospital after startup (the chat signature asked) shows its tab bar. */
async function tabPage() {
  root = new RootStore()
  root.hospital.setRole('internet')
  testing.setRouter('/pages/sys/internet/index')
  await root.chat.requestSignature(7)
  render(
    <StoresContext.Provider value={root}>
      <TabBar />
    </StoresContext.Provider>,
  )
}

beforeEach(() => {
  testing.reset()
  jest.spyOn(console, 'warn').mockImplementation(() => undefined)
  jest.spyOn(console, 'info').mockImplementation(() => undefined)
})

afterEach(() => {
  root.chat.dispose()
  jest.restoreAllMocks()
})

test('Tencent IM: the server’s count until a chat page brings the driver, asked again when a tab page shows; then Tencent’s', async () => {
  const server = { unread: 3 }
  serve('tim', server)
  await tabPage()
  expect(TimChatDriver).not.toHaveBeenCalled()
  expect(badge()).toBe('3 (3条未读)')

  // the doctor writes while the patient is in another page; back on the tab page, the badge has it
  server.unread = 5
  act(() => testing.showPage())
  await waitFor(() => expect(badge()).toBe('5 (5条未读)'))

  // the patient opens the room: its page brings Tencent's driver, which attaches and logs in with the signature
  await act(() => import('../../src/platform/imDriver'))
  expect(TimChatDriver).toHaveBeenCalledWith(SDK_APP_ID)
  const tencent = jest.mocked(TimChatDriver).mock.results[0]!.value as MockTencentDriver
  expect(tencent.logins).toEqual(['sig-1'])

  // once ready the counts are Tencent's, merged into the consultations; the server's total is no longer asked
  tencent.conversations = [{ conversationID: `C2C${DOCTOR}`, peer: DOCTOR, unreadCount: 1, lastMessage: null }]
  act(() => tencent.emit('ready', undefined))
  await waitFor(() => expect(badge()).toBe('1 (1条未读)'))
  const asked = countAsks()
  act(() => testing.showPage())
  await act(() => Promise.resolve())
  expect(countAsks()).toBe(asked)
})

test('our own chat service: the badge counts the consultations, as before, and never asks the server’s total', async () => {
  serve('local', { unread: 3 })
  await tabPage()
  expect(badge()).toBeNull()
  // the consultation tab loads the server's list (the socket of this test never opens)
  await act(() => root.chat.conversations.load('10412'))
  expect(badge()).toBe('2 (2条未读)')
  act(() => testing.showPage())
  expect(countAsks()).toBe(0)
})
