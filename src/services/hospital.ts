import { get } from './request'
import type { Article, ArticleSummary, ConsultationItem, HomePageConfig, Hospital, Page } from '../../types/api/hospital'

/** `/dld-hospital` and the hospital parts of `/dld-palm`. */
export const listHospitals = (keyword?: string) => get<Hospital[]>('/dld-hospital/hospital/list', keyword ? { keyword } : undefined)
export const getHospitalByAppId = (appId: string, hospitalCode?: string) =>
  get<Hospital | null>('/dld-hospital/hospital/getByAppId', hospitalCode ? { appId, hospitalCode } : { appId }, { noLoading: true })
export const getHomePageConfig = (hospitalCode?: string) =>
  get<HomePageConfig>('/dld-hospital/common/homePageConfig', hospitalCode ? { hospitalCode } : undefined, { noLoading: true })
export const getTextConfig = (hospitalId: number) => get<Record<string, string>>(`/dld-hospital/common/textConfig/${hospitalId}`, undefined, { noLoading: true })
export const listArticles = (q: { page: number; size: number; category?: string; hospitalCode?: string }) =>
  get<Page<ArticleSummary>>('/dld-hospital/api/patient/article/list', q, { noLoading: true })
export const getArticle = (id: number) => get<Article>(`/dld-hospital/api/patient/article/${id}`)
export const listConsultations = (hospitalCode?: string) =>
  get<ConsultationItem[]>('/dld-hospital/im/patient/record/list', hospitalCode ? { hospitalCode } : undefined, { noLoading: true })
