export interface ConfigDto {
  isInternet: boolean
  isPalm: boolean
}

export interface Hospital {
  id: number
  hospitalCode: string
  hospitalName: string
  shortName: string
  brandId: number | null
  appId: string | null
  level: string
  logo: string
  address: string
  phone: string
  intro: string
  configDto: ConfigDto
}

export interface MenuEntry {
  name: string
  icon: string
  url: string
  role: 'palm' | 'internet' | 'all'
  group?: string
}

/** `GET /dld-hospital/common/isSupervision`: the regulator's platform the hospital's online consultations report to. */
export interface Supervision {
  supervised: boolean
  /** e.g. 示范省互联网医疗服务监管平台; '' when not supervised */
  platformName: string
}

/** A home page banner (`GET /dld-hospital/common/ad`): without an image its title is drawn; url '' opens nothing. */
export interface AdBanner {
  id: number
  title: string
  image: string
  /** A page of the app (/pages/..., /palm/...) or an outside https page (opened in the web-view). */
  url: string
}

export interface HomePageConfig {
  main: boolean
  hospital: Hospital | null
  notice?: string
  menus: MenuEntry[]
  /** The server is a demo or training server (sandboxes, demo hospitals): every page shows 演示环境. */
  demo: boolean
}

export interface ArticleSummary {
  id: number
  title: string
  summary: string
  cover: string
  category: string
  author: string
  /** The doctor who wrote it (医生文章); null for the hospital's and the platform's own. */
  doctorId: number | null
  views: number
  publishedAt: string
}

export interface Article extends ArticleSummary {
  content: string
}

export interface Page<T> {
  records: T[]
  total: number
  page: number
  size: number
}

export interface ConsultationItem {
  id: number
  orderNo: string
  doctorName: string
  doctorAvatar: string
  deptName: string
  status: string
  lastMessage: string
  unreadCount: number
  /** `C2C` + the doctor's IM account, when the consultation has a chat (spec §3 conversation item). */
  conversationID?: string
  /** The inquiry this consultation is (`/pages/order/inquiry/detail?id=`). */
  inquiryId?: number
  updatedAt: string
  hospitalCode: string
  hospitalName: string
}

/** A hospital brand (医联体 / 集团), `GET /dld-hospital/brand/list`. */
export interface Brand {
  id: number
  name: string
  logo: string
  intro: string
  hospitalCount: number
}

/** A featured department of one of a brand's hospitals, `GET /dld-hospital/brand/dept/{brandId}`. */
export interface BrandDepartment {
  id: number
  deptName: string
  intro: string
  hospitalCode: string
  hospitalName: string
}

/** `GET /dld-hospital/brand/hospitalInfo?hospitalCode`: a hospital and the brand it belongs to (null: none). */
export interface BrandHospitalInfo {
  hospital: Hospital
  brand: Omit<Brand, 'hospitalCount'> | null
}

/**
 * One setting of a hospital (hospital_configs), as its staff see it: `GET/POST /dld-palm/admin/hospital-config`.
 * Keys such as `register.holdMinutes`; `private.*` and `secret.*` are never served to patients.
 */
export interface HospitalSetting {
  key: string
  value: string
  updatedAt: string
}

export interface HospitalSettingInput {
  hospitalCode: string
  key: string
  value: string
}

/** `GET /dld-palm/api/hospital/config/{hospitalCode}/{key}`: one public setting; value null when unset. */
export interface PublicHospitalSetting {
  key: string
  value: string | null
}

/** One of the platform's agreements as the person reads it; `version` names this exact text (its hash). */
export interface ProtocolText {
  title: string
  content: string
  version: string
}

/** spec §7 common/getProtocol: the texts a person agrees to at first sign-in (and again when one changes). */
export interface Protocols {
  userAgreement: ProtocolText
  privacyPolicy: ProtocolText
}

/** What the person agreed to: the versions of the texts they were shown. */
export interface ProtocolConsent {
  userAgreementVersion: string
  privacyPolicyVersion: string
}
