import { LOCAL, local } from '@/services/storage'
import type { UserInfo, UserSig } from '../../types/api/auth'
import type { HomePageConfig, Hospital, MenuEntry } from '../../types/api/hospital'

/** The demo server's general hospital (server/src/seed): palm and internet services, so the merged tab bar. */
export const APP_ID = 'wx10392demo00000'

export const HOSPITAL: Hospital = {
  id: 1,
  hospitalCode: '10392',
  hospitalName: '示范市第一人民医院',
  shortName: '市一院',
  brandId: 1,
  appId: APP_ID,
  level: '三级甲等',
  logo: '',
  address: '示范市中山路1号',
  phone: '0571-88880001',
  intro: '集医疗、教学、科研、预防保健为一体的综合性医院。',
  configDto: { isInternet: true, isPalm: true },
}

const MENUS: MenuEntry[] = [
  { name: '预约挂号', icon: 'register', url: '/palm/register/index', role: 'palm', group: '门诊服务' },
  { name: '处方查询', icon: 'prescription', url: '/internet/diagnosisTemplate/index', role: 'palm', group: '门诊服务' },
  { name: '智能导诊', icon: 'ai', url: '/palm/ds/index', role: 'palm', group: '便民服务' },
  { name: '就诊人管理', icon: 'patient', url: '/pages/patient/index', role: 'all', group: '便民服务' },
  { name: '在线问诊', icon: 'inquiry', url: '/internet/doctorList/index', role: 'internet', group: '互联网医院' },
  { name: '发热门诊', icon: 'fever', url: '/internet/heat/index', role: 'internet', group: '互联网医院' },
]

export const HOME_CONFIG: HomePageConfig = {
  main: false,
  hospital: HOSPITAL,
  banners: [
    { image: '', title: '互联网医院上线啦' },
    { image: '', title: '老年人就医绿色通道' },
  ],
  notice: '门诊时间：周一至周日 8:00-17:00，急诊24小时开放。',
  menus: MENUS,
  demo: false,
}

/** A patient who has bound a mobile (a user id other than 0). */
export const USER: UserInfo = { id: 27, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: APP_ID, provider: 'wechat', identity: null, consentNeeded: false }

/** What the patient's WeChat sign-in left in storage: a token for this app id that has not expired. */
export function signIn() {
  local.set(LOCAL.token, 'eyJhbGciOiJIUzI1NiJ9.demo')
  local.set(LOCAL.lifeData, { appId: APP_ID, expire: Date.now() + 2 * 3600_000 })
  local.set(LOCAL.appId, APP_ID)
  local.set(LOCAL.isLogin, true)
}

/** The calls every page's startup makes (spec §2): the user, the hospital of the app id, its home page, the chat signature. */
export const startupRoutes = {
  'GET /dld-hospital/userinfo': () => USER,
  'GET /dld-hospital/hospital/getByAppId': () => HOSPITAL,
  'GET /dld-hospital/common/homePageConfig': () => HOME_CONFIG,
  'GET /dld-im/im/user-sig': (c: { query: Record<string, string> }): UserSig => ({ driver: 'local', sdkAppId: 0, imAccount: c.query.imAccount!, userSig: 'sig-demo', expire: 86400 }),
}
