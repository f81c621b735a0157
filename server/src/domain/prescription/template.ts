/**
 * Diagnosis templates (诊断模板, issue 19) a doctor fills a prescription from at the workbench: the hospital's shared
 * ones (seeded, read-only to doctors) and each doctor's own, which only that doctor sees, changes or deletes (anyone
 * else's id, or a shared one's, answers 2999). A template's diagnoses and lines pass the same rules as a
 * prescription's (doctor.ts), so a template always fills a prescription that can be submitted as it is.
 *
 * Decisions: a name of 1 to 30 characters; at most 50 templates a doctor, counted under a lock of the doctor's row so
 * that two saves at the same moment cannot make 51.
 */
import { and, asc, count, eq, isNull, or } from 'drizzle-orm'
import type { DiagnosisTemplate, DiagnosisTemplateInput } from '../../../../types/api/pharmacy'
import type { Db } from '../../db'
import { diagnosisTemplates, doctors } from '../../db/schema'
import { badInput, forbidden } from '../../errors'
import { checkDiagnoses, checkLines } from './doctor'

export const TEMPLATE_NAME_MAX = 30
export const TEMPLATES_MAX = 50
export const TEMPLATE_NAME_TEXT = `模板名称应为1至${TEMPLATE_NAME_MAX}个字`
export const TEMPLATES_FULL = `每位医生最多保存${TEMPLATES_MAX}个模板，请先删除不用的模板`

/** The doctor signed in at the workbench and their hospital. */
export interface TemplateOwner {
  hospitalId: number
  doctorId: number
}

type Row = typeof diagnosisTemplates.$inferSelect

const templateOf = (r: Row, doctorId: number): DiagnosisTemplate => ({
  id: r.id,
  name: r.name,
  own: r.doctorId === doctorId,
  category: r.category,
  diagnoses: r.diagnoses,
  lines: r.lines,
})

const mine = (me: TemplateOwner, id: number) => and(eq(diagnosisTemplates.id, id), eq(diagnosisTemplates.hospitalId, me.hospitalId), eq(diagnosisTemplates.doctorId, me.doctorId))

/** The input checked as a prescription is: the name, then the diagnoses and the lines against the hospital's lists. */
async function checked(db: Db, me: TemplateOwner, input: DiagnosisTemplateInput) {
  const name = input.name.trim()
  if (!name || name.length > TEMPLATE_NAME_MAX) throw badInput(TEMPLATE_NAME_TEXT)
  const diagnoses = await checkDiagnoses(db, me.hospitalId, input.diagnoses)
  const lines = await checkLines(db, me.hospitalId, input.category, input.lines)
  return {
    name,
    category: input.category,
    diagnoses,
    lines: lines.map(({ drugId, dose, frequency, days, quantity }) => ({ drugId, dose, frequency, days, quantity })),
  }
}

/** GET /diagnosisTemplates: the doctor's own templates first, then the hospital's shared ones. */
export async function listTemplates(db: Db, me: TemplateOwner): Promise<DiagnosisTemplate[]> {
  const rows = await db
    .select()
    .from(diagnosisTemplates)
    .where(and(eq(diagnosisTemplates.hospitalId, me.hospitalId), or(eq(diagnosisTemplates.doctorId, me.doctorId), isNull(diagnosisTemplates.doctorId))))
    .orderBy(asc(diagnosisTemplates.id))
  const own = (r: Row) => r.doctorId === me.doctorId
  return [...rows.filter(own), ...rows.filter((r) => !own(r))].map((r) => templateOf(r, me.doctorId))
}

/** POST /diagnosisTemplates: a template of the doctor's own (保存为模板 saves the prescription being written). */
export async function createTemplate(db: Db, me: TemplateOwner, input: DiagnosisTemplateInput): Promise<DiagnosisTemplate> {
  const values = await checked(db, me, input)
  const row = await db.transaction(async (tx) => {
    await tx.select({ id: doctors.id }).from(doctors).where(eq(doctors.id, me.doctorId)).for('update')
    const [has] = await tx.select({ n: count() }).from(diagnosisTemplates).where(eq(diagnosisTemplates.doctorId, me.doctorId))
    if ((has?.n ?? 0) >= TEMPLATES_MAX) throw badInput(TEMPLATES_FULL)
    const [created] = await tx
      .insert(diagnosisTemplates)
      .values({ hospitalId: me.hospitalId, doctorId: me.doctorId, ...values })
      .returning()
    return created!
  })
  return templateOf(row, me.doctorId)
}

/** PUT /diagnosisTemplates/:id: the doctor renames or rewrites one of their own templates. */
export async function updateTemplate(db: Db, me: TemplateOwner, id: number, input: DiagnosisTemplateInput): Promise<DiagnosisTemplate> {
  const [own] = await db.select({ id: diagnosisTemplates.id }).from(diagnosisTemplates).where(mine(me, id))
  if (!own) throw forbidden()
  const values = await checked(db, me, input)
  const [row] = await db.update(diagnosisTemplates).set(values).where(mine(me, id)).returning()
  // deleted in between
  if (!row) throw forbidden()
  return templateOf(row, me.doctorId)
}

/** DELETE /diagnosisTemplates/:id: the doctor deletes one of their own templates. */
export async function deleteTemplate(db: Db, me: TemplateOwner, id: number): Promise<null> {
  const [row] = await db.delete(diagnosisTemplates).where(mine(me, id)).returning({ id: diagnosisTemplates.id })
  if (!row) throw forbidden()
  return null
}
