import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { jsonDeeperThan, holdsNul, MAX_JSON_DEPTH, NUL_CHARACTER, TOO_DEEP } from '../../server/src/inputGuards'
import { PG_INT_MAX } from '../../server/src/routes/schemas'
import { assertBadInput, callApi, envelopeOf, randomIp, signInUser, startTestApp, type TestApp } from './harness'
import { addPatient } from './fixtures'

let t: TestApp
let user: Awaited<ReturnType<typeof signInUser>>
let patientId = 0
before(async () => {
  t = await startTestApp()
  user = await signInUser(t.app)
  patientId = await addPatient(t, user.userId, { name: '王敏', sex: 2, birthday: '1958-03-02', mobile: '13800138000' })
})
after(() => t.close())

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
const postJson = (url: string, payload: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, remoteAddress: randomIp(), headers: { 'content-type': 'application/json', ...headers }, payload })

describe('input guards', () => {
  it('measure JSON depth without parsing, ignoring brackets inside strings', () => {
    assert.equal(jsonDeeperThan(nested(MAX_JSON_DEPTH)), false)
    assert.equal(jsonDeeperThan(nested(MAX_JSON_DEPTH + 1)), true)
    assert.equal(jsonDeeperThan(JSON.stringify({ a: '['.repeat(1000), b: '\\"[[[' })), false)
    assert.equal(holdsNul({ a: [{ b: 'x\u0000' }] }), true)
    assert.equal(holdsNul({ 'k\u0000': 1 }), true)
    assert.equal(holdsNul({ a: ['x', { b: 1 }] }), false)
  })
})

describe('hostile bodies, strings and ids answer 400 in the envelope and change nothing', () => {
  it('a deeply nested body, signed in or not, answers 400 at once and the server goes on answering', async () => {
    for (const [url, headers] of [
      ['/dld-auth/token/wxH5', {}],
      ['/dld-palm/api/patient/bind', user.headers],
    ] as const) {
      const res = await postJson(url, `{"code":${nested(100_000)}}`, headers)
      assert.equal(res.statusCode, 200)
      assertBadInput(envelopeOf(res), TOO_DEEP)
    }
    const list = await callApi(t.app, 'GET', '/dld-palm/api/patient/list', { caller: user })
    assert.equal(list.code, 200)
  })

  it('a body within the depth limit is read as before', async () => {
    const res = await postJson('/dld-auth/token/wxH5', JSON.stringify({ code: 'no-such-code', appId: 'wxdemo0000000000' }))
    assert.equal(envelopeOf(res).code, 401)
  })

  it('a NUL character in a body, a query or a path answers 400', async () => {
    const body = await callApi(t.app, 'POST', '/dld-hospital/addAddress', {
      caller: user,
      body: { name: '张\u0000三', mobile: '13800138000', regionCode: 440305, detail: '科技园', isDefault: false },
    })
    assertBadInput(body, NUL_CHARACTER)
    const query = await callApi(t.app, 'GET', '/dld-palm/api/department/search', { caller: user, query: { hospitalCode: '10392', keyword: '内\u0000科' } })
    assertBadInput(query, NUL_CHARACTER)
    const path = await t.app.inject({ method: 'GET', url: '/dld-hospital/common/menuConfig/10392%00', headers: user.headers, remoteAddress: randomIp() })
    assertBadInput(envelopeOf(path), NUL_CHARACTER)
    const addresses = await callApi(t.app, 'GET', '/dld-hospital/addressList', { caller: user })
    assert.equal(addresses.data.length, 0)
  })

  it(`an id above ${PG_INT_MAX} answers 400, in a path, a query or a body`, async () => {
    const big = String(PG_INT_MAX + 1)
    assertBadInput(await callApi(t.app, 'GET', `/dld-palm/api/patient/${big}`, { caller: user }))
    assertBadInput(await callApi(t.app, 'GET', '/dld-palm/api/patient/info', { caller: user, query: { id: big } }))
    assertBadInput(await callApi(t.app, 'POST', `/dld-palm/api/patient/default/${big}`, { caller: user }))
    assertBadInput(await callApi(t.app, 'GET', '/dld-hospital/inquiry/order/detail', { caller: user, query: { id: '99999999999999999999' } }))
    // the largest id is well-formed: it names nobody's patient
    assert.equal((await callApi(t.app, 'GET', `/dld-palm/api/patient/${PG_INT_MAX}`, { caller: user })).code, 2999)
    assert.equal((await callApi(t.app, 'GET', `/dld-palm/api/patient/${patientId}`, { caller: user })).code, 200)
  })
})
