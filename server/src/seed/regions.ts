import { areaList } from '@vant/area-data'
import type { Db } from '../db'
import { regions } from '../db/schema'

/** Rows per INSERT: a few hundred keeps each statement well under PostgreSQL's parameter limit and quick on PGlite. */
const BATCH = 500

type RegionRow = typeof regions.$inferInsert

/**
 * The national administrative divisions (GB/T 2260, as @vant/area-data publishes them): 34 provinces, their cities
 * and districts. Parents come from the code prefixes: district 440305 -> city 440300 -> province 440000.
 */
export function regionRows(): RegionRow[] {
  const rows: RegionRow[] = []
  const add = (list: Record<string, string>, level: 1 | 2 | 3, parentOf: (code: string) => number) => {
    for (const [code, name] of Object.entries(list)) rows.push({ code: Number(code), parentCode: parentOf(code), name, level })
  }
  add(areaList.province_list, 1, () => 0)
  add(areaList.city_list, 2, (code) => Number(`${code.slice(0, 2)}0000`))
  add(areaList.county_list, 3, (code) => Number(`${code.slice(0, 4)}00`))
  return rows
}

/** Fills `regions` once; a database that has any region already keeps what it has. Answers the rows added. */
export async function seedRegions(db: Db): Promise<number> {
  const [any] = await db.select({ code: regions.code }).from(regions).limit(1)
  if (any) return 0
  const rows = regionRows()
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += BATCH) await tx.insert(regions).values(rows.slice(i, i + BATCH)).onConflictDoNothing()
  })
  return rows.length
}
