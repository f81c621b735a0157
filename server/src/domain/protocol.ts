/**
 * The platform's user agreement and privacy policy, and each account's consent to them (PIPL art. 14, 17).
 *
 * Rules:
 * - The texts are the platform's, not one hospital's: the app is one service whatever hospital a patient picks, so
 *   one consent covers it. The platform is the first hospital (by sort, then id), which runs it — the same one the
 *   about pages read before any hospital is chosen (HospitalStore.textConfig).
 * - A text's version is the first 16 hex digits of its SHA-256: changing a word is a new version, and nobody has to
 *   remember to bump a number. Consent names the versions the person was shown; consenting to anything but the
 *   texts in force is refused (the page they read is out of date), and nothing is recorded.
 * - An account needs to consent when it has no consent row for the current pair of versions. Only bound accounts
 *   consent (id 0, a visitor before binding, has nothing to record against; the bind page asks before binding).
 */
import { createHash } from 'node:crypto'
import { and, asc, desc, eq } from 'drizzle-orm'
import type { ProtocolConsent, Protocols } from '../../../types/api/hospital'
import type { Db } from '../db'
import { hospitals, protocolConsents } from '../db/schema'
import { conflict } from '../errors'

const TITLES = { userAgreement: '用户协议', privacyPolicy: '隐私政策' } as const

export const protocolVersion = (content: string) => createHash('sha256').update(content, 'utf8').digest('hex').slice(0, 16)

/** The texts in force: the platform hospital's `userAgreement` and `privacyPolicy`. */
export async function currentProtocols(db: Db): Promise<Protocols> {
  const [platform] = await db.select({ textConfig: hospitals.textConfig }).from(hospitals).orderBy(asc(hospitals.sort), asc(hospitals.id)).limit(1)
  const text = (key: keyof typeof TITLES) => {
    const content = platform?.textConfig[key] ?? ''
    return { title: TITLES[key], content, version: protocolVersion(content) }
  }
  return { userAgreement: text('userAgreement'), privacyPolicy: text('privacyPolicy') }
}

/** Whether the account must (again) agree before going on. */
export async function consentNeeded(db: Db, userId: number): Promise<boolean> {
  if (!userId) return false
  const now = await currentProtocols(db)
  if (!now.userAgreement.content && !now.privacyPolicy.content) return false
  const [last] = await db
    .select()
    .from(protocolConsents)
    .where(eq(protocolConsents.userId, userId))
    .orderBy(desc(protocolConsents.id))
    .limit(1)
  return !last || last.userAgreementVersion !== now.userAgreement.version || last.privacyPolicyVersion !== now.privacyPolicy.version
}

/** Records that the account agreed to the texts in force; a second consent to the same versions records nothing. */
export async function recordConsent(db: Db, userId: number, consent: ProtocolConsent): Promise<{ consentedAt: string }> {
  const now = await currentProtocols(db)
  if (consent.userAgreementVersion !== now.userAgreement.version || consent.privacyPolicyVersion !== now.privacyPolicy.version) {
    throw conflict('协议内容已更新，请重新阅读后同意')
  }
  const same = and(
    eq(protocolConsents.userId, userId),
    eq(protocolConsents.userAgreementVersion, consent.userAgreementVersion),
    eq(protocolConsents.privacyPolicyVersion, consent.privacyPolicyVersion),
  )
  const [existing] = await db.select().from(protocolConsents).where(same).orderBy(desc(protocolConsents.id)).limit(1)
  if (existing) return { consentedAt: existing.createdAt.toISOString() }
  const [row] = await db.insert(protocolConsents).values({ userId, ...consent }).returning()
  return { consentedAt: row!.createdAt.toISOString() }
}

/** The account's consents, oldest first, for its data copy. */
export async function consentsOf(db: Db, userId: number) {
  const rows = await db.select().from(protocolConsents).where(eq(protocolConsents.userId, userId)).orderBy(asc(protocolConsents.id))
  return rows.map((r) => ({ userAgreementVersion: r.userAgreementVersion, privacyPolicyVersion: r.privacyPolicyVersion, consentedAt: r.createdAt.toISOString() }))
}
