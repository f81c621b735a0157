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

export interface HomePageConfig {
  main: boolean
  hospital: Hospital | null
  banners: { image: string; title: string; url?: string }[]
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
