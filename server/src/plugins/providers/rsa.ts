/** RSA-SHA256 (SHA256withRSA, "RSA2") in base64: how WeChat Pay v3 and the Alipay open platform sign. */
import { createSign, createVerify } from 'node:crypto'

/** A key as PEM: PEM as given (with `\n` written out in an environment variable), or the bare base64 body vendors' tools give. */
function pem(key: string, kind: 'PRIVATE' | 'PUBLIC'): string {
  const k = key.trim()
  if (k.startsWith('-----BEGIN')) return k.replace(/\\n/g, '\n')
  return `-----BEGIN ${kind} KEY-----\n${k.replace(/\s+/g, '').replace(/(.{64})/g, '$1\n').trim()}\n-----END ${kind} KEY-----\n`
}

export function rsaSign(message: string, privateKey: string): string {
  return createSign('RSA-SHA256').update(message).sign(pem(privateKey, 'PRIVATE'), 'base64')
}

export function rsaVerify(message: string, signature: string, publicKey: string): boolean {
  try {
    return createVerify('RSA-SHA256').update(message).verify(pem(publicKey, 'PUBLIC'), signature, 'base64')
  } catch {
    return false
  }
}
