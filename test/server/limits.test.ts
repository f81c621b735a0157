import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { like } from 'drizzle-orm'
import { rateCounters } from '../../server/src/db/schema'
import { CALLER_LIMITS, refuseOverLimit } from '../../server/src/domain/limits'
import { resolveToken } from '../../server/src/domain/auth'
import { callApi, randomIp, signInUser, signInWechat, startTestApp, envelopeOf, type TestApp } from './harness'

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

const TRIAGE = '/dld-palm/api/ai/triage'
/** The limits count in fixed hours: a test that would straddle the top of the hour waits for it. */
async function clearOfTheHour() {
  const left = 3_600_000 - (Date.now() % 3_600_000)
  if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 100))
}
const ask = (app: TestApp['app'], caller: { headers: Record<string, string> }) =>
  callApi(app, 'POST', TRIAGE, { caller, body: { hospitalCode: '10392', text: '头痛两天，有点恶心' } })

describe('per-caller limits on costly calls, kept in the database', () => {
  it(`智能导诊: ${CALLER_LIMITS.ai.max} answers an hour per account, counted across server processes; another account is not affected`, async () => {
    const patient = await signInUser(t.app)
    const twin = await t.twin()
    await clearOfTheHour()
    const codes: number[] = []
    for (let i = 0; i < CALLER_LIMITS.ai.max; i++) codes.push((await ask(i % 2 ? twin.app : t.app, patient)).code)
    assert.deepEqual(new Set(codes), new Set([200]))
    const refused = await ask(t.app, patient)
    assert.equal(refused.code, 429)
    assert.match(refused.msg, /^操作过于频繁，请\d+秒后再试$/)
    assert.equal(refused.data, null)
    assert.equal((await ask(twin.app, patient)).code, 429)
    assert.equal((await ask(t.app, await signInUser(t.app))).code, 200)
  })

  it(`SMS codes: ${CALLER_LIMITS.sms.max} an hour per account, whatever the mobile and the address`, async () => {
    const s = await signInWechat(t.app)
    await clearOfTheHour()
    const send = (i: number) =>
      t.app
        .inject({ method: 'POST', url: '/dld-auth/token/smsBindCode', headers: s.headers, remoteAddress: randomIp(), payload: { mobile: `1370000${String(1000 + i)}` } })
        .then(envelopeOf)
    for (let i = 0; i < CALLER_LIMITS.sms.max; i++) assert.equal((await send(i)).code, 200)
    const refused = await send(99)
    assert.equal(refused.code, 429)
    assert.match(refused.msg, /^操作过于频繁/)
  })

  it('a new window allows calls again, and the counters live in rate_counters', async () => {
    const caller = await signInUser(t.app)
    const token = caller.headers.authorization!.slice('Bearer '.length)
    const limit = { max: 2, windowMs: 60_000 }
    const counted = { route: 'POST /test', limit }
    const now = Date.UTC(2026, 10, 25, 8, 0, 10)
    const take = async (at: number) => {
      const found = await resolveToken(t.database.db, token, new Date(at), counted)
      refuseOverLimit(found!.calls!, limit, at)
    }
    await take(now)
    await take(now + 1000)
    await assert.rejects(take(now + 2000), /操作过于频繁，请48秒后再试/)
    await take(now + 60_000)
    const rows = await t.database.db.select().from(rateCounters).where(like(rateCounters.key, `POST /test u${caller.userId}`))
    assert.deepEqual(rows.map((r) => r.count).sort(), [1, 3])
    // a lookup that counts nothing leaves the counters alone
    assert.equal((await resolveToken(t.database.db, token, new Date(now + 3000)))!.calls, null)
    assert.equal((await t.database.db.select().from(rateCounters).where(like(rateCounters.key, 'POST /test %'))).length, 2)
  })
})

describe('per-address limits, kept in the database', () => {
  it('sign-in: 30 a minute from one address, counted across server processes; another address is not affected', async () => {
    const twin = await t.twin()
    // clear of the top of the minute, so that all 31 calls fall in one window
    const left = 60_000 - (Date.now() % 60_000)
    if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 100))
    const ip = randomIp()
    const refresh = (app: TestApp['app'], from = ip) =>
      app.inject({ method: 'POST', url: '/dld-auth/token/refresh/force', remoteAddress: from, payload: { refreshToken: 'not-a-token' } }).then(envelopeOf)
    // each process alone would allow 30: together they allow 30
    for (let i = 0; i < 30; i++) assert.equal((await refresh(i % 2 ? twin.app : t.app)).code, 401, `call ${i + 1}`)
    const refused = await refresh(twin.app)
    assert.equal(refused.code, 429)
    assert.match(refused.msg, /^操作过于频繁，请\d+秒后再试$/)
    assert.equal((await refresh(t.app)).code, 429)
    assert.equal((await refresh(t.app, randomIp())).code, 401)
    const [row] = await t.database.db.select().from(rateCounters).where(like(rateCounters.key, `addr POST /dld-auth/token/refresh/force ${ip}`))
    assert.equal(row?.count, 32)
  })
})
