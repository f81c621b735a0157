import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { hmacHex } from '../../server/src/crypto'
import { QUEUE_CHANNEL } from '../../server/src/domain/queue'
import { startTestApp, type TestApp } from './harness'

const URL = '/dld-his/callback/queue-call'
const H = '10392'
const cfg = { url: 'http://127.0.0.1:9', appId: 'his-app', secret: 'his-callback-secret' }

let t: TestApp
let heard: string[] = []
let stop: () => Promise<void>

const callBody = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ hospitalCode: H, place: '门诊西药房', window: '3号窗口', ticketNo: 'Y012', calledAt: new Date().toISOString(), ...over })

function send(raw: string, headers: Record<string, string> = { 'x-app-id': cfg.appId, 'x-signature': hmacHex(cfg.secret, raw) }) {
  return t.app.inject({ method: 'POST', url: URL, payload: raw, headers: { 'content-type': 'application/json', ...headers } })
}

/** What the chat sockets of every server process would hear, after a moment for the notification to arrive. */
async function heardAfter() {
  await new Promise((r) => setTimeout(r, 150))
  const got = heard
  heard = []
  return got
}

before(async () => {
  t = await startTestApp({ config: { his: cfg } })
  stop = await t.database.listen(QUEUE_CHANNEL, (payload) => heard.push(payload))
})
after(async () => {
  await stop()
  await t.close()
})

describe('POST /dld-his/callback/queue-call (a real HIS reports a queue call)', () => {
  it('refuses a call without a signature, with a wrong one, or from another app id, and announces nothing', async () => {
    const raw = callBody()
    for (const headers of [{} as Record<string, string>, { 'x-app-id': cfg.appId, 'x-signature': hmacHex('wrong', raw) }, { 'x-app-id': 'other', 'x-signature': hmacHex(cfg.secret, raw) }]) {
      const res = await send(raw, headers)
      assert.equal(res.statusCode, 401)
      assert.equal(res.json().code, 401)
    }
    // the body signed is not the body sent
    const res = await send(callBody({ window: '4号窗口' }), { 'x-app-id': cfg.appId, 'x-signature': hmacHex(cfg.secret, raw) })
    assert.equal(res.statusCode, 401)
    assert.deepEqual(await heardAfter(), [])
  })

  it('refuses a signed call that is malformed, of an unknown hospital, or replayed late', async () => {
    for (const raw of ['{"hospitalCode":', callBody({ place: '' }), callBody({ hospitalCode: '99999' }), callBody({ calledAt: new Date(Date.now() - 10 * 60_000).toISOString() })]) {
      const res = await send(raw)
      assert.equal(res.statusCode, 400, raw)
      assert.equal(res.json().code, 400)
    }
    assert.deepEqual(await heardAfter(), [])
  })

  it('announces a signed call on the queue channel the patients’ sockets listen to', async () => {
    const res = await send(callBody())
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { code: 0, msg: 'ok' })
    const got = await heardAfter()
    assert.equal(got.length, 1)
    assert.deepEqual(JSON.parse(got[0]!), { hospitalCode: H, place: '门诊西药房', window: '3号窗口' })
  })

  it('is not served while the HIS is the sandbox (it announces its own calls)', async () => {
    const sandboxApp = await startTestApp()
    try {
      const res = await sandboxApp.app.inject({ method: 'POST', url: URL, payload: callBody(), headers: { 'content-type': 'application/json' } })
      assert.equal(res.statusCode, 404)
    } finally {
      await sandboxApp.close()
    }
  })
})
