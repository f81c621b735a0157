/** Registration settings each hospital may change (hospital_configs `register.*`), and the rules page built from them. */
import { and, inArray } from 'drizzle-orm'
import type { RegisterRules } from '../../../../types/api/register'
import type { Db, Tx } from '../../db'
import { hospitalConfigs } from '../../db/schema'
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

/** The hospital's registration settings (hospital_configs), with the defaults of rules.ts. */
export async function settingsOf(db: Db | Tx, hospitalIds: number[]): Promise<Map<number, RegisterSettings>> {
  const rows = hospitalIds.length
    ? await db
        .select()
        .from(hospitalConfigs)
        .where(and(inArray(hospitalConfigs.hospitalId, hospitalIds), inArray(hospitalConfigs.key, [CONFIG_HOLD_MINUTES, CONFIG_CANCEL_DEADLINE, CONFIG_FREE_FOR_ELDERLY])))
    : []
  const out = new Map<number, RegisterSettings>()
  for (const id of hospitalIds) {
    const value = (key: string) => rows.find((r) => r.hospitalId === id && r.key === key)?.value
    out.set(id, {
      holdMinutes: holdMinutesOf(value(CONFIG_HOLD_MINUTES)),
      cancelTime: cancelDeadlineTime(value(CONFIG_CANCEL_DEADLINE)),
      freeForElderly: value(CONFIG_FREE_FOR_ELDERLY) === 'true',
    })
  }
  return out
}

export const settingsOne = async (db: Db | Tx, hospitalId: number) => (await settingsOf(db, [hospitalId])).get(hospitalId)!

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
