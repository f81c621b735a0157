import { randomInt } from 'node:crypto'
import { and, desc, eq, gt, inArray, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm'
import { rowsOf, uniqueViolation, type Db, type Tx } from '../db'
import { identities, oauthCodes, rateCounters, reportVerifications, sessions, smsCodes, users } from '../db/schema'
import { FieldCipher, randomToken, sha256 } from '../crypto'
import { AppError, Code, badInput, conflict, unauthenticated } from '../errors'
import { maskMobile } from '@/utils/mask'
import { isMobile } from '@/utils/phoneCode'
import { revokeChatSignatures } from './chat'
import { windowStart, type CountedCall } from './limits'
import { patientImAccount } from '@/utils/chatRules'
import { PHONE_CODE_USED, type OAuthProfile, type WechatProvider } from '../plugins/providers/oauth'
import type { SmsProvider } from '../plugins/providers/sms'

/** Access tokens live 2 hours (like WeChat's own); refresh tokens 30 days. */
export const ACCESS_TTL_MS = 2 * 60 * 60 * 1000
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000
/** A rotated refresh token used again within this long is a retry, not a theft (revokeOnReuse). */
export const REFRESH_REUSE_GRACE_MS = 10_000
/** Sandbox one-time authorisation codes expire after 5 minutes, as WeChat's do. */
export const OAUTH_CODE_TTL_MS = 5 * 60 * 1000
export const SMS_CODE_TTL_MS = 5 * 60 * 1000
/** Wrong guesses allowed against one SMS code before it is burnt. */
export const SMS_MAX_ATTEMPTS = 5
export const SMS_CODE_EXPIRED = '验证码已失效，请重新获取'
/** One SMS per mobile per minute, matching the app's 60 s countdown (spec §9). */
export const SMS_RESEND_MS = 60 * 1000

/**
 * What a call that sent a code answers: when another may be asked for, and the code itself on a test server only
 * (automated tests read it from the answer; everywhere else it goes by SMS, or to the sandbox log).
 */
export const codeSentAnswer = (code: string, mode: string) => ({ sent: true, resendAfter: SMS_RESEND_MS / 1000, ...(mode === 'test' ? { devCode: code } : {}) })
const DAY_MS = 24 * 60 * 60 * 1000
/**
 * Codes one mobile may be sent in 24 hours: with SMS_MAX_ATTEMPTS guesses each, at most 50 guesses a day can be
 * made at a million codes, however many addresses an attacker has.
 */
export const SMS_PER_MOBILE_PER_DAY = 10
export const SMS_DAILY_LIMIT = '今日验证码发送次数已达上限，请明天再试'

export interface AuthContext {
  sessionId: number
  identityId: number
  provider: 'wechat' | 'alipay'
  appId: string
  userId: number | null
}

export interface IssuedSession {
  token: string
  refreshToken: string
  /** Milliseconds since epoch: the app's lifeData expire stamp (spec §3). */
  expireTime: number
  appId: string
}

export async function issueSession(tx: Tx, identityId: number, appId: string, now = new Date()): Promise<IssuedSession> {
  const token = randomToken()
  const refreshToken = randomToken()
  const accessExpiresAt = new Date(now.getTime() + ACCESS_TTL_MS)
  await tx.insert(sessions).values({
    identityId,
    accessHash: sha256(token),
    refreshHash: sha256(refreshToken),
    accessExpiresAt,
    refreshExpiresAt: new Date(now.getTime() + REFRESH_TTL_MS),
  })
  return { token, refreshToken, expireTime: accessExpiresAt.getTime(), appId }
}

/**
 * The session of an access token that is in force. `counted`: the call counts against its caller's limit
 * (domain/limits.ts), in the same statement, since every limited call looks its session up first: `calls` is the
 * caller's count in the window, this call included (null when not counted).
 */
export async function resolveToken(db: Db, token: string, now = new Date(), counted?: CountedCall): Promise<{ auth: AuthContext; calls: number | null } | null> {
  const found = sql`
    select s.id as session_id, i.id as identity_id, i.provider, i.app_id, i.user_id
    from ${sessions} s join ${identities} i on i.id = s.identity_id
    where s.access_hash = ${sha256(token)} and s.access_expires_at > ${now.toISOString()}::timestamptz and s.revoked_at is null
    limit 1`
  const query = counted
    ? sql`
      with found as (${found}), counted as (
        insert into ${rateCounters} (key, window_start, count)
        select ${counted.route} || ' ' || case when user_id is not null then 'u' || user_id else 'i' || identity_id end,
          ${windowStart(counted.limit, now.getTime()).toISOString()}::timestamptz, 1
        from found
        on conflict (key, window_start) do update set count = ${rateCounters}.count + 1
        returning count
      )
      select found.*, (select count from counted) as calls from found`
    : found
  type Row = { session_id: number; identity_id: number; provider: AuthContext['provider']; app_id: string; user_id: number | null; calls?: number | null }
  const [row] = rowsOf<Row>(await db.execute(query))
  if (!row) return null
  return { auth: { sessionId: row.session_id, identityId: row.identity_id, provider: row.provider, appId: row.app_id, userId: row.user_id }, calls: row.calls ?? null }
}

/** Records a one-time code handed out by a sandbox authorisation page. */
export async function createOAuthCode(db: Tx, profile: OAuthProfile & { provider: 'wechat' | 'alipay'; appId: string }) {
  const code = randomToken(16)
  await db.insert(oauthCodes).values({
    codeHash: sha256(code),
    provider: profile.provider,
    appId: profile.appId,
    subject: profile.subject,
    scope: profile.scope,
    nickname: profile.nickname ?? '',
    avatar: profile.avatar ?? '',
    unionId: profile.unionId ?? null,
    expiresAt: new Date(Date.now() + OAUTH_CODE_TTL_MS),
  })
  return code
}

/** The scope of a sandbox phone-number code (its subject is the mobile); never a sign-in. */
export const PHONE_SCOPE = 'phone'

/** Marks a sandbox code used, exactly once (the conditional update is the lock), if it is of the kind asked for. */
async function takeOAuthCode(db: Db, provider: 'wechat' | 'alipay', appId: string, code: string, phone: boolean) {
  const [row] = await db
    .update(oauthCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(oauthCodes.codeHash, sha256(code)),
        eq(oauthCodes.provider, provider),
        eq(oauthCodes.appId, appId),
        phone ? eq(oauthCodes.scope, PHONE_SCOPE) : ne(oauthCodes.scope, PHONE_SCOPE),
        isNull(oauthCodes.usedAt),
        gt(oauthCodes.expiresAt, new Date()),
      ),
    )
    .returning()
  return row ?? null
}

/** Redeems a sandbox sign-in code exactly once. */
export async function redeemOAuthCode(db: Db, provider: 'wechat' | 'alipay', appId: string, code: string): Promise<OAuthProfile> {
  const row = await takeOAuthCode(db, provider, appId, code, false)
  if (!row) throw new AppError(Code.UNAUTHENTICATED, '授权码无效或已使用，请重新授权')
  return { subject: row.subject, scope: row.scope, nickname: row.nickname, avatar: row.avatar, unionId: row.unionId ?? undefined }
}

/** Redeems a sandbox phone-number code exactly once: the mobile WeChat would have verified. */
export async function redeemPhoneCode(db: Db, appId: string, code: string): Promise<string> {
  const row = await takeOAuthCode(db, 'wechat', appId, code, true)
  if (!row) throw badInput(PHONE_CODE_USED)
  return row.subject
}

/**
 * Finds or creates the identity for a provider subject and opens a session for it. A new identity whose union id
 * (WeChat's unionid: the same person in the hospital's official account and its mini-program) an identity of the
 * same provider already has joins that identity's user, so that the patient finds the same account in the H5 app
 * and the mini-program. Only a new identity: one the patient unbound (cancelBind) stays unbound.
 */
export async function signIn(db: Db, provider: 'wechat' | 'alipay', appId: string, profile: OAuthProfile) {
  return db.transaction(async (tx) => {
    const [identity] = await tx
      .insert(identities)
      .values({ provider, appId, subject: profile.subject, nickname: profile.nickname ?? '', avatar: profile.avatar ?? '', unionId: profile.unionId ?? null })
      .onConflictDoUpdate({
        target: [identities.provider, identities.appId, identities.subject],
        // a base-scope sign-in carries no profile: keep what a user-info sign-in stored
        set: {
          ...(profile.nickname ? { nickname: profile.nickname, avatar: profile.avatar ?? '' } : { nickname: sql`${identities.nickname}` }),
          ...(profile.unionId ? { unionId: profile.unionId } : {}),
        },
      })
      .returning({ id: identities.id, userId: identities.userId, created: sql<boolean>`(xmax = 0)` })
    if (!identity) throw new Error('identity upsert returned nothing')
    let userId = identity.userId
    if (identity.created && !userId && profile.unionId) {
      const [twin] = await tx
        .select({ userId: identities.userId })
        .from(identities)
        .where(and(eq(identities.provider, provider), eq(identities.unionId, profile.unionId), isNotNull(identities.userId), ne(identities.id, identity.id)))
        .orderBy(desc(identities.id))
        .limit(1)
      if (twin?.userId) {
        userId = twin.userId
        await tx.update(identities).set({ userId }).where(eq(identities.id, identity.id))
      }
    }
    const session = await issueSession(tx, identity.id, appId)
    return { ...session, userId: userId ?? 0 }
  })
}

/**
 * A refresh token that was already rotated away has been copied: whoever holds it and whoever holds its successor
 * cannot be told apart, so every live session of the identity ends (OAuth's refresh token reuse detection). A reuse
 * within REFRESH_REUSE_GRACE_MS of the rotation is a client retrying a refresh whose answer it lost, and only refused.
 */
async function revokeOnReuse(tx: Tx, refreshToken: string, now: Date) {
  const [rotated] = await tx
    .select({ identityId: sessions.identityId, revokedAt: sessions.revokedAt })
    .from(sessions)
    .where(and(eq(sessions.refreshHash, sha256(refreshToken)), gt(sessions.refreshExpiresAt, now)))
  if (!rotated?.revokedAt || now.getTime() - rotated.revokedAt.getTime() < REFRESH_REUSE_GRACE_MS) return
  await tx.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.identityId, rotated.identityId), isNull(sessions.revokedAt)))
}

export async function refreshSession(db: Db, refreshToken: string, provider: 'wechat' | 'alipay') {
  const now = new Date()
  const rotated = await db.transaction(async (tx) => {
    const [old] = await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.refreshHash, sha256(refreshToken)), gt(sessions.refreshExpiresAt, now), isNull(sessions.revokedAt)))
      .returning()
    if (!old) return null
    const [identity] = await tx.select().from(identities).where(eq(identities.id, old.identityId))
    if (!identity || identity.provider !== provider) throw unauthenticated()
    const session = await issueSession(tx, identity.id, identity.appId, now)
    return { ...session, userId: identity.userId ?? 0 }
  })
  if (rotated) return rotated
  // outside the refused transaction, so that the revocation stays
  await revokeOnReuse(db, refreshToken, now)
  throw unauthenticated()
}

/**
 * One-time codes are kept only while they can matter (the order sweep runs this): an SMS code until it leaves the
 * day that counts toward SMS_PER_MOBILE_PER_DAY, a sandbox sign-in code a day past its expiry. Neither is read after
 * that; a code sent again once its row is gone is refused just the same (no row, no sign-in).
 */
export async function pruneOneTimeCodes(db: Db, now = Date.now()): Promise<void> {
  await db.delete(smsCodes).where(lt(smsCodes.createdAt, new Date(now - DAY_MS)))
  await db.delete(oauthCodes).where(lt(oauthCodes.expiresAt, new Date(now - DAY_MS)))
}

/**
 * Forgets patients' sessions a day past their refresh token's expiry, with the report verifications made in them:
 * nothing can use or renew them any more. Until then a rotated session is kept, so that its refresh token used again
 * is seen as a theft (revokeOnReuse). The order sweep calls it.
 */
export async function pruneSessions(db: Db, now = Date.now()): Promise<void> {
  const before = new Date(now - DAY_MS)
  await db.transaction(async (tx) => {
    const gone = tx.select({ id: sessions.id }).from(sessions).where(lt(sessions.refreshExpiresAt, before))
    await tx.delete(reportVerifications).where(inArray(reportVerifications.sessionId, gone))
    await tx.delete(sessions).where(lt(sessions.refreshExpiresAt, before))
  })
}

/** From the operating system's random source: Math.random's generator can be predicted from its earlier output. */
export function generateSmsCode(): string {
  return String(randomInt(1_000_000)).padStart(6, '0')
}

/**
 * Stores a new code for the mobile, refusing a second one for the same purpose within the resend window and more
 * than SMS_PER_MOBILE_PER_DAY a day of any purpose (a patient who has just bound the number may ask at once for a
 * code to download the account's data; nobody can send a number more than the day's codes). Both are read and written under a per-mobile lock, so a burst of requests cannot
 * slip several codes (and with them fresh sets of guesses) past either limit.
 */
export async function createSmsCode(db: Db, cipher: FieldCipher, mobile: string, purpose: string): Promise<string> {
  const mobileIndex = cipher.blindIndex(mobile)
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sms:${mobileIndex}`}))`)
    const now = Date.now()
    const [counts] = await tx
      .select({
        recent: sql<number>`count(*) filter (where ${smsCodes.purpose} = ${purpose} and ${smsCodes.createdAt} > ${new Date(now - SMS_RESEND_MS)})`.mapWith(Number),
        today: sql<number>`count(*)`.mapWith(Number),
      })
      .from(smsCodes)
      .where(and(eq(smsCodes.mobileIndex, mobileIndex), gt(smsCodes.createdAt, new Date(now - DAY_MS))))
    if (counts?.recent) throw new AppError(Code.TOO_MANY, '验证码已发送，请60秒后再试')
    if ((counts?.today ?? 0) >= SMS_PER_MOBILE_PER_DAY) throw new AppError(Code.TOO_MANY, SMS_DAILY_LIMIT)
    const code = generateSmsCode()
    await tx.insert(smsCodes).values({
      mobileIndex,
      codeHash: sha256(`${mobileIndex}:${code}`),
      purpose,
      expiresAt: new Date(now + SMS_CODE_TTL_MS),
    })
    return code
  })
}

/** What an SMS code proves: the account's own mobile ('bind'), or a patient's mobile ('patient'). */
export type SmsPurpose = 'bind' | 'patient'

/** Creates a code and sends it through the SMS provider; answers the code (tests read it in test mode). */
export async function sendBindCode(db: Db, cipher: FieldCipher, sms: SmsProvider, mobile: string, purpose: SmsPurpose = 'bind'): Promise<string> {
  const code = await createSmsCode(db, cipher, mobile, purpose)
  await sms.sendCode(mobile, code)
  return code
}

/**
 * Checks a code once. Each guess, right or wrong, spends one of the newest live code's SMS_MAX_ATTEMPTS in one
 * conditional update before it is compared, so however many guesses arrive at once, at most that many are ever
 * compared (a read-compare-increment let a burst of 100 wrong codes through and then accepted the right one).
 */
export async function consumeSmsCode(tx: Tx, cipher: FieldCipher, mobile: string, code: string, purpose: string) {
  const mobileIndex = cipher.blindIndex(mobile)
  const newest = tx
    .select({ id: smsCodes.id })
    .from(smsCodes)
    .where(and(eq(smsCodes.mobileIndex, mobileIndex), eq(smsCodes.purpose, purpose), isNull(smsCodes.usedAt)))
    .orderBy(desc(smsCodes.createdAt), desc(smsCodes.id))
    .limit(1)
  const [guess] = await tx
    .update(smsCodes)
    .set({ attempts: sql`${smsCodes.attempts} + 1` })
    .where(
      and(
        eq(smsCodes.id, sql`(${newest})`),
        lt(smsCodes.attempts, SMS_MAX_ATTEMPTS),
        gt(smsCodes.expiresAt, new Date()),
        isNull(smsCodes.usedAt),
      ),
    )
    .returning({ id: smsCodes.id, codeHash: smsCodes.codeHash })
  if (!guess) throw badInput(SMS_CODE_EXPIRED)
  if (guess.codeHash !== sha256(`${mobileIndex}:${code}`)) throw badInput('验证码错误')
  const [used] = await tx
    .update(smsCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(smsCodes.id, guess.id), isNull(smsCodes.usedAt)))
    .returning({ id: smsCodes.id })
  if (!used) throw badInput(SMS_CODE_EXPIRED)
}

/**
 * Binds the signed-in identity to the person owning `mobile` (creating them on first bind).
 * A mobile already bound under this app to another identity is moved: the person proved they hold the phone.
 */
export async function bindMobile(
  db: Db,
  cipher: FieldCipher,
  auth: AuthContext,
  input: { mobile: string; code: string; sourceType: number },
) {
  if (auth.userId) throw badInput(ALREADY_BOUND)
  // the attempt counter must survive a wrong code, so it is checked outside the bind transaction
  await consumeSmsCode(db, cipher, input.mobile, input.code, 'bind')
  return bindVerifiedMobile(db, cipher, auth, input.mobile, input.sourceType)
}

/**
 * Binds the signed-in WeChat identity to the mobile behind the mini-program's phone-number button: WeChat has
 * verified it, so no SMS code is asked for. Only a mainland number (+86), as the SMS binding takes.
 */
export async function bindWechatPhone(
  db: Db,
  cipher: FieldCipher,
  wechat: Pick<WechatProvider, 'miniPhone'>,
  auth: AuthContext,
  input: { code: string; sourceType: number },
) {
  if (auth.provider !== 'wechat') throw badInput('请在微信中使用')
  if (auth.userId) throw badInput(ALREADY_BOUND)
  const { mobile, countryCode } = await wechat.miniPhone(auth.appId, input.code)
  if (countryCode !== '86' || !isMobile(mobile)) throw badInput('请使用中国大陆手机号，或通过短信验证码绑定')
  return bindVerifiedMobile(db, cipher, auth, mobile, input.sourceType)
}

/** The user of a mobile the caller has proven (a new one on first bind), and the signed-in identity joined to it. */
async function bindVerifiedMobile(db: Db, cipher: FieldCipher, auth: AuthContext, mobile: string, sourceType: number) {
  const input = { mobile, sourceType }
  return db.transaction(async (tx) => {
    const mobileIndex = cipher.blindIndex(input.mobile)
    const [identity] = await tx.select().from(identities).where(eq(identities.id, auth.identityId))
    if (!identity) throw unauthenticated()
    const [existing] = await tx.select().from(users).where(eq(users.mobileIndex, mobileIndex))
    const user =
      existing ??
      (
        await tx
          .insert(users)
          .values({
            mobileEnc: cipher.encrypt(input.mobile),
            mobileIndex,
            nickname: identity.nickname,
            avatar: identity.avatar,
            sourceType: input.sourceType,
          })
          .returning()
      )[0]
    if (!user) throw new Error('user insert returned nothing')
    await tx.update(identities).set({ userId: user.id }).where(eq(identities.id, identity.id))
    return user
  })
}

/** The Alipay bind (`/dld-hospital/alipayBind`): the rules of bindMobile, for an Alipay identity only. */
export async function bindAlipay(db: Db, cipher: FieldCipher, auth: AuthContext, input: { mobile: string; code: string; sourceType: number }) {
  if (auth.provider !== 'alipay') throw badInput('请在支付宝中使用')
  return bindMobile(db, cipher, auth, input)
}

/**
 * Detaches the signed-in WeChat/Alipay identity from its user. The user and their patients stay: binding the same
 * mobile again brings them back. The user's chat signatures are revoked with it (a signature lives 7 days); the
 * user's other phones, still bound, sign in to the chat again with fresh ones.
 */
export async function cancelBind(db: Db, auth: AuthContext): Promise<{ userId: 0 }> {
  await db.transaction(async (tx) => {
    await tx.update(identities).set({ userId: null }).where(eq(identities.id, auth.identityId))
    if (auth.userId) await revokeChatSignatures(tx, patientImAccount(auth.userId))
  })
  return { userId: 0 }
}

export const MOBILE_TAKEN = '该手机号已绑定其他账号'
export const ALREADY_BOUND = '当前账号已绑定手机号'

/**
 * Moves the user to a new mobile proven by a 'bind' SMS code. The code is checked before anything is said about
 * the number, so the call cannot be used to learn whose number is registered.
 */
export async function changeMobile(db: Db, cipher: FieldCipher, userId: number, input: { mobile: string; code: string }) {
  const mobileIndex = cipher.blindIndex(input.mobile)
  const [current] = await db.select({ mobileIndex: users.mobileIndex }).from(users).where(eq(users.id, userId))
  if (!current) throw unauthenticated()
  if (current.mobileIndex === mobileIndex) throw badInput('新手机号与当前绑定的手机号相同')
  // the attempt counter must survive a wrong code, so it is checked outside the transaction (as in bindMobile)
  await consumeSmsCode(db, cipher, input.mobile, input.code, 'bind')
  try {
    return await db.transaction(async (tx) => {
      const [other] = await tx.select({ id: users.id }).from(users).where(and(eq(users.mobileIndex, mobileIndex), ne(users.id, userId)))
      if (other) throw conflict(MOBILE_TAKEN)
      await tx.update(users).set({ mobileEnc: cipher.encrypt(input.mobile), mobileIndex }).where(eq(users.id, userId))
      return { userId, mobile: maskMobile(input.mobile) }
    })
  } catch (err) {
    if (uniqueViolation(err) === 'users_mobile_index_key') throw conflict(MOBILE_TAKEN)
    throw err
  }
}
