import type { BabyBloodQuery, BabyBloodResult, CheckItemContent, CheckItemList, HbSurveyQuery, HbSurveyResult } from '../../../../types/api/healthTools'
import { babyBloodTypes, hbPattern, HEALTH_TOOL_DISCLAIMER } from '@/utils/healthTools'
import { notFound } from '../../errors'
import { checkItemContent, checkItemList, REFERENCE_NOTE } from './checkItems'

/**
 * The health tools (spec §7 Tools and misc, `/dld-hospital/healthTools`): public reading aids computed from the
 * question alone. No database: the rules live in src/utils/healthTools.ts (shared with the app), the examination
 * items in checkItems.ts.
 */

/** 乙肝两对半自测: what the five markers mean together. */
export const hbSelfSurvey = (q: HbSurveyQuery): HbSurveyResult => hbPattern(q)

/** 宝宝血型: the child's possible ABO and Rh types with their likelihoods. */
export const babyBlood = (q: BabyBloodQuery): BabyBloodResult => babyBloodTypes(q)

/** 化验单解读: the examination items by category. */
export const listCheckItems = (): CheckItemList => ({ categories: checkItemList(), note: REFERENCE_NOTE, disclaimer: HEALTH_TOOL_DISCLAIMER })

/** One examination item explained; 404 检查项目不存在 for an unknown id. */
export function readCheckItem(id: string): CheckItemContent {
  const content = checkItemContent(id)
  if (!content) throw notFound('检查项目')
  return content
}
