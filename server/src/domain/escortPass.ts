/**
 * 电子陪护证 (spec §2 /palm/hospitalization/escort/eleAttend, issue 17): a pass for one escort (陪护人) of a patient
 * who is in hospital, for that stay only. It is a token signed with the server's secret (no table): it names the
 * escort and the patient (masked), ward, bed and the stay's admission number, and lasts 24 hours (the pass page asks
 * for a fresh one). The ward's check on the workbench reads it back and asks the HIS whether the stay still goes on,
 * so a discharge ends every pass of the stay at once.
 */
import { and, eq, isNull } from 'drizzle-orm'
import type { EscortPass, EscortPassCheck, EscortPassRefusal } from '../../../types/api/escortPass'
import { hmacHex, safeEqual, type FieldCipher } from '../crypto'
import type { Db } from '../db'
import { accompanies, patients } from '../db/schema'
import { badInput, forbidden } from '../errors'
import type { HisProvider } from '../plugins/providers/his'
import { maskName } from '@/utils/mask'
import { hisPatientOf } from './bills/his'
import { hospitalById, requireHospitalByCode } from './hospital'
import type { StaffContext } from './staff'

/** A pass lasts this long unless the stay ends first. */
export const PASS_HOURS = 24
export const NOT_IN_HOSPITAL_PASS = '该就诊人当前没有在院记录，住院期间才能出示电子陪护证'
export const REFUSAL_TEXT: Record<EscortPassRefusal, string> = {
  forged: '无效的陪护证（不是本院签发或已被篡改）',
  expired: '陪护证已过期，请陪护人刷新后重新出示',
  ended: '该次住院已结束（已出院），陪护证失效',
  unbound: '该陪护人已被解除，陪护证失效',
}
export const VALID_TEXT = '有效'

const PREFIX = 'EP1'

/** What the token carries, in short keys to keep the QR code small. */
interface PassClaims {
  /** hospital code */
  h: string
  /** admission number */
  a: string
  /** escort id */
  e: number
  /** patient id */
  p: number
  /** escort's name, masked */
  n: string
  /** patient's name, masked */
  pn: string
  /** relation to the patient */
  r: string
  d: string
  w: string
  b: string
  /** issued and expires, seconds since the epoch */
  i: number
  x: number
}

// a purpose in front of what is signed: no other signature made with the same secret is ever a pass
const sign = (secret: string, body: string) => hmacHex(secret, `escort-pass.${body}`)

export function signPass(secret: string, claims: PassClaims): string {
  const body = Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url')
  return `${PREFIX}.${body}.${sign(secret, body)}`
}

/** The claims of a token this server signed, or null for anything else. */
export function readPass(secret: string, token: string): PassClaims | null {
  const [prefix, body, signature, ...rest] = token.trim().split('.')
  if (prefix !== PREFIX || !body || !signature || rest.length) return null
  if (!safeEqual(sign(secret, body), signature)) return null
  try {
    const c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as PassClaims
    const texts = [c.h, c.a, c.n, c.pn, c.r, c.d, c.w, c.b]
    const numbers = [c.e, c.p, c.i, c.x]
    if (!texts.every((v) => typeof v === 'string') || !numbers.every((v) => Number.isSafeInteger(v))) return null
    return c
  } catch {
    return null
  }
}

/**
 * GET /dld-palm/api/accompany/pass: a pass for the caller's own escort of their own patient (2999 otherwise) while the
 * patient has a stay in hospital at the hospital (refused with NOT_IN_HOSPITAL_PASS otherwise).
 */
export async function issuePass(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  secret: string,
  userId: number,
  input: { escortId: number; hospitalCode: string },
  now: Date,
): Promise<EscortPass> {
  const [row] = await db
    .select({ escort: accompanies, patient: patients })
    .from(accompanies)
    .innerJoin(patients, eq(patients.id, accompanies.patientId))
    .where(
      and(
        eq(accompanies.id, input.escortId),
        eq(accompanies.userId, userId),
        isNull(accompanies.unboundAt),
        eq(patients.userId, userId),
        isNull(patients.unboundAt),
      ),
    )
    .limit(1)
  if (!row) throw forbidden()
  const hospital = await requireHospitalByCode(db, input.hospitalCode)
  const who = await hisPatientOf(db, cipher, row.patient, hospital.id)
  const stay = (await his.admissions({ hospitalCode: hospital.code, patient: who })).find((a) => a.status === 'in')
  if (!stay) throw badInput(NOT_IN_HOSPITAL_PASS)
  const issued = Math.floor(now.getTime() / 1000)
  const claims: PassClaims = {
    h: hospital.code,
    a: stay.admissionNo,
    e: row.escort.id,
    p: row.patient.id,
    n: maskName(cipher.decrypt(row.escort.nameEnc)),
    pn: maskName(who.name),
    r: row.escort.relation,
    d: stay.deptName,
    w: stay.ward,
    b: stay.bed,
    i: issued,
    x: issued + PASS_HOURS * 3600,
  }
  return {
    token: signPass(secret, claims),
    escortId: claims.e,
    patientId: claims.p,
    escortName: claims.n,
    patientName: claims.pn,
    relation: claims.r,
    hospitalName: hospital.name,
    deptName: claims.d,
    ward: claims.w,
    bed: claims.b,
    admissionNo: claims.a,
    expiresAt: new Date(claims.x * 1000).toISOString(),
    issuedAt: new Date(claims.i * 1000).toISOString(),
  }
}

/** The patient a genuine pass names, for the audit log of its check (none for a forged one). */
export function passPatients(secret: string, token: string): number[] {
  const claims = readPass(secret, token)
  return claims ? [claims.p] : []
}

const refused = (reason: EscortPassRefusal, pass: EscortPassCheck['pass']): EscortPassCheck => ({ valid: false, reason, reasonText: REFUSAL_TEXT[reason], pass })

/**
 * POST /dld-doctor/api/escort-pass/verify: the ward's check of a scanned pass, by staff of the hospital that issued it
 * (2999 for a genuine pass of another hospital). Invalid when forged, past its time, its escort unbound since, or the
 * stay no longer in hospital (discharged).
 */
export async function verifyPass(db: Db, cipher: FieldCipher, his: HisProvider, secret: string, staff: StaffContext, token: string, now: Date): Promise<EscortPassCheck> {
  const claims = readPass(secret, token)
  if (!claims) return refused('forged', null)
  const hospital = await hospitalById(db, staff.hospitalId)
  if (!hospital || hospital.code !== claims.h) throw forbidden()
  const pass: NonNullable<EscortPassCheck['pass']> = {
    escortName: claims.n,
    patientName: claims.pn,
    relation: claims.r,
    deptName: claims.d,
    ward: claims.w,
    bed: claims.b,
    admissionNo: claims.a,
    expiresAt: new Date(claims.x * 1000).toISOString(),
  }
  if (claims.x * 1000 <= now.getTime()) return refused('expired', pass)
  const [row] = await db
    .select({ escort: accompanies, patient: patients })
    .from(accompanies)
    .innerJoin(patients, eq(patients.id, accompanies.patientId))
    .where(and(eq(accompanies.id, claims.e), eq(accompanies.patientId, claims.p)))
    .limit(1)
  if (!row || row.escort.unboundAt) return refused('unbound', pass)
  const who = await hisPatientOf(db, cipher, row.patient, hospital.id)
  const stay = (await his.admissions({ hospitalCode: hospital.code, patient: who })).find((a) => a.admissionNo === claims.a)
  if (!stay || stay.status !== 'in') return refused('ended', pass)
  return { valid: true, reason: null, reasonText: VALID_TEXT, pass }
}
