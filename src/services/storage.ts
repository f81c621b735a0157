import Taro from '@tarojs/taro'
import platform from '@/platform'

/** Persistent keys of spec §3. */
export const LOCAL = {
  user: 'user',
  appId: 'appId',
  hospital: 'hospital',
  cachedHospital: 'cachedHospitalCode',
  main: 'main',
  /** the server is a demo (the 演示环境 mark), kept for the pages that open without startup */
  demo: 'demo',
  hospitalRole: 'hospitalRole',
  tabBar: 'tabBar',
  tabBarIndex: 'tabBarIndex',
  palmDeptList: 'palmDeptList',
  roles: 'roles',
  scheduleData: 'scheduleData',
  physical: 'physical',
  payment: 'payment',
  token: 'token',
  refreshToken: 'refreshToken',
  wxToken: 'wxToken',
  /** the login marker */
  isLogin: 'isLogin',
  /** { appId, expire } of the current sign-in */
  lifeData: 'lifeData',
  /** 长辈模式 is on (this phone's choice, not the account's) */
  elderMode: 'elderMode',
  /** the shopping cart, per hospital (spec §3 `shopping`) */
  shopping: 'shopping',
} as const

/** Session-only keys of spec §3, plus the sign-in round trip's own. */
export const SESSION = {
  dept: 'dept',
  payment: 'payment',
  selfService: 'selfService',
  inspectionResult: 'inspectionResult',
  result: 'result',
  patient: 'patient',
  appId: 'appId',
  /** where to return after authorisation or binding */
  redirectUrl: 'redirectUrl',
  authState: 'authState',
  authScope: 'authScope',
  authAttempts: 'authAttempts',
} as const

export interface LifeData {
  appId: string
  expire: number
}

export const local = {
  get<T>(key: string): T | undefined {
    const v = Taro.getStorageSync(key) as T | ''
    return v === '' || v === null ? undefined : v
  },
  set(key: string, value: unknown) {
    Taro.setStorageSync(key, value)
  },
  remove(key: string) {
    Taro.removeStorageSync(key)
  },
}

export const session = platform.session
