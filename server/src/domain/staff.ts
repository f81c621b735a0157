/**
 * Workbench accounts (`/workbench/`, `/dld-doctor/api`): a seeded doctor or physician assistant signs in with a login
 * and a password and gets an opaque bearer token for 12 hours. Passwords are kept as salted scrypt hashes; tokens only
 * as SHA-256 hashes in staff_sessions. A workbench token lives in a table the patients' token lookup never reads (and
 * the other way round), so neither kind of token works on the other kind of call.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { and, eq, gt, isNull } from 'drizzle-orm'
import type { StaffKind, StaffProfile, StaffSession } from '../../../types/api/workbench'
import type { Db } from '../db'
import { randomToken, sha256 } from '../crypto'
import { departments, doctors, hospitals, identities, onlineDoctors, physicianAssistants, staffAccounts, staffSessions } from '../db/schema'
import { AppError, Code, badInput, unauthenticated } from '../errors'
import { assistantImAccount, doctorImAccount } from './internetDoctors'

/** A workbench token lives one working day. */
export const STAFF_SESSION_MS = 12 * 3600_000
/**
 * Brute force: after LOGIN_MAX_FAILURES wrong passwords for one login within LOGIN_WINDOW_MS the login is locked until
 * the window has passed, counted for unknown logins too (so the answer says nothing about which logins exist). The
 * route also limits sign-in calls per client address (routes/workbench.ts). The count is kept per server process: with
 * N processes an attacker gets at most N × 5 guesses per 15 minutes per login, still far too few for a password.
 */
export const LOGIN_MAX_FAILURES = 5
export const LOGIN_WINDOW_MS = 15 * 60_000

export const WRONG_PASSWORD = '账号或密码错误'
export const ACCOUNT_DISABLED = '账号已停用，请联系医院管理员'
export const LOCKED_OUT = `登录失败次数过多，请${LOGIN_WINDOW_MS / 60_000}分钟后再试`
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

/** Creates a workbench account (the seed, tests); answers its id, or null when the login is taken. */
export async function createStaffAccount(db: Db, input: StaffAccountInput): Promise<number | null> {
  if (input.password.length < PASSWORD_MIN) throw badInput(`密码至少${PASSWORD_MIN}位`)
  const [row] = await db
    .insert(staffAccounts)
    .values({
      kind: input.kind,
      doctorId: input.kind === 'doctor' ? input.doctorId : null,
      assistantId: input.kind === 'assistant' ? input.assistantId : null,
      login: normalizeLogin(input.login),
      passwordHash: await hashPassword(input.password),
    })
    .onConflictDoNothing({ target: staffAccounts.login })
    .returning({ id: staffAccounts.id })
  return row?.id ?? null
}

// ---- sign-in -------------------------------------------------------------------------------------------------------

/** Wrong passwords per login in this process (see LOGIN_MAX_FAILURES); one per app. */
export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; since: number }>()

  constructor(
    readonly max = LOGIN_MAX_FAILURES,
    readonly windowMs = LOGIN_WINDOW_MS,
    /** Entries kept at most: a flood of made-up logins cannot grow the map without bound. */
    readonly capacity = 10_000,
  ) {}

  private current(login: string, now: number) {
    const entry = this.failures.get(login)
    if (entry && now - entry.since >= this.windowMs) {
      this.failures.delete(login)
      return null
    }
    return entry ?? null
  }

  /** 429 while the login is locked. */
  check(login: string, now: number) {
    const entry = this.current(login, now)
    if (entry && entry.count >= this.max) throw new AppError(Code.TOO_MANY, LOCKED_OUT)
  }

  fail(login: string, now: number) {
    const entry = this.current(login, now)
    if (entry) entry.count += 1
    else {
      if (this.failures.size >= this.capacity) {
        for (const [key, e] of this.failures) if (now - e.since >= this.windowMs) this.failures.delete(key)
        // still full: forget the oldest (Map keeps insertion order)
        if (this.failures.size >= this.capacity) this.failures.delete(this.failures.keys().next().value!)
      }
      this.failures.set(login, { count: 1, since: now })
    }
  }

  succeed(login: string) {
    this.failures.delete(login)
  }
}

/** Who a workbench token belongs to. */
export interface StaffContext {
  sessionId: number
  staffId: number
  kind: StaffKind
  doctorId: number | null
  assistantId: number | null
  hospitalId: number
  imAccount: string
}

const staffColumns = {
  staffId: staffAccounts.id,
  kind: staffAccounts.kind,
  doctorId: staffAccounts.doctorId,
  assistantId: staffAccounts.assistantId,
  disabled: staffAccounts.disabled,
  doctorHospitalId: onlineDoctors.hospitalId,
  assistantHospitalId: physicianAssistants.hospitalId,
}

const staffQuery = (db: Db) =>
  db
    .select({ ...staffColumns, passwordHash: staffAccounts.passwordHash })
    .from(staffAccounts)
    .leftJoin(onlineDoctors, eq(onlineDoctors.doctorId, staffAccounts.doctorId))
    .leftJoin(physicianAssistants, eq(physicianAssistants.id, staffAccounts.assistantId))

type StaffRow = Awaited<ReturnType<ReturnType<typeof staffQuery>['execute']>>[number]

function contextOf(row: StaffRow, sessionId: number): StaffContext | null {
  const hospitalId = row.kind === 'doctor' ? row.doctorHospitalId : row.assistantHospitalId
  if (hospitalId === null) return null
  return {
    sessionId,
    staffId: row.staffId,
    kind: row.kind,
    doctorId: row.kind === 'doctor' ? row.doctorId : null,
    assistantId: row.kind === 'assistant' ? row.assistantId : null,
    hospitalId,
    imAccount: row.kind === 'doctor' ? doctorImAccount(row.doctorId!) : assistantImAccount(row.assistantId!),
  }
}

/**
 * POST /dld-doctor/api/login. Locked logins are refused before the password is looked at; an unknown login, a wrong
 * password and (with the right password) a disabled account answer as they do only after the same scrypt work.
 */
export async function signInStaff(db: Db, throttle: LoginThrottle, input: { login: string; password: string }, now: Date): Promise<StaffSession> {
  const login = normalizeLogin(input.login)
  throttle.check(login, now.getTime())
  const [row] = await staffQuery(db).where(eq(staffAccounts.login, login)).limit(1)
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'))
  const ok = await verifyPassword(input.password, row?.passwordHash ?? (await dummyHash))
  if (!row || !ok) {
    throttle.fail(login, now.getTime())
    throw unauthenticated(WRONG_PASSWORD)
  }
  throttle.succeed(login)
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
  const [hospital] = await db.select({ name: hospitals.name }).from(hospitals).where(eq(hospitals.id, staff.hospitalId))
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
  } else {
    const [assistant] = await db.select({ name: physicianAssistants.name }).from(physicianAssistants).where(eq(physicianAssistants.id, staff.assistantId!))
    name = assistant?.name ?? ''
  }
  return {
    kind: staff.kind,
    name,
    doctorId: staff.doctorId,
    assistantId: staff.assistantId,
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
