/**
 * 投诉建议 (spec §7 POST /userSuggestion, /pages/comment/index): a patient tells a hospital of a complaint, a
 * suggestion or praise, with up to 4 pictures they uploaded; the hospital's staff read them on the workbench and
 * answer once; the answer reaches the patient in the message centre (in the same transaction) and on the page.
 *
 * Rules:
 * - the words: 5 to 500 characters; at most 4 pictures, each the caller's own upload;
 * - one submission per idempotency key (a retry is the same submission); at most 5 a day per account and hospital, so
 *   that a stuck button or a script cannot bury the staff's list;
 * - staff see only their own hospital's (another's answers 2999) and answer each once (a second answer is refused,
 *   so two staff cannot both answer);
 * - the words are health data of a kind: encrypted, and cleared when the account closes (domain/account.ts).
 */
import { and, count, desc, eq, gte } from 'drizzle-orm'
import type { DeskSuggestion, Suggestion, SuggestionInput } from '../../../types/api/suggestion'
import type { Db } from '../db'
import type { FieldCipher } from '../crypto'
import { userSuggestions, users } from '../db/schema'
import { AppError, Code, conflict, forbidden, notFound } from '../errors'
import { maskMobile } from '@/utils/mask'
import { SUGGESTION_MAX, SUGGESTION_MIN, SUGGESTION_PICTURES_MAX } from '@/utils/suggestionRules'
import { requireOwnUploads } from './file'
import { requireHospitalByCode } from './hospital'
import { addUserMessage } from './userMessage'
import type { StaffContext } from './staff'
import { hospitalInstant, hospitalToday } from '@/utils/hospitalClock'

export { SUGGESTION_MAX, SUGGESTION_MIN, SUGGESTION_PICTURES_MAX }
export const SUGGESTIONS_PER_DAY = 5
export const ANSWER_MAX = 500
export const TOO_MANY_TODAY = '今日提交次数已达上限，请明天再试'
export const ALREADY_ANSWERED = '该反馈已回复'

type Row = typeof userSuggestions.$inferSelect

const toSuggestion = (cipher: FieldCipher, r: Row): Suggestion => ({
  id: r.id,
  kind: r.kind,
  content: r.contentEnc ? cipher.decrypt(r.contentEnc) : '',
  pictures: r.pictures,
  status: r.status,
  answer: r.answer,
  createdAt: r.createdAt.toISOString(),
  answeredAt: r.answeredAt?.toISOString() ?? null,
})

export async function submitSuggestion(db: Db, cipher: FieldCipher, userId: number, input: SuggestionInput, now = new Date()): Promise<Suggestion> {
  const hospital = await requireHospitalByCode(db, input.hospitalCode)
  const same = and(eq(userSuggestions.userId, userId), eq(userSuggestions.idempotencyKey, input.idempotencyKey))
  const [earlier] = await db.select().from(userSuggestions).where(same)
  if (earlier) return toSuggestion(cipher, earlier)
  await requireOwnUploads(db, userId, input.pictures, SUGGESTION_PICTURES_MAX)
  const [today] = await db
    .select({ n: count() })
    .from(userSuggestions)
    .where(and(eq(userSuggestions.userId, userId), eq(userSuggestions.hospitalId, hospital.id), gte(userSuggestions.createdAt, hospitalInstant(hospitalToday(now), '00:00'))))
  if ((today?.n ?? 0) >= SUGGESTIONS_PER_DAY) throw new AppError(Code.TOO_MANY, TOO_MANY_TODAY)
  const [row] = await db
    .insert(userSuggestions)
    .values({ hospitalId: hospital.id, userId, idempotencyKey: input.idempotencyKey, kind: input.kind, contentEnc: cipher.encrypt(input.content), pictures: input.pictures })
    .onConflictDoNothing()
    .returning()
  // the same request arriving twice at once: the other one wrote it
  return toSuggestion(cipher, row ?? (await db.select().from(userSuggestions).where(same))[0]!)
}

/** The caller's own submissions to the hospital, newest first. */
export async function mySuggestions(db: Db, cipher: FieldCipher, userId: number, hospitalCode: string): Promise<Suggestion[]> {
  const hospital = await requireHospitalByCode(db, hospitalCode)
  const rows = await db
    .select()
    .from(userSuggestions)
    .where(and(eq(userSuggestions.userId, userId), eq(userSuggestions.hospitalId, hospital.id)))
    .orderBy(desc(userSuggestions.id))
    .limit(50)
  return rows.map((r) => toSuggestion(cipher, r))
}

/** The staff's hospital's submissions: the unanswered first, each newest first. */
export async function deskSuggestions(db: Db, cipher: FieldCipher, staff: StaffContext): Promise<DeskSuggestion[]> {
  const rows = await db
    .select({ s: userSuggestions, mobileEnc: users.mobileEnc })
    .from(userSuggestions)
    .innerJoin(users, eq(users.id, userSuggestions.userId))
    .where(eq(userSuggestions.hospitalId, staff.hospitalId))
    .orderBy(desc(eq(userSuggestions.status, 'open')), desc(userSuggestions.id))
    .limit(100)
  return rows.map(({ s, mobileEnc }) => ({ ...toSuggestion(cipher, s), mobile: mobileEnc ? maskMobile(cipher.decrypt(mobileEnc)) : '' }))
}

/** Staff answer one submission of their hospital, once; the patient is told in the message centre. */
export async function answerSuggestion(db: Db, cipher: FieldCipher, staff: StaffContext, id: number, answer: string, now = new Date()): Promise<Suggestion> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(userSuggestions)
      .set({ status: 'answered', answer, answeredBy: staff.staffId, answeredAt: now })
      .where(and(eq(userSuggestions.id, id), eq(userSuggestions.hospitalId, staff.hospitalId), eq(userSuggestions.status, 'open')))
      .returning()
    if (!row) {
      const [other] = await tx.select({ hospitalId: userSuggestions.hospitalId }).from(userSuggestions).where(eq(userSuggestions.id, id))
      if (!other) throw notFound('反馈')
      if (other.hospitalId !== staff.hospitalId) throw forbidden()
      throw conflict(ALREADY_ANSWERED)
    }
    await addUserMessage(
      tx,
      { userId: row.userId, kind: 'system', title: '您的投诉建议已有回复', content: answer.length > 60 ? `${answer.slice(0, 60)}…` : answer, link: '/pages/comment/index' },
      now,
    )
    return toSuggestion(cipher, row)
  })
}
