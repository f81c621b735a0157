/** Registration settings each hospital may change (hospital_configs `register.*`), and the rules page built from them. */
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { RegisterRules } from '../../../../types/api/register'
import type { Db, Tx } from '../../db'
import { hospitalConfigs, hospitals } from '../../db/schema'
import { notFound } from '../../errors'
import { requireHospitalByCode } from '../hospital'
import {
  BOOK_DAYS,
  CHS_REGISTER_HOSPITALS,
  CONFIG_CANCEL_DEADLINE,
  CONFIG_FREE_FOR_ELDERLY,
  CONFIG_HOLD_MINUTES,
  cancelDeadlineTime,
  cancelRuleText,
  holdMinutesOf,
} from './rules'

export interface RegisterSettings {
  holdMinutes: number
  cancelTime: string
  freeForElderly: boolean
}

const SETTING_KEYS = [CONFIG_HOLD_MINUTES, CONFIG_CANCEL_DEADLINE, CONFIG_FREE_FOR_ELDERLY]

/** The settings from the configured values (by key), with the defaults of rules.ts. */
const settingsFrom = (value: (key: string) => string | undefined): RegisterSettings => ({
  holdMinutes: holdMinutesOf(value(CONFIG_HOLD_MINUTES)),
  cancelTime: cancelDeadlineTime(value(CONFIG_CANCEL_DEADLINE)),
  freeForElderly: value(CONFIG_FREE_FOR_ELDERLY) === 'true',
})

/** The hospital's registration settings (hospital_configs), with the defaults of rules.ts. */
export async function settingsOf(db: Db | Tx, hospitalIds: number[]): Promise<Map<number, RegisterSettings>> {
  const rows = hospitalIds.length
    ? await db
        .select()
        .from(hospitalConfigs)
        .where(and(inArray(hospitalConfigs.hospitalId, hospitalIds), inArray(hospitalConfigs.key, SETTING_KEYS)))
    : []
  const out = new Map<number, RegisterSettings>()
  for (const id of hospitalIds) {
    out.set(
      id,
      settingsFrom((key) => rows.find((r) => r.hospitalId === id && r.key === key)?.value),
    )
  }
  return out
}

export const settingsOne = async (db: Db | Tx, hospitalId: number) => (await settingsOf(db, [hospitalId])).get(hospitalId)!

/** The hospital by its code with its registration settings, in one statement (a booking needs both). */
export async function hospitalWithSettings(db: Db | Tx, code: string) {
  const [row] = await db
    .select({
      hospital: hospitals,
      // written out: a select from one table drops the table from column names, and "id" would be the config's
      values: sql<Record<string, string> | null>`(select json_object_agg(c.key, c.value) from hospital_configs c where c.hospital_id = "hospitals"."id" and c.key in (${sql.join(
        SETTING_KEYS.map((k) => sql`${k}`),
        sql`, `,
      )}))`,
    })
    .from(hospitals)
    .where(eq(hospitals.code, code))
    .limit(1)
  if (!row) throw notFound('医院')
  return { hospital: row.hospital, settings: settingsFrom((key) => row.values?.[key]) }
}

/** POST /hospital/register: the rules the notice and confirm pages show. */
export async function registerRules(db: Db, hospitalCode: string): Promise<RegisterRules> {
  const hospital = await requireHospitalByCode(db, hospitalCode)
  const settings = await settingsOne(db, hospital.id)
  return {
    hospitalCode: hospital.code,
    holdMinutes: settings.holdMinutes,
    cancelRule: cancelRuleText(settings.cancelTime),
    bookDays: BOOK_DAYS,
    insurance: CHS_REGISTER_HOSPITALS.includes(hospital.code),
    notice: hospital.textConfig.registerNotice ?? '',
  }
}
