/**
 * Workbench accounts (`/workbench/`, `/dld-doctor/api`): a seeded doctor or physician assistant signs in with a login
 * and a password and gets an opaque bearer token for 12 hours. Passwords are kept as salted scrypt hashes; tokens only
 * as SHA-256 hashes in staff_sessions. A workbench token lives in a table the patients' token lookup never reads (and
 * the other way round), so neither kind of token works on the other kind of call.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm'
import type { StaffKind, StaffProfile, StaffSession } from '../../../types/api/workbench'
import type { Db } from '../db'
import { randomToken, sha256 } from '../crypto'
import { departments, doctors, identities, onlineDoctors, pharmacists, physicianAssistants, staffAccounts, staffLoginFailures, staffSessions } from '../db/schema'
import { hospitalById } from './hospital'
import { AppError, Code, badInput, unauthenticated } from '../errors'
import { assistantImAccount, doctorImAccount } from './internetDoctors'

/** A workbench token lives one working day. */
export const STAFF_SESSION_MS = 12 * 3600_000
/**
 * Brute force: each sign-in attempt is counted per login and client address before its password is compared, in one
 * conditional statement (staff_login_failures), so a burst of guesses cannot all be compared before the lock lands.
 * After LOGIN_MAX_FAILURES the pair is locked for LOGIN_LOCK_MINUTES, and every further failure once a lock has run
 * out doubles it, up to a day; a success or LOGIN_RESET_HOURS without a failure clears the count. Unknown logins are
 * counted too, so the answer says nothing about which logins exist. Per address, so that five guesses from anywhere
 * cannot lock a doctor out everywhere; the route also limits sign-in calls per address (routes/workbench/index.ts).
 */
export const LOGIN_MAX_FAILURES = 5
export const LOGIN_LOCK_MINUTES = 15
export const LOGIN_LOCK_MAX_MINUTES = 24 * 60
export const LOGIN_RESET_HOURS = 24

export const WRONG_PASSWORD = '账号或密码错误'
export const ACCOUNT_DISABLED = '账号已停用，请联系医院管理员'
export const lockedOut = (minutes: number) => `登录失败次数过多，请${minutes}分钟后再试`
export const PASSWORD_MIN = 8

// ---- passwords -----------------------------------------------------------------------------------------------------

/** scrypt cost: N=2^14, r=8 (16 MiB, ~45 ms per hash on this project's 2-core machines), run off the event loop. */
const SCRYPT = { N: 16384, r: 8, p: 1 }
const KEY_BYTES = 32

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(password.normalize('NFKC'), salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))))
}

/** `scrypt$N$r$p$salt$hash` (base64url): the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await scrypt(password, salt, KEY_BYTES, SCRYPT)
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: 256 * 1024 * 1024 })
  return key.length === expected.length && timingSafeEqual(key, expected)
}

/** Compared against when the login does not exist, so an unknown login costs the same time as a wrong password. */
let dummyHash: Promise<string> | null = null

/** Logins are compared without case and surrounding spaces: `10392a01` is `10392A01`. */
export const normalizeLogin = (login: string) => login.trim().toUpperCase()

// ---- accounts ------------------------------------------------------------------------------------------------------

export type StaffAccountInput =
  | { kind: 'doctor'; doctorId: number; login: string; password: string }
  | { kind: 'assistant'; assistantId: number; login: string; password: string }
  | { kind: 'pharmacist'; pharmacistId: number; login: string; password: string }

/** Creates a workbench account (the seed, tests); answers its id, or null when the login is taken. */
export async function createStaffAccount(db: Db, input: StaffAccountInput): Promise<number | null> {
  if (input.password.length < PASSWORD_MIN) throw badInput(`密码至少${PASSWORD_MIN}位`)
  const [row] = await db
    .insert(staffAccounts)
    .values({
      kind: input.kind,
      doctorId: input.kind === 'doctor' ? input.doctorId : null,
      assistantId: input.kind === 'assistant' ? input.assistantId : null,
      pharmacistId: input.kind === 'pharmacist' ? input.pharmacistId : null,
      login: normalizeLogin(input.login),
      passwordHash: await hashPassword(input.password),
    })
    .onConflictDoNothing({ target: staffAccounts.login })
    .returning({ id: staffAccounts.id })
  return row?.id ?? null
}

// ---- sign-in -------------------------------------------------------------------------------------------------------

/**
 * Counts one attempt of `login` from `address` and answers whether it may be compared: one upsert that refuses while
 * the pair is locked and sets the lock in the same statement when this attempt reaches the limit.
 */
async function takeAttempt(db: Db, login: string, address: string, now: Date): Promise<{ allowed: true } | { allowed: false; minutes: number }> {
  const at = now.toISOString()
  const reset = new Date(now.getTime() - LOGIN_RESET_HOURS * 3600_000).toISOString()
  const failures = sql`case when ${staffLoginFailures.lastFailureAt} < ${reset}::timestamptz then 1 else ${staffLoginFailures.failures} + 1 end`
  const [taken] = await db
    .insert(staffLoginFailures)
    .values({ login, address, failures: 1, lastFailureAt: now })
    .onConflictDoUpdate({
      target: [staffLoginFailures.login, staffLoginFailures.address],
      set: {
        failures,
        lockedUntil: sql`case when ${failures} >= ${LOGIN_MAX_FAILURES}
          then ${at}::timestamptz + least(${LOGIN_LOCK_MINUTES} * power(2, ${failures} - ${LOGIN_MAX_FAILURES}), ${LOGIN_LOCK_MAX_MINUTES}) * interval '1 minute'
          end`,
        lastFailureAt: now,
      },
      setWhere: sql`${staffLoginFailures.lockedUntil} is null or ${staffLoginFailures.lockedUntil} <= ${at}::timestamptz`,
    })
    .returning({ failures: staffLoginFailures.failures })
  if (taken) return { allowed: true }
  const [row] = await db
    .select({ lockedUntil: staffLoginFailures.lockedUntil })
    .from(staffLoginFailures)
    .where(and(eq(staffLoginFailures.login, login), eq(staffLoginFailures.address, address)))
  // measured from now, not from this attempt's start: a concurrent attempt may have set the lock a moment later
  const left = (row?.lockedUntil?.getTime() ?? 0) - Date.now()
  return { allowed: false, minutes: Math.max(1, Math.ceil(left / 60_000)) }
}

/** Forgets workbench sessions a day past their expiry (the order sweep calls it). */
export async function pruneStaffSessions(db: Db, now = new Date()): Promise<void> {
  await db.delete(staffSessions).where(lt(staffSessions.expiresAt, new Date(now.getTime() - 24 * 3600_000)))
}

/** Forgets the failures of rows idle for LOGIN_RESET_HOURS and no longer locked (the order sweep calls it). */
export async function pruneLoginFailures(db: Db, now = new Date()): Promise<void> {
  await db
    .delete(staffLoginFailures)
    .where(
      and(
        lt(staffLoginFailures.lastFailureAt, new Date(now.getTime() - LOGIN_RESET_HOURS * 3600_000)),
        or(isNull(staffLoginFailures.lockedUntil), lt(staffLoginFailures.lockedUntil, now)),
      ),
    )
}

/** Who a workbench token belongs to. */
export interface StaffContext {
  sessionId: number
  staffId: number
  kind: StaffKind
  doctorId: number | null
  assistantId: number | null
  pharmacistId: number | null
  hospitalId: number
  /** '' for a pharmacist: pharmacists do not chat. */
  imAccount: string
}

const staffColumns = {
  staffId: staffAccounts.id,
  kind: staffAccounts.kind,
  doctorId: staffAccounts.doctorId,
  assistantId: staffAccounts.assistantId,
  pharmacistId: staffAccounts.pharmacistId,
  disabled: staffAccounts.disabled,
  doctorHospitalId: onlineDoctors.hospitalId,
  assistantHospitalId: physicianAssistants.hospitalId,
  pharmacistHospitalId: pharmacists.hospitalId,
}

const staffQuery = (db: Db) =>
  db
    .select({ ...staffColumns, passwordHash: staffAccounts.passwordHash })
    .from(staffAccounts)
    .leftJoin(onlineDoctors, eq(onlineDoctors.doctorId, staffAccounts.doctorId))
    .leftJoin(physicianAssistants, eq(physicianAssistants.id, staffAccounts.assistantId))
    .leftJoin(pharmacists, eq(pharmacists.id, staffAccounts.pharmacistId))

type StaffRow = Awaited<ReturnType<ReturnType<typeof staffQuery>['execute']>>[number]

function contextOf(row: StaffRow, sessionId: number): StaffContext | null {
  const hospitalId = row.kind === 'doctor' ? row.doctorHospitalId : row.kind === 'assistant' ? row.assistantHospitalId : row.pharmacistHospitalId
  if (hospitalId === null) return null
  return {
    sessionId,
    staffId: row.staffId,
    kind: row.kind,
    doctorId: row.kind === 'doctor' ? row.doctorId : null,
    assistantId: row.kind === 'assistant' ? row.assistantId : null,
    pharmacistId: row.kind === 'pharmacist' ? row.pharmacistId : null,
    hospitalId,
    imAccount: row.kind === 'doctor' ? doctorImAccount(row.doctorId!) : row.kind === 'assistant' ? assistantImAccount(row.assistantId!) : '',
  }
}

/**
 * POST /dld-doctor/api/login. Each attempt is counted before the password is looked at (takeAttempt); an unknown
 * login, a wrong password and (with the right password) a disabled account answer as they do only after the same
 * scrypt work. `address` is the client's, as the server's proxy settings tell it.
 */
export async function signInStaff(db: Db, input: { login: string; password: string }, address: string, now: Date): Promise<StaffSession> {
  const login = normalizeLogin(input.login)
  const attempt = await takeAttempt(db, login, address, now)
  if (!attempt.allowed) throw new AppError(Code.TOO_MANY, lockedOut(attempt.minutes))
  const [row] = await staffQuery(db).where(eq(staffAccounts.login, login)).limit(1)
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'))
  const ok = await verifyPassword(input.password, row?.passwordHash ?? (await dummyHash))
  if (!row || !ok) throw unauthenticated(WRONG_PASSWORD)
  await db.delete(staffLoginFailures).where(and(eq(staffLoginFailures.login, login), eq(staffLoginFailures.address, address)))
  const context = contextOf(row, 0)
  if (row.disabled || !context) throw unauthenticated(ACCOUNT_DISABLED)
  const token = randomToken()
  const expiresAt = new Date(now.getTime() + STAFF_SESSION_MS)
  await db.insert(staffSessions).values({ staffId: row.staffId, tokenHash: sha256(token), expiresAt, createdAt: now })
  return { token, expiresAt: expiresAt.toISOString(), staff: await staffProfile(db, { ...context }) }
}

/** The workbench token's owner, or null: unknown, expired, signed out, or the account disabled since. */
export async function resolveStaffToken(db: Db, token: string, now = new Date()): Promise<StaffContext | null> {
  if (!token) return null
  const [row] = await db
    .select({ ...staffColumns, sessionId: staffSessions.id })
    .from(staffSessions)
    .innerJoin(staffAccounts, eq(staffAccounts.id, staffSessions.staffId))
    .leftJoin(onlineDoctors, eq(onlineDoctors.doctorId, staffAccounts.doctorId))
    .leftJoin(physicianAssistants, eq(physicianAssistants.id, staffAccounts.assistantId))
    .leftJoin(pharmacists, eq(pharmacists.id, staffAccounts.pharmacistId))
    .where(and(eq(staffSessions.tokenHash, sha256(token)), gt(staffSessions.expiresAt, now), isNull(staffSessions.revokedAt)))
    .limit(1)
  if (!row || row.disabled) return null
  return contextOf({ ...row, passwordHash: '' }, row.sessionId)
}

/** POST /dld-doctor/api/logout: the token stops working at once. */
export async function signOutStaff(db: Db, staff: StaffContext, now = new Date()): Promise<void> {
  await db.update(staffSessions).set({ revokedAt: now }).where(and(eq(staffSessions.id, staff.sessionId), isNull(staffSessions.revokedAt)))
}

/** GET /dld-doctor/api/me: name, hospital and department as the workbench shows them. */
export async function staffProfile(db: Db, staff: Omit<StaffContext, 'sessionId'>): Promise<StaffProfile> {
  const hospital = await hospitalById(db, staff.hospitalId)
  let name = ''
  let deptName = ''
  if (staff.kind === 'doctor') {
    const [doc] = await db
      .select({ name: doctors.name, deptName: departments.name })
      .from(doctors)
      .innerJoin(departments, eq(departments.id, doctors.deptId))
      .where(eq(doctors.id, staff.doctorId!))
    name = doc?.name ?? ''
    deptName = doc?.deptName ?? ''
  } else if (staff.kind === 'pharmacist') {
    const [pharmacist] = await db.select({ name: pharmacists.name }).from(pharmacists).where(eq(pharmacists.id, staff.pharmacistId!))
    name = pharmacist?.name ?? ''
    deptName = '药剂科'
  } else {
    const [assistant] = await db.select({ name: physicianAssistants.name }).from(physicianAssistants).where(eq(physicianAssistants.id, staff.assistantId!))
    name = assistant?.name ?? ''
  }
  return {
    kind: staff.kind,
    name,
    doctorId: staff.doctorId,
    assistantId: staff.assistantId,
    pharmacistId: staff.pharmacistId,
    imAccount: staff.imAccount,
    hospitalName: hospital?.name ?? '',
    deptName,
  }
}

/**
 * The uploader identity of a workbench account's files. Uploads are recorded against an identity (files.identity_id),
 * and staff have none of their own: each account gets one under provider 'workbench', which no sign-in ever resolves
 * (no patient session points at it, and it is never bound to a user), created on the first upload.
 */
export async function staffUploadIdentity(db: Db, staff: StaffContext): Promise<number> {
  const values = { provider: 'workbench' as 'wechat', appId: 'workbench', subject: `staff:${staff.staffId}` }
  await db.insert(identities).values(values).onConflictDoNothing({ target: [identities.provider, identities.appId, identities.subject] })
  const [row] = await db
    .select({ id: identities.id })
    .from(identities)
    .where(and(eq(identities.provider, values.provider), eq(identities.appId, values.appId), eq(identities.subject, values.subject)))
  return row!.id
}
