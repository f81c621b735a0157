/**
 * A small stand-in for @tarojs/taro under jsdom (stack notes: simpler and faster than test-utils-react):
 * storage in memory, requests answered by the test, and every toast, modal and navigation recorded.
 */
import { useEffect, useRef } from 'react'

/** Answers a request; a promise holds the answer back until the test lets it come. */
type Handler = (opts: { url: string; method: string; data: unknown; header: Record<string, string> }) => Answered | Promise<Answered>
type Answered = { statusCode: number; data: unknown }

const storage = new Map<string, unknown>()

export const calls = {
  toasts: [] as { title: string; icon?: string; duration?: number }[],
  navigations: [] as { kind: string; url: string }[],
  /** The confirm modals shown (each is answered 确定). */
  modals: [] as string[],
  loading: 0,
  requests: [] as { url: string; method: string; data: unknown; header: Record<string, string> }[],
  uploads: [] as { url: string; filePath: string; name: string; fileType?: string; header: Record<string, string> }[],
  /** wx.login calls (the WeChat mini-program's sign-in code). */
  logins: 0,
  /** Taro.scanCode calls, with their options. */
  scans: [] as { scanType?: string[] }[],
  /** Taro.vibrateShort calls. */
  vibrations: 0,
}

/** A socket the app opened (Taro.connectSocket): it opens when the test says so, records what the app sent, and takes pushes. */
export interface SocketDouble {
  url: string
  sent: Record<string, unknown>[]
  closed: boolean
  open(): void
  receive(frame: unknown): void
}
const sockets: SocketDouble[] = []

function socketDouble(url: string) {
  const on = { open: [] as (() => void)[], message: [] as ((m: { data: string }) => void)[], close: [] as ((c: { code: number; reason: string }) => void)[] }
  const double: SocketDouble = {
    url,
    sent: [],
    closed: false,
    open: () => on.open.forEach((fn) => fn()),
    receive: (frame) => on.message.forEach((fn) => fn({ data: JSON.stringify(frame) })),
  }
  sockets.push(double)
  return {
    onOpen: (fn: () => void) => void on.open.push(fn),
    onMessage: (fn: (m: { data: string }) => void) => void on.message.push(fn),
    onClose: (fn: (c: { code: number; reason: string }) => void) => void on.close.push(fn),
    onError() {},
    send: ({ data }: { data: string }) => void double.sent.push(JSON.parse(data) as Record<string, unknown>),
    close: (o: { code?: number } = {}) => {
      if (double.closed) return
      double.closed = true
      on.close.forEach((fn) => fn({ code: o.code ?? 1000, reason: '' }))
    },
  }
}

let handler: Handler = () => ({ statusCode: 200, data: { code: 200, msg: 'success', data: null } })
type UploadHandler = (opts: { url: string; filePath: string }) => { statusCode: number; data: string }
const defaultUpload: UploadHandler = () => ({ statusCode: 200, data: JSON.stringify({ code: 200, msg: 'success', data: null }) })
let uploadHandler = defaultUpload
let routerState: { path: string; params: Record<string, string> } = { path: '/pages/sys/index', params: {} }
/** A mini-program's scanner (Taro.scanCode): what the test has it read, or how it fails (the patient closing it). */
type ScanHandler = (opts: { scanType?: string[] }) => { result: string; path?: string }
const noScanner: ScanHandler = () => {
  throw { errMsg: 'scanCode:fail no scanner in this test' }
}
let scanHandler = noScanner
/** The page's answer to a mini-program's share menu (useShareAppMessage): the last one a rendered page gave. */
let shareHandler: (() => unknown) | null = null
/** The functions of useDidShow / useDidHide of the pages on screen. */
const pageHooks = { show: new Set<() => void>(), hide: new Set<() => void>() }

export const testing = {
  answer(h: Handler) {
    handler = h
  },
  /** Answers Taro.uploadFile (its body is text, as in the mini-programs). */
  answerUpload(h: UploadHandler) {
    uploadHandler = h
  },
  setRouter(path: string, params: Record<string, string> = {}) {
    routerState = { path, params }
  },
  /** Answers Taro.scanCode: the code the camera reads, or a thrown failure (`{ errMsg: 'scanCode:fail cancel' }`). */
  answerScan(h: ScanHandler) {
    scanHandler = h
  },
  /** The patient opens the share menu: what the page answers (its title and path), undefined if it has no answer. */
  openShareMenu: () => shareHandler?.(),
  /** The page is hidden behind another (navigateTo) or shown again (navigateBack to it): useDidHide / useDidShow. */
  hidePage: () => pageHooks.hide.forEach((fn) => fn()),
  showPage: () => pageHooks.show.forEach((fn) => fn()),
  /** The sockets the app opened, oldest first. */
  sockets: () => sockets,
  reset() {
    storage.clear()
    calls.toasts.length = 0
    calls.navigations.length = 0
    calls.modals.length = 0
    calls.requests.length = 0
    calls.loading = 0
    calls.logins = 0
    calls.uploads.length = 0
    uploadHandler = defaultUpload
    scanHandler = noScanner
    shareHandler = null
    calls.scans.length = 0
    calls.vibrations = 0
    sockets.length = 0
    listeners.clear()
  },
}

/** Taro's event centre: on, once, off and trigger, in memory. */
const listeners = new Map<string, ((...args: unknown[]) => void)[]>()
const eventCenter = {
  on(name: string, fn: (...args: unknown[]) => void) {
    listeners.set(name, [...(listeners.get(name) ?? []), fn])
  },
  once(name: string, fn: (...args: unknown[]) => void) {
    const wrapped = (...args: unknown[]) => {
      eventCenter.off(name, wrapped)
      fn(...args)
    }
    eventCenter.on(name, wrapped)
  },
  off(name: string, fn: (...args: unknown[]) => void) {
    listeners.set(name, (listeners.get(name) ?? []).filter((f) => f !== fn))
  },
  trigger(name: string, ...args: unknown[]) {
    for (const fn of listeners.get(name) ?? []) fn(...args)
  },
}

const nav = (kind: string) => async ({ url }: { url: string }) => {
  calls.navigations.push({ kind, url })
}

const Taro = {
  eventCenter,
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
  /** A mini-program's map picker: the patient chooses this place (the tests of H5 never call it). */
  chooseLocation: async () => ({ latitude: 22.543096, longitude: 114.057865, name: '市民中心', address: '广东省深圳市福田区福中三路' }),
  openLocation: async (o: unknown) => void calls.navigations.push({ kind: 'openLocation', url: JSON.stringify(o) }),
  /** A phone with a 44 px status bar and WeChat's capsule menu button at its usual place (375 px wide). */
  getSystemInfoSync: () => ({ statusBarHeight: 44, windowWidth: 375, windowHeight: 812, pixelRatio: 3 }),
  getMenuButtonBoundingClientRect: () => ({ top: 48, bottom: 80, left: 281, right: 368, width: 87, height: 32 }),
  login: async () => ({ code: `wx-login-${++calls.logins}`, errMsg: 'login:ok' }),
  getCurrentPages: () => [{ route: routerState.path.slice(1), options: routerState.params }],
  async request(opts: { url: string; method: string; data: unknown; header: Record<string, string> }) {
    calls.requests.push(opts)
    return handler(opts)
  },
  async uploadFile(opts: { url: string; filePath: string; name: string; fileType?: string; header: Record<string, string> }) {
    calls.uploads.push(opts)
    return uploadHandler(opts)
  },
  chooseImage: async () => ({ tempFilePaths: [] }),
  async scanCode(opts: { scanType?: string[] }) {
    calls.scans.push(opts)
    return scanHandler(opts)
  },
  /** A socket that opens only when the test opens it (testing.sockets()): the chat driver has its own tests. */
  connectSocket: async (o: { url: string }) => socketDouble(o.url),
  async vibrateShort() {
    calls.vibrations += 1
  },
}

/** A page lifecycle hook as Taro's: the page's latest function, from mount to unmount. */
function pageHook(kind: keyof typeof pageHooks) {
  return (fn: () => void) => {
    const latest = useRef(fn)
    latest.current = fn
    useEffect(() => {
      const call = () => latest.current()
      pageHooks[kind].add(call)
      return () => void pageHooks[kind].delete(call)
    }, [])
  }
}

export const useRouter = () => routerState
export const useReachBottom = () => undefined
export const useDidShow = pageHook('show')
export const useDidHide = pageHook('hide')
export const useShareAppMessage = (fn: () => unknown) => {
  shareHandler = fn
}

export default Taro
