/** Registration settings each hospital may change (hospital_configs `register.*`), and the rules page built from them. */
import { and, inArray } from 'drizzle-orm'
import type { RegisterRules } from '../../../../types/api/register'
import type { Db, Tx } from '../../db'
import { hospitalConfigs } from '../../db/schema'
import type { HospitalCache } from '../hospitalCache'
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

/** The hospital's registration settings as this process keeps them (forgotten on any change of a hospital's settings). */
export const cachedSettings = (db: Db, hospitals: HospitalCache, hospitalId: number) =>
  hospitals.kept(`register-settings:${hospitalId}`, () => settingsOne(db, hospitalId))

/** POST /hospital/register: the rules the notice and confirm pages show. */
export async function registerRules(db: Db, hospitals: HospitalCache, hospitalCode: string): Promise<RegisterRules> {
  const hospital = await requireHospitalByCode(db, hospitalCode)
  const settings = await cachedSettings(db, hospitals, hospital.id)
  return {
    hospitalCode: hospital.code,
    holdMinutes: settings.holdMinutes,
    cancelRule: cancelRuleText(settings.cancelTime),
    bookDays: BOOK_DAYS,
    insurance: CHS_REGISTER_HOSPITALS.includes(hospital.code),
    notice: hospital.textConfig.registerNotice ?? '',
  }
}
