/**
 * Satisfaction surveys (满意度调查, spec §2 /pages/survey/list, /index, /result; §7 Internet hospital → Surveys).
 *
 * One answer per account per survey: a survey asks about the caller's own experience of the hospital, not about one
 * of their patients, so the account answers (the family member who booked for a parent answers about the service
 * they used). A second answer is refused; the unique index (survey, user) stops two at once, inside the transaction
 * that stores it. Free words are personal data and are stored encrypted; the choices and stars are plain so the
 * workbench can count them.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import type {
  DeskQuestionStats,
  DeskSurvey,
  DeskSurveyResults,
  Survey,
  SurveyAnswerInput,
  SurveyAnswerItem,
  SurveyQuestion,
  SurveyResult,
  SurveySummary,
} from '../../../types/api/survey'
import { maskMobile } from '@/utils/mask'
import { SURVEY_RATING_MAX, SURVEY_TEXT_MAX, surveyTextLength } from '@/utils/surveyRules'
import { rowsOf, uniqueViolation, type Db } from '../db'
import { open, type FieldCipher } from '../crypto'
import { hospitals, surveyAnswers, surveys, users } from '../db/schema'
import { badInput, forbidden, notFound } from '../errors'
import { requireHospitalByCode } from './hospital'
import type { StaffContext } from './staff'

export const ALREADY_ANSWERED = '您已参与过该调查，每人只能提交一次'
export const UNKNOWN_QUESTION = '答案中有不属于本调查的题目'
export const UNKNOWN_OPTION = '答案中有不存在的选项'
export const BAD_RATING = `评分应为1至${SURVEY_RATING_MAX}星`
export const DUPLICATE_QUESTION = '同一题目只能回答一次'
/** How many of the newest free-text answers the workbench shows per question. */
export const LATEST_TEXTS = 10

type SurveyRow = typeof surveys.$inferSelect

function summaryOf(row: SurveyRow, hospitalCode: string, answered: boolean): SurveySummary {
  return { id: row.id, hospitalCode, title: row.title, intro: row.intro, questionCount: row.questions.length, answered }
}

async function answeredBy(db: Db, userId: number, surveyIds: number[]): Promise<Set<number>> {
  if (surveyIds.length === 0) return new Set()
  const rows = await db
    .select({ surveyId: surveyAnswers.surveyId })
    .from(surveyAnswers)
    .where(and(eq(surveyAnswers.userId, userId), inArray(surveyAnswers.surveyId, surveyIds)))
  return new Set(rows.map((r) => r.surveyId))
}

/** GET /survey/list: the hospital's surveys in order, each saying whether the caller answered it (已参与). */
export async function listSurveys(db: Db, userId: number, hospitalCode: string): Promise<SurveySummary[]> {
  const hospital = await requireHospitalByCode(db, hospitalCode)
  const rows = await db.select().from(surveys).where(eq(surveys.hospitalId, hospital.id)).orderBy(surveys.sort, surveys.id)
  const answered = await answeredBy(db, userId, rows.map((r) => r.id))
  return rows.map((r) => summaryOf(r, hospital.code, answered.has(r.id)))
}

async function requireSurvey(db: Db, id: number) {
  const [row] = await db
    .select({ survey: surveys, hospitalCode: hospitals.code, hospitalName: hospitals.name })
    .from(surveys)
    .innerJoin(hospitals, eq(hospitals.id, surveys.hospitalId))
    .where(eq(surveys.id, id))
    .limit(1)
  if (!row) throw notFound('调查')
  return row
}

const surveyOf = (row: Awaited<ReturnType<typeof requireSurvey>>, answered: boolean): Survey => ({
  ...summaryOf(row.survey, row.hospitalCode, answered),
  hospitalName: row.hospitalName,
  questions: row.survey.questions,
})

/** GET /survey/{id}: the questions, and whether the caller answered already. */
export async function getSurvey(db: Db, userId: number, id: number): Promise<Survey> {
  const row = await requireSurvey(db, id)
  const answered = await answeredBy(db, userId, [id])
  return surveyOf(row, answered.has(id))
}

interface CheckedAnswer {
  /** Option ids, stars, or `true` for a text question answered (its words are in `texts`, sealed). */
  choices: Record<string, string[] | number | true>
  texts: Record<string, string>
}

/**
 * Checks an answer against its survey's questions: every question known, options of that question, a single choice
 * exactly one, stars 1–5, words within the question's limit, every required question answered (named in the refusal).
 */
export function checkAnswers(questions: SurveyQuestion[], items: SurveyAnswerItem[]): CheckedAnswer {
  const byId = new Map(questions.map((q) => [q.id, q]))
  const choices: CheckedAnswer['choices'] = {}
  const texts: CheckedAnswer['texts'] = {}
  const seen = new Set<string>()
  for (const item of items) {
    const q = byId.get(item.questionId)
    if (!q) throw badInput(UNKNOWN_QUESTION)
    if (seen.has(q.id)) throw badInput(DUPLICATE_QUESTION)
    seen.add(q.id)
    const label = `第${questions.indexOf(q) + 1}题`
    if (q.kind === 'single' || q.kind === 'multiple') {
      const picked = [...new Set(item.options ?? [])]
      if (picked.some((o) => !q.options.some((opt) => opt.id === o))) throw badInput(UNKNOWN_OPTION)
      if (q.kind === 'single' && picked.length > 1) throw badInput(`${label}只能选择一项`)
      if (picked.length > 0) choices[q.id] = q.options.filter((o) => picked.includes(o.id)).map((o) => o.id)
    } else if (q.kind === 'rating') {
      if (item.rating === undefined || item.rating === null) continue
      if (!Number.isInteger(item.rating) || item.rating < 1 || item.rating > SURVEY_RATING_MAX) throw badInput(BAD_RATING)
      choices[q.id] = item.rating
    } else {
      const text = (item.text ?? '').trim()
      if (surveyTextLength(text) > q.maxLength) throw badInput(`${label}「${q.title}」不能超过${q.maxLength}个字`)
      if (text) {
        texts[q.id] = text
        choices[q.id] = true
      }
    }
  }
  const missing = questions.filter((q) => q.required && choices[q.id] === undefined && texts[q.id] === undefined)
  if (missing.length > 0) throw badInput(`请回答必答题：${missing.map((q) => `第${questions.indexOf(q) + 1}题「${q.title}」`).join('、')}`)
  return { choices, texts }
}

function itemsOf(questions: SurveyQuestion[], choices: CheckedAnswer['choices'], texts: CheckedAnswer['texts']): SurveyAnswerItem[] {
  const items: SurveyAnswerItem[] = []
  for (const q of questions) {
    const c = choices[q.id]
    if (q.kind === 'text') {
      if (texts[q.id] !== undefined) items.push({ questionId: q.id, text: texts[q.id] })
    } else if (q.kind === 'rating') {
      if (typeof c === 'number') items.push({ questionId: q.id, rating: c })
    } else if (Array.isArray(c)) items.push({ questionId: q.id, options: c })
  }
  return items
}

const textsOf = (cipher: FieldCipher, sealed: string | null): Record<string, string> => {
  const plain = open(cipher, sealed)
  return plain ? (JSON.parse(plain) as Record<string, string>) : {}
}

/**
 * POST /survey: stores the caller's answer once. A second answer, or one racing the first, is refused with
 * ALREADY_ANSWERED; nothing is stored for an answer that does not pass checkAnswers.
 */
export async function submitSurvey(db: Db, cipher: FieldCipher, userId: number, input: SurveyAnswerInput, now: Date): Promise<SurveyResult> {
  const row = await requireSurvey(db, input.surveyId)
  const { choices, texts } = checkAnswers(row.survey.questions, input.answers)
  const textsEnc = Object.keys(texts).length > 0 ? cipher.encrypt(JSON.stringify(texts)) : null
  try {
    const stored = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(surveyAnswers)
        .values({ surveyId: row.survey.id, userId, choices, textsEnc, createdAt: now })
        .onConflictDoNothing({ target: [surveyAnswers.surveyId, surveyAnswers.userId] })
        .returning()
      if (!inserted) throw badInput(ALREADY_ANSWERED)
      return inserted
    })
    return { survey: surveyOf(row, true), answers: itemsOf(row.survey.questions, choices, texts), answeredAt: stored.createdAt.toISOString() }
  } catch (err) {
    if (uniqueViolation(err) === 'survey_answers_survey_user_key') throw badInput(ALREADY_ANSWERED)
    throw err
  }
}

/**
 * GET /survey/result/{id}: the caller's own answer with the survey. Only ever the caller's: without one of theirs it
 * answers 2999, as for anything that is not the caller's (no one reads another person's answer).
 */
export async function surveyResult(db: Db, cipher: FieldCipher, userId: number, id: number): Promise<SurveyResult> {
  const row = await requireSurvey(db, id)
  const [answer] = await db
    .select()
    .from(surveyAnswers)
    .where(and(eq(surveyAnswers.surveyId, id), eq(surveyAnswers.userId, userId)))
    .limit(1)
  if (!answer) throw forbidden()
  return {
    survey: surveyOf(row, true),
    answers: itemsOf(row.survey.questions, answer.choices, textsOf(cipher, answer.textsEnc)),
    answeredAt: answer.createdAt.toISOString(),
  }
}

// ---- the workbench ----------------------------------------------------------------------------------------------

/** The staff's hospital's surveys with their answer counts. */
export async function deskSurveys(db: Db, staff: StaffContext): Promise<DeskSurvey[]> {
  const rows = await db.select().from(surveys).where(eq(surveys.hospitalId, staff.hospitalId)).orderBy(surveys.sort, surveys.id)
  const counts =
    rows.length === 0
      ? []
      : await db
          .select({ surveyId: surveyAnswers.surveyId, n: sql<number>`count(*)::int` })
          .from(surveyAnswers)
          .where(inArray(surveyAnswers.surveyId, rows.map((r) => r.id)))
          .groupBy(surveyAnswers.surveyId)
  const countOf = new Map(counts.map((c) => [c.surveyId, Number(c.n)]))
  return rows.map((r) => ({ id: r.id, title: r.title, questionCount: r.questions.length, answerCount: countOf.get(r.id) ?? 0 }))
}

/**
 * One survey's results for staff of its hospital (2999 for anyone else's): per question the counts per option, the
 * stars' counts and mean, and the newest words with the author's mobile masked. Choices are counted in the database;
 * only the newest answers with words are decrypted.
 */
export async function deskSurveyResults(db: Db, cipher: FieldCipher, staff: StaffContext, id: number): Promise<DeskSurveyResults> {
  const [row] = await db.select().from(surveys).where(eq(surveys.id, id)).limit(1)
  if (!row || row.hospitalId !== staff.hospitalId) throw forbidden()
  const [counts, [total], latest] = await Promise.all([
    // one row per (question, option or stars) chosen
    db.execute(sql`
      select c.key as question, coalesce(o.value, c.value #>> '{}') as choice, count(*)::int as n
      from ${surveyAnswers}
      cross join lateral jsonb_each(${surveyAnswers.choices}) as c
      left join lateral jsonb_array_elements_text(case when jsonb_typeof(c.value) = 'array' then c.value else '[]'::jsonb end) as o(value) on true
      where ${surveyAnswers.surveyId} = ${id}
      group by 1, 2`),
    db.select({ n: sql<number>`count(*)::int` }).from(surveyAnswers).where(eq(surveyAnswers.surveyId, id)),
    db
      .select({ textsEnc: surveyAnswers.textsEnc, createdAt: surveyAnswers.createdAt, mobileEnc: users.mobileEnc, closedAt: users.closedAt })
      .from(surveyAnswers)
      .innerJoin(users, eq(users.id, surveyAnswers.userId))
      .where(and(eq(surveyAnswers.surveyId, id), sql`${surveyAnswers.textsEnc} is not null`))
      .orderBy(desc(surveyAnswers.createdAt), desc(surveyAnswers.id))
      .limit(LATEST_TEXTS * 5),
  ])
  const tally = new Map<string, Map<string, number>>()
  for (const r of rowsOf<{ question: string; choice: string; n: number }>(counts)) {
    if (!tally.has(r.question)) tally.set(r.question, new Map())
    tally.get(r.question)!.set(r.choice, Number(r.n))
  }
  const opened = latest.map((a) => ({
    texts: textsOf(cipher, a.textsEnc),
    author: a.closedAt ? '已注销用户' : maskMobile(open(cipher, a.mobileEnc)) || '匿名用户',
    answeredAt: a.createdAt.toISOString(),
  }))
  const questions: DeskQuestionStats[] = row.questions.map((q) => {
    const t = tally.get(q.id) ?? new Map<string, number>()
    if (q.kind === 'text') {
      const words = opened.filter((a) => a.texts[q.id]).map((a) => ({ text: a.texts[q.id]!, author: a.author, answeredAt: a.answeredAt }))
      return { id: q.id, kind: q.kind, title: q.title, answered: t.get('true') ?? 0, options: [], average: null, latest: words.slice(0, LATEST_TEXTS) }
    }
    if (q.kind === 'rating') {
      const options = Array.from({ length: SURVEY_RATING_MAX }, (_, i) => String(i + 1)).map((s) => ({ id: s, text: `${s}星`, count: t.get(s) ?? 0 }))
      const answered = options.reduce((n, o) => n + o.count, 0)
      const sum = options.reduce((n, o) => n + Number(o.id) * o.count, 0)
      return { id: q.id, kind: q.kind, title: q.title, answered, options, average: answered ? Math.round((sum * 10) / answered) / 10 : null, latest: [] }
    }
    const options = q.options.map((o) => ({ id: o.id, text: o.text, count: t.get(o.id) ?? 0 }))
    return { id: q.id, kind: q.kind, title: q.title, answered: 0, options, average: null, latest: [] }
  })
  return { id: row.id, title: row.title, answerCount: Number(total?.n ?? 0), questions: await withAnswered(db, id, questions) }
}

/** How many answers answered each choice question (a multiple choice counts once per answer, not per option). */
async function withAnswered(db: Db, id: number, questions: DeskQuestionStats[]): Promise<DeskQuestionStats[]> {
  const result = await db.execute(sql`
    select c.key as question, count(*)::int as n from ${surveyAnswers} cross join lateral jsonb_each(${surveyAnswers.choices}) as c
    where ${surveyAnswers.surveyId} = ${id} group by 1`)
  const answered = new Map(rowsOf<{ question: string; n: number }>(result).map((r) => [r.question, Number(r.n)]))
  return questions.map((q) => (q.kind === 'single' || q.kind === 'multiple' ? { ...q, answered: answered.get(q.id) ?? 0 } : q))
}

export { SURVEY_TEXT_MAX }
