import { get } from './request'
import type { Article, ArticleSummary, ConsultationItem, HomePageConfig, Hospital, Page } from '../../types/api/hospital'
import { post, put, request } from './request'
import type { Address, AddressInput } from '../../types/api/address'

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

// Delivery addresses (spec §7 "Hospital, address"): the caller's own; the list masks names and mobiles.
export const listAddresses = () => get<Address[]>('/dld-hospital/addressList', undefined, { noLoading: true })
export const getAddress = (id: number) => get<Address>(`/dld-hospital/address/${id}`)
export const addAddress = (input: AddressInput) => post<Address>('/dld-hospital/addAddress', input)
export const updateAddress = (id: number, input: AddressInput) => put<Address>(`/dld-hospital/updateAddress/${id}`, input)
export const deleteAddress = (id: number) => request<{ defaultAddressId: number | null }>('DELETE', `/dld-hospital/address/${id}`)
