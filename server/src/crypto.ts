import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/** AES-256-GCM for sensitive fields at rest, and an HMAC blind index to look them up without decrypting. */
export class FieldCipher {
  private readonly key: Buffer
  private readonly indexKey: Buffer

  constructor(base64Key: string) {
    const raw = Buffer.from(base64Key, 'base64')
    if (raw.length !== 32) throw new Error('DATA_KEY must be 32 bytes, base64-encoded')
    this.key = raw
    this.indexKey = createHmac('sha256', raw).update('blind-index').digest()
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv)
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.')
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.')
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown ciphertext format')
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'))
    decipher.setAuthTag(Buffer.from(tag, 'base64'))
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8')
  }

  blindIndex(value: string): string {
    return createHmac('sha256', this.indexKey).update(value.trim().toUpperCase()).digest('base64url')
  }
}

/** A sealed field that may be empty (a child without an identity card, a patient without a mobile). */
export const open = (cipher: FieldCipher, sealed: string | null) => (sealed ? cipher.decrypt(sealed) : null)

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('base64url')

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url')

export function hmacHex(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('hex')
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
