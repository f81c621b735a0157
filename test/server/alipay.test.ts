import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createVerify, generateKeyPairSync } from 'node:crypto'
import { alipaySignContent, alipayTime, fromAlipayTime } from '../../server/src/plugins/providers/alipay'
import { ALIPAY_SIGN_IN_OFF, MINI_CODE_USED, realAlipay } from '../../server/src/plugins/providers/oauth'
import { AppError, Code } from '../../server/src/errors'
import { rsaSign } from '../../server/src/plugins/providers/rsa'

const rsa = () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return { privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() }
}
const app = rsa()
const alipay = rsa()
const cfg = { appId: '2021000000000002', privateKey: app.privateKey, alipayPublicKey: alipay.publicKey }

/** A fake Alipay gateway: records each request's parameters and answers what the test put in `answers`, in turn. */
function gateway(answers: string[]) {
  const sent: Record<string, string>[] = []
  const fetchImpl = (async (_url: string, init?: { body?: unknown }) => {
    sent.push(Object.fromEntries(new URLSearchParams(String(init?.body ?? '')).entries()))
    return new Response(answers.shift() ?? '{}', { status: 200 })
  }) as unknown as typeof fetch
  return { sent, fetchImpl }
}
const signedAnswer = (key: string, inner: object, signer = alipay.privateKey) => {
  const text = JSON.stringify(inner)
  return `{"${key}":${text},"sign":"${rsaSign(text, signer)}"}`
}

describe('Alipay open-platform requests (providers/alipay.ts)', () => {
  it('writes timestamp as Alipay documents it: yyyy-MM-dd HH:mm:ss in Beijing time', () => {
    assert.equal(alipayTime(new Date('2026-11-24T16:30:05.789Z')), '2026-11-25 00:30:05')
    assert.equal(alipayTime(new Date('2026-01-01T00:00:00Z')), '2026-01-01 08:00:00')
    assert.deepEqual(fromAlipayTime('2026-11-25 00:30:05'), new Date('2026-11-24T16:30:05Z'))
  })

  it('signs sign-in with RSA2 in Beijing time (it used to send UTC, eight hours off), and reads the signed answers', async () => {
    const { sent, fetchImpl } = gateway([
      signedAnswer('alipay_system_oauth_token_response', { user_id: '2088000000000001', access_token: 'tok', expires_in: '3600' }),
      signedAnswer('alipay_user_info_share_response', { code: '10000', msg: 'Success', nick_name: '支付宝用户', avatar: 'https://a.example/1.png' }),
    ])
    const provider = realAlipay(cfg, fetchImpl)
    const person = await provider.exchangeCode(cfg.appId, 'auth-code-1')
    assert.deepEqual(person, { subject: '2088000000000001', scope: 'auth_user', nickname: '支付宝用户', avatar: 'https://a.example/1.png' })

    const [token, info] = sent
    assert.equal(token!.method, 'alipay.system.oauth.token')
    assert.equal(token!.code, 'auth-code-1')
    assert.equal(token!.grant_type, 'authorization_code')
    assert.equal(info!.auth_token, 'tok')
    for (const params of sent) {
      assert.equal(params.sign_type, 'RSA2')
      assert.match(params.timestamp!, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
      const skew = Math.abs(fromAlipayTime(params.timestamp).getTime() - Date.now())
      assert.ok(skew < 60_000, `timestamp ${params.timestamp} is Beijing time now (off by ${skew} ms)`)
      assert.ok(createVerify('RSA-SHA256').update(alipaySignContent(params)).verify(app.publicKey, params.sign!, 'base64'), 'signed with the app key')
    }
  })

  it('refuses an answer signed by anyone but Alipay, and an unsigned success', async () => {
    const forged = gateway([signedAnswer('alipay_system_oauth_token_response', { user_id: '2088', access_token: 't' }, rsa().privateKey)])
    await assert.rejects(realAlipay(cfg, forged.fetchImpl).exchangeCode(cfg.appId, 'c'), /signature is not valid/)
    const unsigned = gateway([`{"alipay_system_oauth_token_response":${JSON.stringify({ user_id: '2088', access_token: 't' })}}`])
    await assert.rejects(realAlipay(cfg, unsigned.fetchImpl).exchangeCode(cfg.appId, 'c'), /signature is not valid/)
  })

  it('says why a code was refused (Alipay answers error_response)', async () => {
    const refused = gateway([`{"error_response":{"code":"40002","msg":"Invalid Arguments","sub_code":"isv.code-invalid","sub_msg":"授权码code无效"}}`])
    await assert.rejects(realAlipay(cfg, refused.fetchImpl).exchangeCode(cfg.appId, 'used'), /Alipay code exchange: 40002 授权码code无效/)
  })

  it('the mini-program signs in with its own app: the token exchange only (base scope), a used code asks again', async () => {
    const { sent, fetchImpl } = gateway([
      signedAnswer('alipay_system_oauth_token_response', { user_id: '2088000000000009', access_token: 'tok', union_id: 'U-person' }),
      `{"error_response":{"code":"40002","msg":"Invalid Arguments","sub_code":"isv.code-invalid","sub_msg":"授权码code无效"}}`,
    ])
    const provider = realAlipay(null, fetchImpl, cfg)
    assert.deepEqual(await provider.miniLogin(cfg.appId, 'mini-code-1'), { subject: '2088000000000009', scope: 'auth_base', unionId: 'U-person' })
    assert.equal(sent.length, 1)
    assert.equal(sent[0]!.app_id, cfg.appId)
    await assert.rejects(provider.miniLogin(cfg.appId, 'used'), (e: unknown) => e instanceof AppError && e.code === Code.UNAUTHENTICATED && e.message === MINI_CODE_USED)
    // another app id, and web sign-in on a server with only the mini-program configured, are refused without a call
    await assert.rejects(provider.miniLogin('2021000000000099', 'c'), (e: unknown) => e instanceof AppError && e.message === ALIPAY_SIGN_IN_OFF)
    await assert.rejects(provider.exchangeCode(cfg.appId, 'c'), (e: unknown) => e instanceof AppError && e.message === ALIPAY_SIGN_IN_OFF)
    assert.equal(sent.length, 2)
  })
})
