/**
 * The hospital's formulary as doctors prescribe from it (workbench `/formulary`) and as a patient reads a medicine's
 * facts (`pres/drugDetail`). The diagnosis templates a doctor starts a prescription from are in template.ts.
 */
import { and, asc, eq, ilike, inArray, or } from 'drizzle-orm'
import type { DrugCategory, DrugInfo } from '../../../../types/api/pharmacy'
import type { Db } from '../../db'
import { drugs } from '../../db/schema'

/** The most medicines one formulary search answers, and one drugDetail call may ask for. */
export const FORMULARY_LIMIT = 50
export const DRUG_DETAIL_MAX = 50

export function drugInfoOf(d: typeof drugs.$inferSelect): DrugInfo {
  return {
    id: d.id,
    code: d.code,
    name: d.name,
    commonName: d.commonName,
    category: d.category,
    drugSpec: d.spec,
    drugSpecUnit: d.specUnit,
    unit: d.unit,
    dosageForm: d.dosageForm,
    manufacturer: d.manufacturer,
    defaultUsage: d.defaultUsage,
    priceFen: d.priceFen,
    rx: d.rx,
    picture: d.picture,
  }
}

const like = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** GET /formulary: the hospital's medicines whose name, common name or code holds the keyword, of one category if asked. */
export async function searchFormulary(db: Db, hospitalId: number, q: { keyword?: string; category?: DrugCategory }): Promise<DrugInfo[]> {
  const word = q.keyword?.trim() ?? ''
  const rows = await db
    .select()
    .from(drugs)
    .where(
      and(
        eq(drugs.hospitalId, hospitalId),
        q.category ? eq(drugs.category, q.category) : undefined,
        word ? or(ilike(drugs.name, like(word)), ilike(drugs.commonName, like(word)), ilike(drugs.code, like(word))) : undefined,
      ),
    )
    .orderBy(asc(drugs.code))
    .limit(FORMULARY_LIMIT)
  return rows.map(drugInfoOf)
}

/**
 * GET /pres/drugDetail?ids: the formulary facts of those medicines, in the order asked; ids naming nothing are left
 * out. These are public facts of a hospital's formulary (the shop lists the same rows), no patient's data, so any
 * signed-in user may read them.
 */
export async function drugDetails(db: Db, ids: number[]): Promise<DrugInfo[]> {
  if (!ids.length) return []
  const rows = await db.select().from(drugs).where(inArray(drugs.id, ids))
  const byId = new Map(rows.map((r) => [r.id, r]))
  return [...new Set(ids)].flatMap((id) => (byId.has(id) ? [drugInfoOf(byId.get(id)!)] : []))
}
