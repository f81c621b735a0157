import { encodeBase64, mapSensitive } from '@/utils/base64'

/** A call as the server receives it: Taro's H5 request has put the query in the URL and encoded the body. */
export interface Call {
  method: string
  path: string
  query: Record<string, string>
  body: Record<string, unknown>
  headers: Record<string, string>
}

/**
 * The server under the app, at the lowest level Taro's H5 request has: `fetch`, which @tarojs/taro-h5 calls for every
 * Taro.request (after its interceptors, with the query in the URL and the body encoded). A route, `'GET /path'`,
 * answers the data of a `{code: 200}` envelope, sent as the real server sends it (sensitive fields base64,
 * src/utils/base64). A call no route answers gets a 404, as from the real server, and is kept in `unanswered`.
 */
export function fakeServer(routes: Record<string, (call: Call) => unknown>) {
  const calls: Call[] = []
  const unanswered: string[] = []
  const fetch = async (url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) => {
    const { pathname, searchParams } = new URL(url, window.location.origin)
    const headers = init.headers ?? {}
    const type = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? ''
    const body = !init.body ? {} : type.includes('json') ? JSON.parse(init.body) : Object.fromEntries(new URLSearchParams(init.body))
    const call: Call = { method: init.method ?? 'GET', path: pathname, query: Object.fromEntries(searchParams), body, headers }
    calls.push(call)
    const route = routes[`${call.method} ${pathname}`] as ((call: Call) => unknown) | undefined
    if (!route) unanswered.push(`${call.method} ${pathname}`)
    const status = route ? 200 : 404
    const reply = route ? { code: 200, msg: 'success', data: mapSensitive(route(call), encodeBase64) } : { code: 404, msg: 'Not Found', data: null }
    return { status, headers: new Map([['content-type', 'application/json']]), json: async () => reply, text: async () => JSON.stringify(reply) }
  }
  return { fetch, calls, unanswered }
}

/** A WebSocket that never opens: the chat service is not part of these tests (test/page drives the chat drivers). */
export class ClosedWebSocket {
  static readonly CONNECTING = 0
  readonly readyState = 0
  onopen: unknown = null
  onmessage: unknown = null
  onclose: unknown = null
  onerror: unknown = null
  constructor(readonly url: string) {}
  send() {}
  close() {}
}
