/**
 * `POST /dld-hospital/common/debugLog` (spec §7 Tools and misc): the app reports its script errors, rejections and
 * chunk load failures. Anyone may report (an error can come before sign-in); bad input is refused; the log keeps the
 * report scrubbed of numbers, query values and tokens; one address is held to 20 reports a minute.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { LogCapture, assertBadInput, envelopeOf, randomIp, signInUser, startTestApp, type TestApp } from './harness'

const URL_ = '/dld-hospital/common/debugLog'
const log = new LogCapture()
let t: TestApp

before(async () => {
  t = await startTestApp({ config: { logLevel: 'info' }, logStream: log })
})
after(() => t.close())

const report = (payload: unknown, opts: { ip?: string; headers?: Record<string, string> } = {}) =>
  t.app
    .inject({ method: 'POST', url: URL_, remoteAddress: opts.ip ?? randomIp(), headers: opts.headers, payload: payload as object })
    .then((r) => envelopeOf(r))

const GOOD = { kind: 'chunk', message: 'ChunkLoadError: Loading chunk 412 failed.', stack: '', page: '/palm/register/index' }

describe('POST /dld-hospital/common/debugLog', () => {
  it('takes a report before sign-in and from a signed-in patient, and answers nothing', async () => {
    const anonymous = await report(GOOD)
    assert.equal(anonymous.code, 200, anonymous.msg)
    assert.equal(anonymous.data, null)
    const patient = await signInUser(t.app)
    assert.equal((await report({ ...GOOD, kind: 'error', message: 'TypeError: x is undefined' }, { headers: patient.headers })).code, 200)
    assert.match(log.text, /"msg":"client error"/)
    assert.match(log.text, /Loading chunk 412 failed/)
    assert.match(log.text, new RegExp(`"userId":${patient.userId}`))
  })

  it('refuses a report of an unknown kind, without a message or over its size, and logs nothing of it', async () => {
    const before = log.text.length
    assertBadInput(await report({ ...GOOD, kind: 'crash' }))
    assertBadInput(await report({ ...GOOD, message: '' }), /请说明错误/)
    assertBadInput(await report({ ...GOOD, message: 'x'.repeat(501) }))
    assertBadInput(await report({ ...GOOD, stack: 'x'.repeat(2001) }))
    assertBadInput(await report({ kind: 'error' }))
    assert.doesNotMatch(log.text.slice(before), /client error/)
  })

  it('logs no mobile, identity number, query value or token, whatever the client sent', async () => {
    const secrets = ['13812345678', '110101199003074514', 'eyJhbGciOiJIUzI1NiJ9eyJzdWIiOiIxMjM0NTY3ODkwIn0abc']
    const sent = {
      kind: 'rejection',
      message: `ApiError: 手机号 ${secrets[0]} 身份证 ${secrets[1]}`,
      stack: `at request (https://h.example/h5/js/app.js?token=${secrets[2]}:1:2)`,
      page: `/pages/patient/index?idCard=${secrets[1]}`,
    }
    assert.equal((await report(sent)).code, 200)
    for (const secret of secrets) assert.ok(!log.text.includes(secret), `the log holds ${secret.slice(0, 6)}…`)
    assert.match(log.text, /手机号 ~ 身份证 ~/)
    assert.match(log.text, /"page":"\/pages\/patient\/index"/)
  })

  it('holds one address to 20 reports a minute', async () => {
    const ip = randomIp()
    const codes: number[] = []
    for (let i = 0; i < 21; i++) codes.push((await report({ ...GOOD, message: `error ${i}` }, { ip })).code)
    assert.deepEqual(codes.slice(0, 20), Array(20).fill(200))
    assert.notEqual(codes[20], 200)
    // another address is not held back
    assert.equal((await report(GOOD)).code, 200)
  })
})
