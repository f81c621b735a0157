import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { startTestApp, signInUser, envelopeOf, type TestApp } from './harness'

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

test('a visitor signs in through the sandbox and binds a mobile', async () => {
  const u = await signInUser(t.app)
  assert.ok(u.userId > 0)
  const me = envelopeOf(await t.app.inject({ method: 'GET', url: '/dld-hospital/userinfo', headers: u.headers }))
  assert.equal(me.code, 200)
  assert.equal(me.data.id, u.userId)
  assert.equal(me.data.mobile, `${u.mobile.slice(0, 3)}****${u.mobile.slice(-4)}`)
})
