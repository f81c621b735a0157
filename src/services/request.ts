import Taro from '@tarojs/taro'
import { MSG } from '@/ui/messages'
import { toastError } from '@/ui/feedback'
import { LOCAL, local } from './storage'
import { decodeBase64, encodeBase64, mapSensitive } from '@/utils/base64'
import { PERMISSION_URL } from '@/pageUrls'

/** spec §9: requests time out after 60 s. */
export const REQUEST_TIMEOUT_MS = 60_000
/** spec §8: the no-permission page at most once every 4 s. */
export const PERMISSION_THROTTLE_MS = 4000

export interface RequestOptions {
  /** JSON body instead of the default form encoding (spec §7: marked calls). */
  json?: boolean
  /** The caller shows its own message: no toast on a business error. */
  silent?: boolean
  /** No loading indicator (spec §7: some calls suppress it). */
  noLoading?: boolean
  /** A 401 is the caller's to handle (renewing the login): no re-authorisation from here. */
  own401?: boolean
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

/**
 * Whether a failed call may still have done its work: no answer behind it (no connection, a timeout, a 5xx) leaves it
 * open; a business refusal (400, 409, 2999 …) says for certain that nothing was done. A retry of the first kind keeps
 * its idempotency key; after the second a new attempt takes a new one.
 */
export const outcomeUnknown = (e: unknown) => !(e instanceof ApiError) || e.code === 0 || (e.code >= 500 && e.code < 600)

interface Envelope<T> {
  code: number
  msg: string
  data: T
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** Set by the user store: 401 re-authorises with the user-info scope (spec §8). */
export const authEvents: { onUnauthorized: () => void } = { onUnauthorized: () => undefined }

let loadingCount = 0
let lastPermissionAt = 0

function showLoading() {
  if (loadingCount++ === 0) void Taro.showLoading({ title: MSG.loading, mask: true })
}

function hideLoading() {
  if (--loadingCount <= 0) {
    loadingCount = 0
    Taro.hideLoading()
  }
}

function goPermission() {
  const now = Date.now()
  if (now - lastPermissionAt < PERMISSION_THROTTLE_MS) return
  lastPermissionAt = now
  void Taro.navigateTo({ url: PERMISSION_URL })
}

function httpErrorText(status: number): string {
  if (status === 404) return MSG.http404
  if (status === 500) return MSG.http500
  return String(status)
}

function formEncode(data: Record<string, unknown>): string {
  return Object.entries(data)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'object' ? JSON.stringify(v) : String(v))}`)
    .join('&')
}

/** The one wrapper around Taro.request: token, encoding, envelope and every error branch of spec §8. */
export async function request<T>(method: Method, url: string, data?: object, opts: RequestOptions = {}): Promise<T> {
  const token = local.get<string>(LOCAL.token)
  const header: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest' }
  if (token) header.Authorization = `Bearer ${token}`
  const payload = data ? mapSensitive(data, encodeBase64) : undefined
  let body: string | object | undefined = payload
  if (payload && method !== 'GET') {
    header['Content-Type'] = opts.json ? 'application/json' : 'application/x-www-form-urlencoded'
    if (!opts.json) body = formEncode(payload as Record<string, unknown>)
  }
  if (!opts.noLoading) showLoading()
  let res: Taro.request.SuccessCallbackResult<Envelope<T> | ''>
  try {
    res = await Taro.request<Envelope<T> | ''>({ url: `${API_BASE}${url}`, method, data: body, header, timeout: REQUEST_TIMEOUT_MS, dataType: 'json' })
  } catch {
    if (!opts.noLoading) hideLoading()
    toastError(MSG.noServer)
    throw new ApiError(0, MSG.noServer)
  }
  if (!opts.noLoading) hideLoading()
  const envelope = res.data
  if (res.statusCode < 200 || res.statusCode >= 300) {
    const msg = envelope && typeof envelope === 'object' && res.statusCode !== 404 && res.statusCode !== 500 ? envelope.msg : httpErrorText(res.statusCode)
    toastError(msg)
    throw new ApiError(res.statusCode, msg)
  }
  if (!envelope || typeof envelope !== 'object') {
    toastError(MSG.noServer)
    throw new ApiError(0, MSG.noServer)
  }
  return settle(envelope, opts)
}

/** spec §8, the envelope's own code: 200 the data; 2999 the no-permission page; 401 sign in again; else its message. */
function settle<T>(envelope: Envelope<T>, opts: RequestOptions): T {
  if (envelope.code === 200) return mapSensitive(envelope.data, decodeBase64)
  if (envelope.code === 2999) {
    goPermission()
  } else if (envelope.code === 401) {
    if (!opts.own401) authEvents.onUnauthorized()
  } else if (!opts.silent) {
    toastError(envelope.msg)
  }
  throw new ApiError(envelope.code, envelope.msg)
}

export const get = <T>(url: string, query?: object, opts?: RequestOptions) => request<T>('GET', url, query, opts)
export const post = <T>(url: string, body?: object, opts?: RequestOptions) => request<T>('POST', url, body, opts)
export const put = <T>(url: string, body?: object, opts?: RequestOptions) => request<T>('PUT', url, body, opts)

/** spec §7 multipart upload (`/dld-file/files-upload`), through the same token and envelope rules. */
export async function upload<T>(url: string, filePath: string): Promise<T> {
  const token = local.get<string>(LOCAL.token)
  showLoading()
  let res: Taro.uploadFile.SuccessCallbackResult
  try {
    res = await Taro.uploadFile({
      url: `${API_BASE}${url}`,
      filePath,
      name: 'file',
      // Alipay's my.uploadFile requires the kind of file (the app uploads pictures only); WeChat and H5 ignore it
      fileType: 'image',
      header: token ? { Authorization: `Bearer ${token}` } : {},
      timeout: REQUEST_TIMEOUT_MS,
    } as Taro.uploadFile.Option)
  } catch {
    toastError(MSG.noServer)
    throw new ApiError(0, MSG.noServer)
  } finally {
    hideLoading()
  }
  let envelope: Envelope<T> | null = null
  try {
    envelope = JSON.parse(res.data) as Envelope<T>
  } catch {
    envelope = null
  }
  if (res.statusCode < 200 || res.statusCode >= 300 || !envelope) {
    const msg = envelope?.msg ?? httpErrorText(res.statusCode)
    toastError(msg)
    throw new ApiError(res.statusCode, msg)
  }
  return settle(envelope, {})
}

/** A query string of the set fields. */
const queryString = (query: Record<string, string | number>) =>
  Object.entries(query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&')

/** A refusal that came instead of the file: the envelope settled as any call's (2999, 401, its message). */
function settleRefusal(text: string, statusCode: number): never {
  let envelope: Envelope<unknown> | null = null
  try {
    envelope = JSON.parse(text) as Envelope<unknown>
  } catch {
    envelope = null
  }
  if (envelope && typeof envelope === 'object' && typeof envelope.code === 'number') settle(envelope, {})
  toastError(httpErrorText(statusCode))
  throw new ApiError(statusCode, httpErrorText(statusCode))
}

/**
 * A file the server hands only to the signed-in patient (a report's PDF), as bytes: with the token like every call,
 * never at an address anyone could open. A refusal (2999, 401) is settled as any call's.
 */
export async function getBytes(url: string, query: Record<string, string | number>, mime: string): Promise<ArrayBuffer> {
  const token = local.get<string>(LOCAL.token)
  const header: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest' }
  if (token) header.Authorization = `Bearer ${token}`
  let res: Taro.request.SuccessCallbackResult<ArrayBuffer>
  try {
    res = await Taro.request<ArrayBuffer>({ url: `${API_BASE}${url}?${queryString(query)}`, method: 'GET', header, timeout: REQUEST_TIMEOUT_MS, responseType: 'arraybuffer', dataType: '其他' })
  } catch {
    toastError(MSG.noServer)
    throw new ApiError(0, MSG.noServer)
  }
  const type = String((res.header as Record<string, string>)['content-type'] ?? (res.header as Record<string, string>)['Content-Type'] ?? '')
  if (res.statusCode === 200 && type.startsWith(mime)) return res.data
  return settleRefusal(new TextDecoder().decode(res.data), res.statusCode)
}

/** The same file downloaded to the phone (a mini-program): its temporary path, for the system's document viewer. */
export async function downloadFile(url: string, query: Record<string, string | number>): Promise<string> {
  const token = local.get<string>(LOCAL.token)
  showLoading()
  let res: Taro.downloadFile.FileSuccessCallbackResult
  try {
    res = await Taro.downloadFile({ url: `${API_BASE}${url}?${queryString(query)}`, header: token ? { Authorization: `Bearer ${token}` } : {} })
  } catch {
    toastError(MSG.noServer)
    throw new ApiError(0, MSG.noServer)
  } finally {
    hideLoading()
  }
  // a refusal (2999, 401) comes as the usual JSON envelope with HTTP 200, like every call's: it is no file to open
  const text = readText(res.tempFilePath)
  if (res.statusCode === 200 && !ENVELOPE_START.test(text.slice(0, 16))) return res.tempFilePath
  return settleRefusal(text, res.statusCode)
}

/** How the server's JSON envelope begins; no PDF or picture does. */
const ENVELOPE_START = /^\s*\{\s*"code"/

/** A downloaded file as text ('' when it cannot be read). */
function readText(path: string): string {
  try {
    return String(Taro.getFileSystemManager().readFileSync(path, 'utf8'))
  } catch {
    return ''
  }
}
