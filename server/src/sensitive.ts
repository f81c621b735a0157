// the app's own list (spec §3), so the two ends cannot drift apart
import { SENSITIVE_FIELDS, mapSensitive } from '@/utils/base64'

/** Fields never written to logs, on top of the sensitive ones. */
export const LOG_REDACTED_FIELDS = [...SENSITIVE_FIELDS, 'mobile', 'phone', 'code', 'token', 'refreshToken', 'accessToken', 'authorization', 'cookie', 'smsCode', 'authCode', 'payAuthNo', 'password', 'name', 'patientName', 'guardianName', 'detail']

type Json = unknown

const b64 = /^[A-Za-z0-9+/]+={0,2}$/

/** Decode incoming base64 sensitive fields; a value that is not base64 is left as sent (and then fails validation). */
export const decodeSensitive = (value: Json): Json =>
  mapSensitive(value, (s) => (b64.test(s) && s.length % 4 === 0 ? Buffer.from(s, 'base64').toString('utf8') : s))

export const encodeSensitive = (value: Json): Json => mapSensitive(value, (s) => Buffer.from(s, 'utf8').toString('base64'))
