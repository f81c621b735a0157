import { Loadable } from './base/Loadable'
import * as api from '@/services/healthTools'
import type { BabyBloodQuery, HbSurveyQuery } from '../../types/api/healthTools'

/**
 * The health tools' answers (spec §2 /internet/hepatitisTest, /internet/babyBlood, /internet/inspectRead): what each
 * page shows and whether it is on its way or failed. Nothing is kept between pages (every page reads its question
 * from its address or its own form), so each page holds its own instance.
 */
export class HealthToolsStore {
  /** 乙肝两对半: the interpretation of the five markers. */
  readonly hepatitis = new Loadable((q: HbSurveyQuery) => api.getHepatitisResult(q))
  /** 宝宝血型: the child's possible types for the parents chosen. */
  readonly babyBlood = new Loadable((q: BabyBloodQuery) => api.getBabyBlood(q))
  /** 化验单解读: the items by category. */
  readonly checkItems = new Loadable(() => api.listCheckItems())
  /** One item explained. */
  readonly checkItem = new Loadable((id: string) => api.getCheckItem(id))
}
