import { deflateSync } from 'node:zlib'
import { createHmac } from 'node:crypto'
import type { Config } from '../../config'
import { hmacHex, safeEqual } from '../../crypto'
import type { UserSig } from '../../../../types/api/auth'

/** A user signature lives 7 days, Tencent's own default. */
export const USER_SIG_TTL_S = 7 * 24 * 60 * 60

export type { UserSig }

/** Tencent IM TLSSigAPIv2 (stack notes): HMAC-SHA256, JSON, zlib, URL-safe base64 with Tencent's own alphabet. */
export function tlsSigV2(sdkAppId: number, secretKey: string, identifier: string, expire: number, now = Math.floor(Date.now() / 1000)) {
  const content = `TLS.identifier:${identifier}\nTLS.sdkappid:${sdkAppId}\nTLS.time:${now}\nTLS.expire:${expire}\n`
  const sig = createHmac('sha256', secretKey).update(content).digest('base64')
  const doc = { 'TLS.ver': '2.0', 'TLS.identifier': identifier, 'TLS.sdkappid': sdkAppId, 'TLS.expire': expire, 'TLS.time': now, 'TLS.sig': sig }
  return deflateSync(Buffer.from(JSON.stringify(doc)))
    .toString('base64')
    .replace(/\+/g, '*')
    .replace(/\//g, '-')
    .replace(/=/g, '_')
}

/** Our own chat service's signature: `account.expiry.hmac`, verified by the chat service with the server secret. */
export function localSig(secret: string, account: string, expireAt: number): string {
  const body = `${Buffer.from(account).toString('base64url')}.${expireAt}`
  return `${body}.${hmacHex(secret, `im:${body}`)}`
}

export function verifyLocalSig(secret: string, sig: string, now = Math.floor(Date.now() / 1000)): string | null {
  const [account, expire, mac] = sig.split('.')
  if (!account || !expire || !mac) return null
  if (!safeEqual(mac, hmacHex(secret, `im:${account}.${expire}`))) return null
  if (Number(expire) < now) return null
  return Buffer.from(account, 'base64url').toString('utf8')
}

export function signUser(config: Pick<Config, 'tim' | 'secret'>, imAccount: string, now = Math.floor(Date.now() / 1000)): UserSig {
  if (config.tim) {
    return {
      driver: 'tim',
      sdkAppId: config.tim.sdkAppId,
      imAccount,
      userSig: tlsSigV2(config.tim.sdkAppId, config.tim.secretKey, imAccount, USER_SIG_TTL_S, now),
      expire: now + USER_SIG_TTL_S,
    }
  }
  const expire = now + USER_SIG_TTL_S
  return { driver: 'local', sdkAppId: 0, imAccount, userSig: localSig(config.secret, imAccount, expire), expire }
}
