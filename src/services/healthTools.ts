import { get } from './request'
import type { BabyBloodQuery, BabyBloodResult, CheckItemContent, CheckItemList, HbSurveyQuery, HbSurveyResult } from '../../types/api/healthTools'

/**
 * The health tools, `/dld-hospital/healthTools` (spec §7 Tools and misc). Silent and without the loading mask: each
 * page shows its own 加载中 / 加载失败 with a retry.
 */
const API = '/dld-hospital/healthTools'
const QUIET = { noLoading: true, silent: true }

/** 乙肝两对半自测: the interpretation of the five markers. */
export const getHepatitisResult = (q: HbSurveyQuery) => get<HbSurveyResult>(`${API}/hbSelfSurvey`, q, QUIET)

/** 宝宝血型: the child's possible blood types from the parents'. */
export const getBabyBlood = (q: BabyBloodQuery) => get<BabyBloodResult>(`${API}/babyBlood`, q, QUIET)

/** 化验单解读: the examination items by category. */
export const listCheckItems = () => get<CheckItemList>(`${API}/checklistitems`, undefined, QUIET)

/** One examination item explained. */
export const getCheckItem = (id: string) => get<CheckItemContent>(`${API}/itemcontent`, { id }, QUIET)
