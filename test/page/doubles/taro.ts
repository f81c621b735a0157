/**
 * A small stand-in for @tarojs/taro under jsdom (stack notes: simpler and faster than test-utils-react):
 * storage in memory, requests answered by the test, and every toast, modal and navigation recorded.
 */
type Handler = (opts: { url: string; method: string; data: unknown; header: Record<string, string> }) => { statusCode: number; data: unknown }

const storage = new Map<string, unknown>()

export const calls = {
  toasts: [] as { title: string; icon?: string; duration?: number }[],
  navigations: [] as { kind: string; url: string }[],
  /** The confirm modals shown (each is answered 确定). */
  modals: [] as string[],
  loading: 0,
  requests: [] as { url: string; method: string; data: unknown; header: Record<string, string> }[],
  /** wx.login calls (the WeChat mini-program's sign-in code). */
  logins: 0,
}

let handler: Handler = () => ({ statusCode: 200, data: { code: 200, msg: 'success', data: null } })
let routerState: { path: string; params: Record<string, string> } = { path: '/pages/sys/index', params: {} }

export const testing = {
  answer(h: Handler) {
    handler = h
  },
  setRouter(path: string, params: Record<string, string> = {}) {
    routerState = { path, params }
  },
  reset() {
    storage.clear()
    calls.toasts.length = 0
    calls.navigations.length = 0
    calls.modals.length = 0
    calls.requests.length = 0
    calls.loading = 0
    calls.logins = 0
  },
}

const nav = (kind: string) => async ({ url }: { url: string }) => {
  calls.navigations.push({ kind, url })
}

const Taro = {
  getStorageSync: (k: string) => (storage.has(k) ? storage.get(k) : ''),
  setStorageSync: (k: string, v: unknown) => void storage.set(k, v),
  removeStorageSync: (k: string) => void storage.delete(k),
  showToast: async (o: { title: string; icon?: string; duration?: number }) => void calls.toasts.push(o),
  showLoading: async () => void calls.loading++,
  hideLoading: () => undefined,
  showModal: async (o: { content?: string }) => (calls.modals.push(o.content ?? ''), { confirm: true, cancel: false }),
  navigateTo: nav('navigateTo'),
  redirectTo: nav('redirectTo'),
  reLaunch: nav('reLaunch'),
  navigateBack: async () => void calls.navigations.push({ kind: 'navigateBack', url: '' }),
  login: async () => ({ code: `wx-login-${++calls.logins}`, errMsg: 'login:ok' }),
  getCurrentPages: () => [{ route: routerState.path.slice(1), options: routerState.params }],
  async request(opts: { url: string; method: string; data: unknown; header: Record<string, string> }) {
    calls.requests.push(opts)
    return handler(opts)
  },
  uploadFile: async () => ({ statusCode: 200, data: JSON.stringify({ code: 200, msg: 'success', data: null }) }),
  chooseImage: async () => ({ tempFilePaths: [] }),
  /** A socket that never opens: pages under test have no chat service (the driver has its own tests). */
  connectSocket: async (_o: { url: string }) => ({ onOpen() {}, onMessage() {}, onClose() {}, onError() {}, send() {}, close() {} }),
}

export const useRouter = () => routerState
export const useReachBottom = () => undefined
export const useDidShow = () => undefined

export default Taro
