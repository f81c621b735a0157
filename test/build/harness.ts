/**
 * Runs a COMPILED mini-program (dist/weapp or dist/alipay, as `npx taro build --type weapp|alipay` leaves it) in Node,
 * the way WeChat / Alipay would: each load gets a fresh `vm` context whose globals are what the mini-program framework
 * provides — the `wx` or `my` API object, App / Page / Component / getApp / getCurrentPages / requirePlugin — and a
 * CommonJS `require` over the output folder. Taro's runtime boots as on a phone: app.js calls App(), a page's .js calls
 * Page() with its lifecycle functions, and React renders by calling `setData` on the page with Taro's node tree.
 *
 * Every platform call is recorded in order (`calls`), every request too (`requests`, answered by the test's `answer`
 * function, asynchronously as the real `wx.request` is), and API names the stand-ins lack are listed in `missing`
 * (the call fails soft: its `fail` callback runs). Navigations (navigateTo, redirectTo, reLaunch, navigateBack) really
 * change the page stack and open the target page, so a test sees where the app leads.
 *
 * Values handed to the app are made inside the sandbox (its own Object/Array), and everything recorded for the test is
 * copied back out as plain data, so `assert.deepEqual` works on it. An error thrown in the app's callbacks or timers, or
 * written with console.error (React's way of reporting a render error), lands in `errors`; an unhandled promise
 * rejection fails the running node:test test.
 *
 * Not modelled: the .wxml/.axml templates (text() reads the data tree they would draw), events and taps, timers
 * longer than 50 ms (settle() does not wait for them; they never keep the process alive), a socket that opens.
 */
import { readFileSync } from 'node:fs'
import { dirname, join, posix, relative, resolve } from 'node:path'
import vm from 'node:vm'

export type MiniPlatform = 'weapp' | 'alipay'

export interface MiniRequest {
  url: string
  /** 'GET', 'POST' …; 'UPLOAD' for uploadFile and 'SOCKET' for connectSocket */
  method: string
  data: unknown
  header: Record<string, string>
}

export interface MiniAnswer {
  statusCode: number
  data?: unknown
}

/** The test's server: answers each request (a thrown error or a rejected promise is a network failure). */
export type Answer = (req: MiniRequest) => MiniAnswer | Promise<MiniAnswer>

/** One platform call: the API's name, its arguments (functions left out) and what it answered (returned or gave `success`). */
export interface MiniCall {
  api: string
  args: unknown[]
  result?: unknown
}

/** Taro's rendered node: `nn` the node name (a number for Taro's aliased components), `v` a text node's text. */
export interface MiniNode {
  nn?: string | number
  v?: string
  cn?: MiniNode[]
  [prop: string]: unknown
}

export interface MiniPage {
  route: string
  options: Record<string, string>
  data: { root?: MiniNode; [key: string]: unknown }
  /** how many times the app called setData on it */
  renders: number
}

export interface MiniProgram {
  platform: MiniPlatform
  dir: string
  /** app.json: the main package's pages and the subpackages */
  appJson: {
    pages: string[]
    subPackages?: { root: string; pages: string[] }[]
    subpackages?: { root: string; pages: string[] }[]
    tabBar?: { list: { pagePath: string }[] }
    requiredPrivateInfos?: string[]
  }
  /** every page of app.json, subpackage pages with their root */
  allPages(): string[]
  calls: MiniCall[]
  requests: MiniRequest[]
  /** wx / my APIs the app used that this harness has no stand-in for */
  missing: string[]
  /** errors thrown in the sandbox's timers and callbacks (on a phone: App.onError), and console.error's texts */
  errors: unknown[]
  /** what the app wrote to the console */
  logs: { level: string; text: string }[]
  storage: Map<string, unknown>
  /** the page stack, top last */
  pages(): MiniPage[]
  current(): MiniPage | undefined
  /** Requires the page's .js and answers the options it gave Page() / Component() (throws if it gave none). */
  load(route: string): Record<string, unknown>
  /**
   * Launches the app (once: App's onLaunch / onShow) and opens `route` as reLaunch would (the stack is just that page),
   * then waits until the app has settled. `follow: false` keeps later navigations from changing the page.
   */
  open(route: string, query?: Record<string, string>): Promise<void>
  /** Waits until no request, navigation, callback or short timer is pending. */
  settle(timeoutMs?: number): Promise<void>
  /** The patient goes back (the navigation bar's back arrow, the system's back gesture): navigateBack, then settle(). */
  back(): Promise<void>
  /** The text values of the current page's rendered tree, in order, trimmed, empty ones left out. */
  text(): string[]
  /** Navigations follow (default) or are only recorded. */
  follow: boolean
}

const ROOT = join(__dirname, '..', '..')
/** A phone's screen (the browser tests use 390x844 too). */
const SCREEN = { width: 390, height: 844, statusBar: 47, pixelRatio: 3 }
/** Timers up to this long are waited for by settle(); longer ones (placeholders, time-outs, reconnects) are not. */
const SHORT_TIMER_MS = 50

/** Each file compiled once per test process, as a CommonJS module function, and run in every new context. */
const scripts = new Map<string, vm.Script>()
function scriptFor(file: string): vm.Script {
  let script = scripts.get(file)
  if (!script) {
    script = new vm.Script(`(function (module, exports, require, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`, { filename: file })
    scripts.set(file, script)
  }
  return script
}

/** A plain copy for the test's side: functions left out, undefined kept out of JSON's way. */
function plain(value: unknown): unknown {
  const json = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'function' ? undefined : v))
  return json === undefined ? undefined : (JSON.parse(json) as unknown)
}

/** `root.cn.[0].v`, `root.cn[0]`, `i.cn.[2]` → ['root', 'cn', 0, 'v'] */
function dataPath(key: string): (string | number)[] {
  return [...key.matchAll(/\[(\d+)\]|[^.[\]]+/g)].map((m) => (m[1] !== undefined ? Number(m[1]) : m[0]))
}

/** setData as the platforms do it: each key a path into `data`, made as needed. */
function setPath(data: Record<string, unknown>, key: string, value: unknown) {
  const path = dataPath(key)
  let at: Record<string | number, unknown> = data
  path.slice(0, -1).forEach((step, i) => {
    if (at[step] === null || typeof at[step] !== 'object') at[step] = typeof path[i + 1] === 'number' ? [] : {}
    at = at[step] as Record<string | number, unknown>
  })
  at[path[path.length - 1]!] = value
}

/** A console argument as text (an error from the sandbox is no instance of this side's Error). */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof (value as Error | undefined)?.stack === 'string') return (value as Error).stack!
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

function textsOf(node: MiniNode | undefined, out: string[] = []): string[] {
  if (!node) return out
  if (typeof node.v === 'string' && node.v.trim()) out.push(node.v.trim())
  node.cn?.forEach((child) => textsOf(child, out))
  return out
}

function parseUrl(url: string, from: string | undefined): { route: string; query: Record<string, string> } {
  const [path = '', search = ''] = url.split('?')
  // a relative URL is relative to the current page's folder
  const route = path.startsWith('/') ? path.slice(1) : posix.join(posix.dirname(from ?? ''), path)
  // as on the phone, values reach onLoad as they are in the URL (not decoded)
  const query = Object.fromEntries(search.split('&').filter(Boolean).map((kv) => [kv.split('=')[0]!, kv.split('=').slice(1).join('=')]))
  return { route, query }
}

export function loadMiniProgram(platform: MiniPlatform, answer: Answer): MiniProgram {
  // resolve, not join: BUILD_ROOT may be an absolute folder (/tmp/...), as config/index.ts and the other tests take it
  const dir = resolve(ROOT, process.env.BUILD_ROOT ?? 'dist', platform)
  const appJson = JSON.parse(readFileSync(join(dir, 'app.json'), 'utf8')) as MiniProgram['appJson']
  const allPages = () => [
    ...appJson.pages,
    ...(appJson.subPackages ?? appJson.subpackages ?? []).flatMap((p) => p.pages.map((page) => `${p.root}/${page}`)),
  ]
  const calls: MiniCall[] = []
  /** the call being made, for its asynchronous answer to be recorded on */
  let calling: MiniCall | undefined
  const requests: MiniRequest[] = []
  const missing: string[] = []
  const errors: unknown[] = []
  const logs: { level: string; text: string }[] = []
  const storage = new Map<string, unknown>()

  // ---- pending work, for settle(): requests in flight, callbacks and navigations queued, short timers
  let pending = 0
  const shortTimers = new Set<NodeJS.Timeout>()
  /** Runs `fn` later, as the platform runs callbacks; an error in it is the app's, recorded. */
  function later(fn: () => unknown) {
    pending++
    setImmediate(() => {
      pending--
      guard(fn)
    })
  }
  function guard(fn: () => unknown) {
    try {
      // (a promise made in the sandbox is no instance of this side's Promise)
      const result = fn() as Promise<unknown> | undefined
      if (typeof result?.then === 'function') {
        pending++
        result.then(
          () => pending--,
          (e: unknown) => {
            pending--
            errors.push(e)
          },
        )
      }
    } catch (e) {
      errors.push(e)
    }
  }

  // ---- the sandbox
  const context = vm.createContext({})
  /** Makes a value inside the sandbox (its own Object and Array), as the platform hands the app its results. */
  const sandboxJson = vm.runInContext('JSON', context) as JSON
  const inner = <T>(value: T): T => (value === undefined ? value : (sandboxJson.parse(JSON.stringify(value)) as T))

  type Options = Record<string, unknown> & {
    success?: (res: unknown) => void
    fail?: (res: unknown) => void
    complete?: (res: unknown) => void
  }
  /** Answers an async API call: success or fail, then complete, a moment later. */
  function reply(api: string, options: Options | undefined, result: Record<string, unknown> | Error, record = calling) {
    later(() => {
      const failed = result instanceof Error
      const res = inner(failed ? { errMsg: `${api}:fail ${result.message}`, error: 1, errorMessage: result.message } : { errMsg: `${api}:ok`, ...result })
      if (record) record.result = plain(res)
      if (failed) options?.fail?.(res)
      else options?.success?.(res)
      options?.complete?.(res)
    })
  }

  // ---- requests, answered by the test
  let requestNo = 0
  function serve(api: string, options: Options, req: MiniRequest) {
    requests.push(plain(req) as MiniRequest)
    const record = calling
    const id = ++requestNo
    pending++
    setImmediate(() => {
      Promise.resolve()
        .then(() => answer(plain(req) as MiniRequest))
        .then(
          (res) => {
            // Alipay answers `status` and `headers` where WeChat has statusCode and header (Taro maps them back)
            const result = platform === 'alipay' ? { status: res.statusCode, headers: {}, data: res.data } : { statusCode: res.statusCode, header: {}, data: res.data }
            if (api === 'uploadFile') result.data = JSON.stringify(res.data)
            return result
          },
          (e: unknown) => new Error(e instanceof Error ? e.message : String(e)),
        )
        .then((result) => {
          pending--
          reply(api, options, result, record)
        })
    })
    return { requestId: id, abort() {}, onHeadersReceived() {}, offHeadersReceived() {}, onProgressUpdate() {}, offProgressUpdate() {} }
  }

  // ---- the page stack and navigation
  type Instance = MiniPage & Record<string, unknown>
  /** the options each page's / component's .js gave Page() or Component(), by path */
  const registered = new Map<string, Record<string, unknown>>()
  const defined = new Set<string>()
  let registering: string | null = null
  const stack: Instance[] = []
  let app: Record<string, (o?: unknown) => void> | null = null
  let launched = false

  /** app.js first, as on the phone: it loads Taro's runtime, which the pages' code waits for, and calls App(). */
  function boot() {
    if (!app) requireFile(join(dir, 'app.js'))
    if (!app) throw new Error('app.js did not call App()')
    return app
  }

  function register(kind: string) {
    return (options: Record<string, unknown>) => {
      if (!registering) throw new Error(`${kind}() called outside a page's .js`)
      registered.set(registering, options)
    }
  }

  /** Requires a page's or component's .js once, after the components its .json uses, as the framework does. */
  function define(path: string) {
    if (defined.has(path)) return // (Taro's recursive `comp` uses itself)
    defined.add(path)
    const json = JSON.parse(readFileSync(join(dir, `${path}.json`), 'utf8')) as { usingComponents?: Record<string, string> }
    for (const used of Object.values(json.usingComponents ?? {})) {
      define(used.startsWith('/') ? used.slice(1) : posix.join(posix.dirname(path), used))
    }
    registering = path
    try {
      requireFile(join(dir, `${path}.js`))
    } finally {
      registering = null
    }
    if (!registered.has(path)) throw new Error(`${path}.js called neither Page() nor Component()`)
  }

  function load(route: string) {
    boot()
    define(route)
    return registered.get(route)!
  }

  /** A page instance as the framework makes one: the options' functions (a Component's methods) and a copy of data. */
  function instantiate(route: string, query: Record<string, string>): Instance {
    const options = load(route)
    const page = {
      ...options,
      ...(options.methods as object | undefined),
      route,
      __route__: route,
      options: inner(query),
      data: inner(options.data ?? {}) as MiniPage['data'],
      renders: 0,
      setData(update: Record<string, unknown>, callback?: () => void) {
        page.renders++
        for (const [key, value] of Object.entries(update)) setPath(page.data, key, plain(value))
        if (callback) later(callback)
      },
    } as Instance
    return page
  }

  function call(page: Instance | undefined, hook: string, arg?: unknown) {
    const fn = page?.[hook]
    if (typeof fn === 'function') (fn as (a?: unknown) => void).call(page, arg)
  }

  function show(route: string, query: Record<string, string>) {
    const page = instantiate(route, query)
    stack.push(page)
    call(page, 'onLoad', inner(query))
    call(page, 'onShow')
    call(page, 'onReady')
  }

  /** navigateTo / redirectTo / reLaunch / switchTab / navigateBack, as the framework does them. */
  function navigate(api: string, options: Options) {
    if (api === 'navigateBack') {
      const delta = Math.max(1, Number(options.delta ?? 1))
      if (harness.follow) {
        for (let i = 0; i < delta && stack.length > 1; i++) call(stack.pop(), 'onUnload')
        call(stack[stack.length - 1], 'onShow')
      }
      return reply(api, options, {})
    }
    const { route, query } = parseUrl(String(options.url ?? ''), stack[stack.length - 1]?.route)
    if (!allPages().includes(route)) return reply(api, options, new Error(`page "${route}" is not found`))
    // switchTab only goes to a page of app.json's tabBar (the app draws its own tab bar and declares none)
    if (api === 'switchTab' && !appJson.tabBar?.list.some((tab) => tab.pagePath === route)) {
      return reply(api, options, new Error(`can not switch to no-tabBar page "${route}"`))
    }
    if (harness.follow) {
      later(() => {
        if (api === 'reLaunch' || api === 'switchTab') while (stack.length) call(stack.pop(), 'onUnload')
        else if (api === 'redirectTo') call(stack.pop(), 'onUnload')
        else call(stack[stack.length - 1], 'onHide')
        show(route, query)
      })
    }
    reply(api, options, {})
  }

  // ---- the wx / my stand-ins
  let codeNo = 0
  const systemInfo = {
    brand: 'iPhone',
    model: 'iPhone 14',
    platform: 'ios',
    system: 'iOS 17.0',
    language: 'zh_CN',
    version: '8.0.50',
    SDKVersion: '3.5.0',
    pixelRatio: SCREEN.pixelRatio,
    screenWidth: SCREEN.width,
    screenHeight: SCREEN.height,
    windowWidth: SCREEN.width,
    windowHeight: SCREEN.height,
    statusBarHeight: SCREEN.statusBar,
    safeArea: { left: 0, right: SCREEN.width, top: SCREEN.statusBar, bottom: SCREEN.height - 34, width: SCREEN.width, height: SCREEN.height - SCREEN.statusBar - 34 },
  }
  const readKey = (k: unknown) => (platform === 'alipay' ? (k as { key: string }).key : (k as string))
  const stored = (key: string) => (storage.has(key) ? inner(storage.get(key)) : undefined)
  const apis: Record<string, (...args: never[]) => unknown> = {
    // storage: WeChat takes (key, data) and answers '' for a missing key; Alipay takes { key, data } and answers { data }
    getStorageSync: (k: unknown) => (platform === 'alipay' ? inner({ data: stored(readKey(k)) ?? null }) : (stored(readKey(k)) ?? '')),
    setStorageSync: (k: unknown, data?: unknown) => void storage.set(readKey(k), plain(platform === 'alipay' ? (k as { data: unknown }).data : data)),
    removeStorageSync: (k: unknown) => void storage.delete(readKey(k)),
    getStorage: (o: Options) => reply('getStorage', o, storage.has(o.key as string) ? { data: stored(o.key as string) } : new Error('data not found')),
    setStorage: (o: Options) => reply('setStorage', o, (storage.set(o.key as string, plain(o.data)), {})),
    removeStorage: (o: Options) => reply('removeStorage', o, (storage.delete(o.key as string), {})),
    // device
    getSystemInfoSync: () => inner(systemInfo),
    ...Object.fromEntries(['getWindowInfo', 'getDeviceInfo', 'getAppBaseInfo'].map((name) => [name, () => inner(systemInfo)])),
    getMenuButtonBoundingClientRect: () => inner({ width: 87, height: 32, top: 51, bottom: 83, left: 293, right: 380 }),
    getAccountInfoSync: () => inner({ miniProgram: { appId: 'wxdemo0000000000', envVersion: 'develop', version: '' } }),
    canIUse: () => true,
    nextTick: (fn: () => void) => later(fn),
    getNetworkType: (o: Options) => reply('getNetworkType', o, { networkType: 'wifi' }),
    onNetworkStatusChange: () => undefined,
    offNetworkStatusChange: () => undefined,
    // sign-in codes
    login: (o: Options) => reply('login', o, { code: `wx-login-code-${++codeNo}` }),
    getAuthCode: (o: Options) => reply('getAuthCode', o, { authCode: `alipay-auth-code-${++codeNo}` }),
    // network
    request: (o: Options) =>
      serve('request', o, { url: String(o.url), method: String(o.method ?? 'GET').toUpperCase(), data: o.data, header: (o.header ?? o.headers ?? {}) as Record<string, string> }),
    uploadFile: (o: Options) =>
      serve('uploadFile', o, { url: String(o.url), method: 'UPLOAD', data: { filePath: o.filePath, name: o.name ?? o.fileName }, header: (o.header ?? {}) as Record<string, string> }),
    // a socket that never opens (the test's server has no chat service); Taro gives an Alipay socket the global
    // my.onSocketOpen … handlers, a WeChat one the task's own
    connectSocket: (o: Options) => {
      requests.push({ url: String(o.url), method: 'SOCKET', data: undefined, header: {} })
      reply('connectSocket', o, {})
      return { onOpen() {}, onMessage() {}, onClose() {}, onError() {}, send() {}, close() {} }
    },
    ...Object.fromEntries(['onSocketOpen', 'onSocketMessage', 'onSocketClose', 'onSocketError', 'sendSocketMessage', 'closeSocket'].map((name) => [name, () => undefined])),
    // interface
    showToast: (o: Options) => reply('showToast', o, {}),
    hideToast: (o?: Options) => reply('hideToast', o, {}),
    showLoading: (o: Options) => reply('showLoading', o, {}),
    hideLoading: (o?: Options) => reply('hideLoading', o, {}),
    showModal: (o: Options) => reply('showModal', o, { confirm: true, cancel: false }),
    alert: (o: Options) => reply('alert', o, {}),
    confirm: (o: Options) => reply('confirm', o, { confirm: true }),
    navigateTo: (o: Options) => navigate('navigateTo', o),
    redirectTo: (o: Options) => navigate('redirectTo', o),
    reLaunch: (o: Options) => navigate('reLaunch', o),
    switchTab: (o: Options) => navigate('switchTab', o),
    navigateBack: (o: Options) => navigate('navigateBack', o ?? {}),
    // device features the pages use; WeChat refuses the location to an app whose app.json does not declare it
    getLocation: (o: Options) =>
      reply('getLocation', o, platform === 'weapp' && !appJson.requiredPrivateInfos?.includes('getLocation') ? new Error('requiredPrivateInfos lacks getLocation') : { latitude: 31.2304, longitude: 121.4737 }),
    chooseImage: (o: Options) => reply('chooseImage', o, { tempFilePaths: ['wxfile://tmp/photo.jpg'], apFilePaths: ['wxfile://tmp/photo.jpg'] }),
  }
  // names the sandbox reads as data, not as API calls: a made-up function for them would break the app
  const NOT_APIS = new Set(['webpackJsonp', 'taroEventCenter', 'env', 'cloud', 'then', 'toJSON', 'constructor'])
  const api = new Proxy({} as Record<string, unknown>, {
    get(target, name) {
      if (typeof name !== 'string' || name in target || NOT_APIS.has(name)) return target[name as string]
      // an API without a stand-in: recorded, and it fails soft
      return (options?: Options) => {
        const record: MiniCall = { api: name, args: [plain(options)] }
        calls.push(record)
        missing.push(name)
        reply(name, options, new Error('no stand-in in test/build/harness.ts'), record)
      }
    },
  })
  for (const [name, fn] of Object.entries(apis)) {
    api[name] = (...args: never[]) => {
      const record: MiniCall = { api: name, args: args.map(plain) }
      calls.push((calling = record))
      try {
        const result = fn(...args)
        if (result !== undefined) record.result = plain(result)
        return result
      } finally {
        calling = undefined
      }
    }
  }

  // ---- globals of the mini-program framework
  const sandboxConsole = Object.fromEntries(
    ['log', 'info', 'warn', 'error', 'debug'].map((level) => [
      level,
      (...args: unknown[]) => {
        const text = args.map(textOf).join(' ')
        logs.push({ level, text })
        // React reports an error in a render this way, and catches it
        if (level === 'error') errors.push(text)
        // Taro's stand-in for an API the platform object lacks: 小程序暂不支持 <name>
        const unsupported = /^小程序暂不支持 (\w+)/.exec(text)
        if (unsupported) missing.push(unsupported[1]!)
        if (process.env.MINI_HARNESS_DEBUG) console.log(`[${platform} ${level}]`, ...args)
      },
    ]),
  )
  const timer = (delay = 0, fn: () => void, set: (f: () => void, d: number) => NodeJS.Timeout) => {
    const short = delay <= SHORT_TIMER_MS
    const t = set(() => {
      shortTimers.delete(t)
      guard(fn)
    }, delay)
    if (short) shortTimers.add(t)
    // the app's timers (60 s load time-outs, chat reconnects …) must not keep the test process alive
    return t.unref()
  }
  Object.assign(context, {
    [platform === 'weapp' ? 'wx' : 'my']: api,
    // Alipay's JS engine has a navigator (Taro's Alipay runtime reads its userAgent); WeChat's has none
    ...(platform === 'alipay' ? { navigator: { userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AlipayClient/10.5.0' } } : {}),
    console: sandboxConsole,
    setTimeout: (fn: () => void, delay?: number, ...args: unknown[]) => timer(delay, () => (fn as (...a: unknown[]) => void)(...args), setTimeout),
    clearTimeout: (t: NodeJS.Timeout) => {
      shortTimers.delete(t)
      clearTimeout(t)
    },
    setInterval: (fn: () => void, delay?: number) => setInterval(() => guard(fn), delay).unref(),
    clearInterval: (t: NodeJS.Timeout) => clearInterval(t),
    App: (options: Record<string, (o?: unknown) => void>) => {
      app = options
    },
    Page: register('Page'),
    Component: register('Component'),
    getApp: () => app,
    getCurrentPages: () => [...stack],
    requirePlugin: (name: string) => {
      throw new Error(`requirePlugin('${name}'): no plugins in this harness`)
    },
  })

  // ---- CommonJS over the output folder, with a fresh cache for this load
  const modules = new Map<string, { exports: unknown }>()
  function requireFile(file: string): unknown {
    const path = file.endsWith('.js') ? file : `${file}.js`
    if (relative(dir, path).startsWith('..')) throw new Error(`require('${path}') leaves ${dir}`)
    const known = modules.get(path)
    if (known) return known.exports
    const module = { exports: {} as unknown }
    modules.set(path, module)
    const fn = scriptFor(path).runInContext(context) as (...a: unknown[]) => void
    fn.call(module.exports, module, module.exports, (p: string) => requireFile(resolve(dirname(path), p)), path, dirname(path))
    return module.exports
  }

  async function settle(timeoutMs = 5000) {
    const deadline = Date.now() + timeoutMs
    // quiet for a few turns in a row: a callback may queue the next piece of work
    for (let quiet = 0; quiet < 3; ) {
      await new Promise((r) => setTimeout(r, 1))
      quiet = pending === 0 && shortTimers.size === 0 ? quiet + 1 : 0
      if (Date.now() > deadline) {
        throw new Error(`${platform}: still busy after ${timeoutMs} ms (${pending} callbacks/requests, ${shortTimers.size} timers); last calls: ${calls.slice(-5).map((c) => c.api).join(', ')}`)
      }
    }
  }

  const harness: MiniProgram = {
    platform,
    dir,
    appJson,
    allPages,
    calls,
    requests,
    missing,
    errors,
    logs,
    storage,
    follow: true,
    pages: () => stack,
    current: () => stack[stack.length - 1],
    load,
    async open(route, query = {}) {
      const app = boot()
      if (!launched) {
        launched = true
        const launch = inner({ path: route, query, scene: 1001, referrerInfo: {} })
        app.onLaunch?.call(app, launch)
        app.onShow?.call(app, launch)
      }
      while (stack.length) call(stack.pop(), 'onUnload')
      show(route, query)
      await settle()
    },
    settle,
    async back() {
      navigate('navigateBack', {})
      await settle()
    },
    text: () => textsOf(harness.current()?.data.root),
  }
  return harness
}
