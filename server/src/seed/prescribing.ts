/**
 * The demo internet hospitals' shared diagnosis templates (诊断模板, issue 19): a diagnosis from the hospital's
 * disease list and the usual medicines of the demo formulary (seed/pharmacy.ts, by code). Seeded once per hospital
 * after its formulary; a template whose disease or medicine the hospital lacks is left out.
 */
import { and, count, eq, inArray, isNull } from 'drizzle-orm'
import type { DrugCategory } from '../../../types/api/pharmacy'
import type { Db } from '../db'
import { diagnosisTemplates, diseases, drugs, hospitals } from '../db/schema'

type Line = [code: string, dose: string, frequency: string, days: number, quantity: number]

const TEMPLATES: { name: string; category: DrugCategory; diseases: string[]; lines: Line[] }[] = [
  { name: '社区获得性肺炎（轻症）', category: 'western', diseases: ['肺炎'], lines: [['X001', '0.5g', '每日3次', 7, 2], ['X004', '0.5g', '发热时', 3, 1]] },
  { name: '高血压（稳定期）', category: 'western', diseases: ['高血压'], lines: [['X007', '5mg', '每日1次', 28, 1]] },
  { name: '2型糖尿病', category: 'western', diseases: ['糖尿病'], lines: [['X008', '0.5g', '每日2次', 30, 2]] },
  { name: '慢性胃炎', category: 'western', diseases: ['胃炎'], lines: [['X005', '20mg', '每日1次', 14, 1]] },
  { name: '脾胃虚弱（中药饮片）', category: 'chinese', diseases: ['脾胃虚弱'], lines: [['C001', '15g', '每日1剂', 7, 105], ['C002', '10g', '每日1剂', 7, 70], ['C003', '6g', '每日1剂', 7, 42]] },
]

export async function seedPrescribing(db: Db): Promise<void> {
  const list = await db.select({ id: hospitals.id }).from(hospitals).where(eq(hospitals.isInternet, true))
  for (const h of list) {
    const [has] = await db
      .select({ n: count() })
      .from(diagnosisTemplates)
      .where(and(eq(diagnosisTemplates.hospitalId, h.id), isNull(diagnosisTemplates.doctorId)))
    if ((has?.n ?? 0) > 0) continue
    const drugRows = await db.select({ id: drugs.id, code: drugs.code }).from(drugs).where(eq(drugs.hospitalId, h.id))
    const drugOf = new Map(drugRows.map((d) => [d.code, d.id]))
    const diseaseRows = await db
      .select({ id: diseases.id, name: diseases.name })
      .from(diseases)
      .where(and(eq(diseases.hospitalId, h.id), inArray(diseases.name, TEMPLATES.flatMap((t) => t.diseases))))
    const diseaseOf = new Map(diseaseRows.map((d) => [d.name, d.id]))
    const rows = TEMPLATES.filter((t) => t.diseases.every((d) => diseaseOf.has(d)) && t.lines.every(([code]) => drugOf.has(code))).map((t) => ({
      hospitalId: h.id,
      name: t.name,
      category: t.category,
      diagnoses: t.diseases.map((name) => ({ code: String(diseaseOf.get(name)), name })),
      lines: t.lines.map(([code, dose, frequency, days, quantity]) => ({ drugId: drugOf.get(code)!, dose, frequency, days, quantity })),
    }))
    if (rows.length) await db.insert(diagnosisTemplates).values(rows)
  }
}
