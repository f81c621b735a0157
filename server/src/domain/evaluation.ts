/**
 * Rating a doctor (评价, spec §1 doctor ratings; §7 Internet hospital → Evaluation and gifts): once per inquiry, by its
 * patient, after the consultation was given (finished, or closed after the doctor accepted). Each rating moves the
 * doctor's good rate (online_doctors.good_rate) in the same transaction, so the doctor's page never disagrees with
 * the ratings it lists.
 */
import { desc, eq, sql } from 'drizzle-orm'
import type { DoctorEvaluations, Evaluation, EvaluationAdded, EvaluationInput, EvaluationTags } from '../../../types/api/evaluation'
import { maskName } from '@/utils/mask'
import { rowsOf, uniqueViolation, type Db, type Tx } from '../db'
import { open, type FieldCipher } from '../crypto'
import { evaluations, inquiries, onlineDoctors, patients } from '../db/schema'
import { badInput, notFound } from '../errors'
import { requireOwnInquiry } from './inquiry'
import { SCORE_MAX, GOOD_SCORE, EVALUATION_CONTENT_MAX as CONTENT_MAX, BAD_SCORE } from '@/utils/internetRules'

/** The tags a patient picks from: good ones for a good rating, bad ones otherwise (the app shows them by score). */
export const GOOD_TAGS: readonly string[] = ['回复及时', '解答专业', '态度很好', '耐心细致', '建议很有帮助', '通俗易懂']
export const BAD_TAGS: readonly string[] = ['回复慢', '解答不清楚', '态度一般', '不够耐心', '建议没有帮助']
const KNOWN_TAGS = new Set([...GOOD_TAGS, ...BAD_TAGS])

export const SCORE_MIN = 1
export { SCORE_MAX, GOOD_SCORE, CONTENT_MAX, BAD_SCORE }
export const TAGS_MAX = KNOWN_TAGS.size
export const MAX_PAGE_SIZE = 50
export const ANONYMOUS_NAME = '匿名用户'

export const NOT_EVALUABLE = '问诊结束后才能评价'
export const ALREADY_EVALUATED = '该问诊已评价，请勿重复提交'
export const UNKNOWN_TAG = '评价标签不正确'

type EvaluationRow = typeof evaluations.$inferSelect

/** GET /im/evaluate/tags. */
export function evaluationTags(): EvaluationTags {
  return { good: [...GOOD_TAGS], bad: [...BAD_TAGS] }
}

function toEvaluation(cipher: FieldCipher, row: EvaluationRow, patientNameEnc: string | null): Evaluation {
  return {
    id: row.id,
    score: row.score,
    tags: row.tags,
    content: row.content,
    // spec §9: names masked
    patientName: row.anonymous ? ANONYMOUS_NAME : maskName(open(cipher, patientNameEnc)) || ANONYMOUS_NAME,
    createdAt: row.createdAt.toISOString(),
  }
}

/** Percent of good ratings among all of the doctor's ratings; null when there are none. */
async function goodRateOf(tx: Tx, doctorId: number): Promise<number | null> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int`, good: sql<number>`(count(*) filter (where ${evaluations.score} >= ${GOOD_SCORE}))::int` })
    .from(evaluations)
    .where(eq(evaluations.doctorId, doctorId))
  if (!row || row.n === 0) return null
  return Math.round((row.good * 100) / row.n)
}

/**
 * POST /im/evaluate/add. Only the caller's own inquiry (2999 otherwise), once (the unique index on the inquiry is the
 * last line of defence), and only once the consultation was given: finished, or closed after the doctor accepted.
 * The doctor's row is locked first, so two ratings of one doctor at once count each other.
 */
export async function addEvaluation(db: Db, cipher: FieldCipher, userId: number, input: EvaluationInput, now: Date): Promise<EvaluationAdded> {
  const inq = await requireOwnInquiry(db, userId, input.inquiryId)
  if (!Number.isInteger(input.score) || input.score < SCORE_MIN || input.score > SCORE_MAX) throw badInput(BAD_SCORE)
  const tags = [...new Set(input.tags.map((t) => t.trim()))]
  if (tags.length > TAGS_MAX || tags.some((t) => !KNOWN_TAGS.has(t))) throw badInput(UNKNOWN_TAG)
  const content = input.content.trim()
  if (content.length > CONTENT_MAX) throw badInput(`评价内容不能超过${CONTENT_MAX}个字`)
  const given = inq.status === 'finished' || (inq.status === 'closed' && inq.acceptedAt !== null)
  if (!given) throw badInput(NOT_EVALUABLE)

  try {
    const { row, goodRate } = await db.transaction(async (tx) => {
      const [doctor] = await tx.select({ goodRate: onlineDoctors.goodRate }).from(onlineDoctors).where(eq(onlineDoctors.doctorId, inq.doctorId)).for('update')
      const [row] = await tx
        .insert(evaluations)
        .values({ inquiryId: inq.id, userId, doctorId: inq.doctorId, score: input.score, tags, content, anonymous: input.anonymous, createdAt: now })
        .onConflictDoNothing({ target: evaluations.inquiryId })
        .returning()
      if (!row) throw badInput(ALREADY_EVALUATED)
      const rate = await goodRateOf(tx, inq.doctorId)
      if (doctor && rate !== null) await tx.update(onlineDoctors).set({ goodRate: rate }).where(eq(onlineDoctors.doctorId, inq.doctorId))
      return { row, goodRate: rate ?? doctor?.goodRate ?? 100 }
    })
    const [patient] = await db.select({ nameEnc: patients.nameEnc }).from(patients).where(eq(patients.id, inq.patientId))
    return { evaluation: toEvaluation(cipher, row, patient?.nameEnc ?? null), inquiryId: inq.id, doctorId: inq.doctorId, goodRate }
  } catch (err) {
    if (uniqueViolation(err) === 'evaluations_inquiry_key') throw badInput(ALREADY_EVALUATED)
    throw err
  }
}

/**
 * POST /im/evaluate/doctor/evaluates: a doctor's ratings, newest first, with the count, the good rate the doctor's page
 * shows, and how often each tag was chosen. Any signed-in user may read them; names are masked or 匿名用户.
 */
export async function doctorEvaluations(db: Db, cipher: FieldCipher, input: { doctorId: number; page: number; size: number }): Promise<DoctorEvaluations> {
  const [doctor] = await db.select({ goodRate: onlineDoctors.goodRate }).from(onlineDoctors).where(eq(onlineDoctors.doctorId, input.doctorId))
  if (!doctor) throw notFound('医生')
  const size = Math.min(input.size, MAX_PAGE_SIZE)
  const [rows, [total], tagCounts] = await Promise.all([
    db
      .select({ evaluation: evaluations, nameEnc: patients.nameEnc })
      .from(evaluations)
      .innerJoin(inquiries, eq(inquiries.id, evaluations.inquiryId))
      .innerJoin(patients, eq(patients.id, inquiries.patientId))
      .where(eq(evaluations.doctorId, input.doctorId))
      .orderBy(desc(evaluations.createdAt), desc(evaluations.id))
      .limit(size)
      .offset((input.page - 1) * size),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(evaluations)
      .where(eq(evaluations.doctorId, input.doctorId)),
    db.execute(
      sql`select tag, count(*)::int as count from ${evaluations}, jsonb_array_elements_text(${evaluations.tags}) as tag
          where ${evaluations.doctorId} = ${input.doctorId} group by tag order by count(*) desc, tag collate "C"`,
    ),
  ])
  return {
    records: rows.map((r) => toEvaluation(cipher, r.evaluation, r.nameEnc)),
    total: total?.n ?? 0,
    page: input.page,
    size,
    summary: {
      count: total?.n ?? 0,
      goodRate: doctor.goodRate,
      tags: rowsOf<{ tag: string; count: number }>(tagCounts).map((t) => ({ tag: t.tag, count: Number(t.count) })),
    },
  }
}
