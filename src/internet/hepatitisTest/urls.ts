import { hbQueryString } from '@/utils/healthTools'
import type { HbSurveyQuery } from '../../../types/api/healthTools'

/** 乙肝两对半自测 (spec §2 /internet/hepatitisTest/hepatitis-test): the five markers. */
export const HEPATITIS_TEST_URL = '/internet/hepatitisTest/hepatitis-test'

/** Its result (/internet/hepatitisTest/hepatitis-result), the five results in the address: it can be opened again. */
export const hepatitisResultUrl = (q: HbSurveyQuery) => `/internet/hepatitisTest/hepatitis-result?${hbQueryString(q)}`
