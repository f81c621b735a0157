import type {
  AdBanner,
  Article,
  ArticleSummary,
  Brand,
  BrandDepartment,
  BrandHospitalInfo,
  ConsultationItem,
  HomePageConfig,
  Hospital,
  HospitalSetting,
  HospitalSettingInput,
  MenuEntry,
  Page,
  ProtocolConsent,
  Protocols,
  PublicHospitalSetting,
  Supervision,
} from '../../types/api/hospital'
import type { HealthCardQrCode, HospitalCard } from '../../types/api/patient'
import type { ClientErrorReport } from '@/utils/clientErrors'
import { get, post, put, request } from './request'
import type { Address, AddressInput } from '../../types/api/address'

/** `/dld-hospital` and the hospital parts of `/dld-palm`. */
export const listHospitals = (keyword?: string) => get<Hospital[]>('/dld-hospital/hospital/list', keyword ? { keyword } : undefined)
export const getHospitalByAppId = (appId: string, hospitalCode?: string) =>
  get<Hospital | null>('/dld-hospital/hospital/getByAppId', hospitalCode ? { appId, hospitalCode } : { appId }, { noLoading: true })
export const getHomePageConfig = (hospitalCode?: string) =>
  get<HomePageConfig>('/dld-hospital/common/homePageConfig', hospitalCode ? { hospitalCode } : undefined, { noLoading: true })
/** The home page's banners (the platform's own without a code); a failure only leaves them out. */
export const listAds = (hospitalCode?: string) =>
  get<AdBanner[]>('/dld-hospital/common/ad', hospitalCode ? { hospitalCode } : undefined, { noLoading: true, silent: true })
/** The regulator's platform the hospital's online consultations report to, if any. */
export const getSupervision = (hospitalCode: string) =>
  get<Supervision>('/dld-hospital/common/isSupervision', { hospitalCode }, { noLoading: true, silent: true })
/** The menu entries of a hospital, each with the service family (role) that shows it. */
export const getMenuConfig = (hospitalId: number) =>
  get<MenuEntry[]>(`/dld-hospital/common/menuConfig/${hospitalId}`, undefined, { noLoading: true, silent: true })
/** Reports an error of the app to the server's log; quiet and without a loading mask, whatever happens. */
export const reportClientError = (report: ClientErrorReport) =>
  post<null>('/dld-hospital/common/debugLog', report, { json: true, silent: true, noLoading: true })
/** The platform's user agreement and privacy policy in force, with their versions (spec §7 common/getProtocol). */
export const getProtocols = () => post<Protocols>('/dld-hospital/common/getProtocol', undefined, { json: true, noLoading: true })
/** Records the account's agreement to the texts of these versions (not in the spec: PIPL asks that consent be kept). */
export const consentToProtocols = (consent: ProtocolConsent) =>
  post<{ consentedAt: string }>('/dld-hospital/common/protocol/consent', consent, { json: true })
export const getTextConfig = (hospitalId: number) => get<Record<string, string>>(`/dld-hospital/common/textConfig/${hospitalId}`, undefined, { noLoading: true })
export const listArticles = (q: { page: number; size: number; category?: string; hospitalCode?: string; doctorId?: number }) =>
  get<Page<ArticleSummary>>('/dld-hospital/api/patient/article/list', q, { noLoading: true })
export const getArticle = (id: number) => get<Article>(`/dld-hospital/api/patient/article/${id}`)
export const listConsultations = (hospitalCode?: string) =>
  get<ConsultationItem[]>('/dld-hospital/im/patient/record/list', hospitalCode ? { hospitalCode } : undefined, { noLoading: true })

// Hospital brands (医联体 / 集团): the brands, a brand's hospitals and its featured departments, a hospital's brand.
export const listBrands = () => get<Brand[]>('/dld-hospital/brand/list', undefined, { noLoading: true })
export const listBrandHospitals = (brandId: number) => get<Hospital[]>(`/dld-hospital/common/hospitalList/${brandId}`, undefined, { noLoading: true })
export const listBrandDepartments = (brandId: number) => get<BrandDepartment[]>(`/dld-hospital/brand/dept/${brandId}`, undefined, { noLoading: true })
export const getBrandHospitalInfo = (hospitalCode: string) =>
  get<BrandHospitalInfo>('/dld-hospital/brand/hospitalInfo', { hospitalCode }, { noLoading: true })

// A hospital's settings (hospital_configs): one public one for any page; all of them for the hospital's staff.
/** One public setting of a hospital (value null when unset); quiet, a page goes on without it. */
export const getHospitalSetting = (hospitalCode: string, key: string) =>
  get<PublicHospitalSetting>(`/dld-palm/api/hospital/config/${encodeURIComponent(hospitalCode)}/${encodeURIComponent(key)}`, undefined, {
    noLoading: true,
    silent: true,
  })
/** Every setting of a hospital: its staff only (anyone else is answered 2999). */
export const listHospitalSettings = (hospitalCode: string) => get<HospitalSetting[]>('/dld-palm/admin/hospital-config', { hospitalCode }, { noLoading: true })
export const saveHospitalSetting = (input: HospitalSettingInput) => post<HospitalSetting>('/dld-palm/admin/hospital-config', input)

/**
 * Files a complete patient at a hospital on the app's own initiative (its card is issued once; an existing one is
 * answered as it is). Unlike the patient's own 申领 (`/patient/hospital/patient/bind`), nobody asked: it stays quiet.
 */
export const autoRegister = (patientId: number, hospitalCode: string) =>
  get<HospitalCard>('/dld-hospital/autoRegister', { patientId, hospitalCode }, { noLoading: true, silent: true })

/** The QR code of a patient's electronic health card, as the health-card platform draws it (`jkt/photoUrl`). */
export const getHealthCardQr = (patientId: number, hospitalCode: string) =>
  get<HealthCardQrCode>('/dld-hospital/jkt/photoUrl', { patientId, hospitalCode }, { noLoading: true, silent: true })

// Delivery addresses (spec §7 "Hospital, address"): the caller's own; the list masks names and mobiles.
export const listAddresses = () => get<Address[]>('/dld-hospital/addressList', undefined, { noLoading: true })
export const getAddress = (id: number) => get<Address>(`/dld-hospital/address/${id}`)
export const addAddress = (input: AddressInput) => post<Address>('/dld-hospital/addAddress', input)
export const updateAddress = (id: number, input: AddressInput) => put<Address>(`/dld-hospital/updateAddress/${id}`, input)
export const deleteAddress = (id: number) => request<{ defaultAddressId: number | null }>('DELETE', `/dld-hospital/address/${id}`)
