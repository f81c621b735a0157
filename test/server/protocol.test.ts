/**
 * The platform's user agreement and privacy policy (common/getProtocol) and each account's consent to them
 * (common/protocol/consent, userinfo.consentNeeded): PIPL asks that consent be given to the text in force and kept.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { asc, eq } from 'drizzle-orm'
import { hospitals, protocolConsents } from '../../server/src/db/schema'
import type { Protocols } from '../../types/api/hospital'
import type { UserInfo } from '../../types/api/auth'
import { assertBadInput, assertUnauthorisedCall, callApi, signInUser, signInWechat, startTestApp, type TestApp } from './harness'

const H = '/dld-hospital/common'
let t: TestApp
const db = () => t.database.db
type Caller = { headers: Record<string, string> }

const protocols = async () => {
  const env = await callApi<Protocols>(t.app, 'POST', `${H}/getProtocol`)
  assert.equal(env.code, 200, env.msg)
  return env.data
}
const consentNeeded = async (caller: Caller) => (await callApi<UserInfo>(t.app, 'GET', '/dld-hospital/userinfo', { caller })).data.consentNeeded
const versions = (p: Protocols) => ({ userAgreementVersion: p.userAgreement.version, privacyPolicyVersion: p.privacyPolicy.version })
const consentsOf = (userId: number) => db().select().from(protocolConsents).where(eq(protocolConsents.userId, userId))

before(async () => {
  t = await startTestApp()
})
after(() => t.close())

describe('POST /dld-hospital/common/getProtocol', () => {
  it('answers anyone the platform’s two texts, each with the hash of its text as version', async () => {
    const p = await protocols()
    assert.equal(p.userAgreement.title, '用户协议')
    assert.equal(p.privacyPolicy.title, '隐私政策')
    assert.match(p.userAgreement.content, /在线就医服务/)
    assert.match(p.privacyPolicy.content, /个人信息/)
    assert.match(p.userAgreement.version, /^[0-9a-f]{16}$/)
    assert.notEqual(p.userAgreement.version, p.privacyPolicy.version)
    assert.deepEqual(await protocols(), p, 'the same texts, the same versions')
  })
})

describe('POST /dld-hospital/common/protocol/consent', () => {
  it('needs a bound account (a visitor agrees on the bind page, before binding)', async () => {
    const p = await protocols()
    await assertUnauthorisedCall(t.app, 'POST', `${H}/protocol/consent`, { body: versions(p) })
    const visitor = await signInWechat(t.app)
    const env = await callApi(t.app, 'POST', `${H}/protocol/consent`, { caller: visitor, body: versions(p) })
    assert.notEqual(env.code, 200)
    assert.equal(await consentNeeded(visitor), false, 'id 0 has nothing to agree to yet')
  })

  it('refuses a version that is no version, and records nothing', async () => {
    const user = await signInUser(t.app)
    const p = await protocols()
    assertBadInput(await callApi(t.app, 'POST', `${H}/protocol/consent`, { caller: user, body: { ...versions(p), privacyPolicyVersion: 'v2' } }), /协议版本不正确/)
    assertBadInput(await callApi(t.app, 'POST', `${H}/protocol/consent`, { caller: user, body: { userAgreementVersion: p.userAgreement.version } }))
    assert.deepEqual(await consentsOf(user.userId), [])
  })

  it('a new account must agree; agreeing to the texts in force is recorded once and is enough', async () => {
    const user = await signInUser(t.app)
    assert.equal(await consentNeeded(user), true)
    const p = await protocols()
    const env = await callApi<{ consentedAt: string }>(t.app, 'POST', `${H}/protocol/consent`, { caller: user, body: versions(p) })
    assert.equal(env.code, 200, env.msg)
    const again = await callApi<{ consentedAt: string }>(t.app, 'POST', `${H}/protocol/consent`, { caller: user, body: versions(p) })
    assert.equal(again.data.consentedAt, env.data.consentedAt, 'agreeing twice to the same texts is the same consent')
    const rows = await consentsOf(user.userId)
    assert.equal(rows.length, 1)
    assert.deepEqual({ userAgreementVersion: rows[0]!.userAgreementVersion, privacyPolicyVersion: rows[0]!.privacyPolicyVersion }, versions(p))
    assert.equal(await consentNeeded(user), false)
  })

  it('a changed policy asks again; agreeing to the old text is refused; the history keeps both consents', async () => {
    const user = await signInUser(t.app)
    const before = await protocols()
    assert.equal((await callApi(t.app, 'POST', `${H}/protocol/consent`, { caller: user, body: versions(before) })).code, 200)

    const [platform] = await db().select().from(hospitals).orderBy(asc(hospitals.sort), asc(hospitals.id)).limit(1)
    const texts = platform!.textConfig
    try {
      await db()
        .update(hospitals)
        .set({ textConfig: { ...texts, privacyPolicy: `${texts.privacyPolicy}\n新增：我们会记录您阅读检查检验报告的时间。` } })
        .where(eq(hospitals.id, platform!.id))
      const after = await protocols()
      assert.equal(after.userAgreement.version, before.userAgreement.version, 'the agreement did not change')
      assert.notEqual(after.privacyPolicy.version, before.privacyPolicy.version)
      assert.equal(await consentNeeded(user), true)

      const stale = await callApi(t.app, 'POST', `${H}/protocol/consent`, { caller: user, body: versions(before) })
      assert.equal(stale.code, 409)
      assert.equal(stale.msg, '协议内容已更新，请重新阅读后同意')
      assert.equal((await consentsOf(user.userId)).length, 1, 'nothing recorded for a text no longer in force')

      assert.equal((await callApi(t.app, 'POST', `${H}/protocol/consent`, { caller: user, body: versions(after) })).code, 200)
      assert.equal(await consentNeeded(user), false)
      assert.deepEqual(
        (await consentsOf(user.userId)).map((r) => r.privacyPolicyVersion),
        [before.privacyPolicy.version, after.privacyPolicy.version],
      )
    } finally {
      await db().update(hospitals).set({ textConfig: texts }).where(eq(hospitals.id, platform!.id))
    }
  })
})
