import { makeAutoObservable, runInAction } from 'mobx'
import Taro from '@tarojs/taro'
import * as api from '@/services/hospital'
import { LOCAL, local } from '@/services/storage'
import { menusFor } from '@/utils/homeMenus'
import { Loadable } from './base/Loadable'
import { OneAtATime } from './base/OneAtATime'
import type { HomePageConfig, Hospital, HospitalSetting, MenuEntry } from '../../types/api/hospital'
import { HOME_URL, hospitalHomeUrl, MINE_URL } from '@/pageUrls'

export type HospitalRole = 'all' | 'internet' | 'palm'

export interface TabItem {
  text: string
  path: string
  icon: 'home' | 'chat' | 'book' | 'user'
}

/** spec §2 tab bars; labels 首页, 我的问诊, 健康知识, 我的. */
export const TAB_BARS: Record<HospitalRole, TabItem[]> = {
  all: [
    { text: '首页', path: '/pages/sys/merge/index', icon: 'home' },
    { text: '我的问诊', path: '/pages/sys/conversation/index', icon: 'chat' },
    { text: '健康知识', path: '/pages/sys/knowledge/index', icon: 'book' },
    { text: '我的', path: MINE_URL, icon: 'user' },
  ],
  palm: [
    { text: '首页', path: '/pages/sys/palm/index', icon: 'home' },
    { text: '我的', path: MINE_URL, icon: 'user' },
  ],
  internet: [
    { text: '首页', path: '/pages/sys/internet/index', icon: 'home' },
    { text: '我的问诊', path: '/pages/sys/conversation/index', icon: 'chat' },
    { text: '健康知识', path: '/pages/sys/knowledge/index', icon: 'book' },
    { text: '我的', path: MINE_URL, icon: 'user' },
  ],
}

/** The app's entry (which opens the home of the hospital's role) and the home tab of each role; the query aside. */
export function isHomeUrl(url: string): boolean {
  const path = url.split('?')[0]
  return path === HOME_URL || Object.values(TAB_BARS).some((tabs) => tabs[0]!.path === path)
}

/** spec §1: both flags → all, else the one that is set; a hospital with neither is shown as palm. */
export function roleOf(config: { isInternet: boolean; isPalm: boolean } | null | undefined): HospitalRole {
  if (!config) return 'all'
  if (config.isInternet && config.isPalm) return 'all'
  return config.isInternet ? 'internet' : 'palm'
}

export class HospitalStore {
  appId: string = local.get<string>(LOCAL.appId) ?? DEFAULT_APP_ID
  hospital: Hospital | null = local.get<Hospital>(LOCAL.hospital) ?? null
  cachedHospitalCode: string | null = local.get<string>(LOCAL.cachedHospital) ?? null
  main: boolean = local.get<boolean>(LOCAL.main) ?? false
  /**
   * The server is a demo or training server (homePageConfig's `demo`); every page shows 演示环境. Kept locally for the
   * pages that open without startup (login, about), e.g. straight after the authorisation page reloads the app.
   */
  demo: boolean = local.get<boolean>(LOCAL.demo) ?? false
  role: HospitalRole = local.get<HospitalRole>(LOCAL.hospitalRole) ?? 'all'
  tabBarIndex: number = local.get<number>(LOCAL.tabBarIndex) ?? 0
  homeConfig: HomePageConfig | null = null
  /** The hospital's own menu config (GET /common/menuConfig/{id}) once read, and which hospital it belongs to. */
  menuConfig: { hospitalId: number; menus: MenuEntry[] } | null = null

  /** The home page's banners (common/ad) of the hospital shown: read once per hospital and app load (loadBanners). */
  readonly ads = new Loadable((hospitalCode?: string) => api.listAds(hospitalCode))
  /** Whose banners `ads` holds or is reading: a hospital's code, or undefined for the platform's own. */
  private bannersOf: string | undefined | null = null
  /** Whether the hospital's online consultations report to a regulator's platform (the consultation forms say so). */
  readonly supervision = new Loadable((hospitalCode: string) => api.getSupervision(hospitalCode))
  /** 选择医院: the hospitals, by name when searched. */
  readonly hospitalList = new Loadable((keyword?: string) => api.listHospitals(keyword))
  /** The hospital brands (医联体 / 集团) to browse by. */
  readonly brands = new Loadable(() => api.listBrands())
  /** One brand's hospitals and featured departments, read together by `showBrand`. */
  readonly brandHospitals = new Loadable((brandId: number) => api.listBrandHospitals(brandId))
  readonly brandDepartments = new Loadable((brandId: number) => api.listBrandDepartments(brandId))
  /** The brand a hospital belongs to (关于我们). */
  readonly brandInfo = new Loadable((hospitalCode: string) => api.getBrandHospitalInfo(hospitalCode))
  /** 医院设置: every setting of the current hospital, for its staff. */
  readonly settings = new Loadable((hospitalCode: string) => api.listHospitalSettings(hospitalCode))
  readonly savingSetting = new OneAtATime()

  constructor() {
    makeAutoObservable<HospitalStore, 'bannersOf'>(this, {
      bannersOf: false,
      hospitalList: false,
      brands: false,
      brandHospitals: false,
      brandDepartments: false,
      brandInfo: false,
      settings: false,
      savingSetting: false,
    })
  }

  get tabBar(): TabItem[] {
    return TAB_BARS[this.role]
  }

  get homePath(): string {
    return this.tabBar[0]!.path
  }

  /**
   * The home the entry will likely open for a hospital code (the query's, else the stored one): the home of the
   * hospital last seen on this phone when it is that hospital, else the merged home (both roles', and main mode's).
   * The hospital's answer says for sure; the other homes share all their code with the merged one but their own page.
   */
  likelyHome(hospitalCode: string | null): string {
    if (this.hospital && hospitalCode && this.hospital.hospitalCode === hospitalCode) return this.homePath
    return TAB_BARS.all[0]!.path
  }

  /**
   * The home's entries for the hospital's role: the hospital's menu config once a home has read it (loadMenus), until
   * then the menus that came with the home-page config at startup (in main mode the platform's own).
   */
  get menus(): MenuEntry[] {
    const own = this.menuConfig && this.menuConfig.hospitalId === this.hospital?.id ? this.menuConfig.menus : null
    return menusFor(own ?? this.homeConfig?.menus ?? [], this.role)
  }

  /** Caches the hospital query parameter; answers whether it changed (then tokens are cleared, spec §2). */
  cacheHospitalCode(code: string): boolean {
    if (code === this.cachedHospitalCode) return false
    this.cachedHospitalCode = code
    local.set(LOCAL.cachedHospital, code)
    return true
  }

  setRole(role: HospitalRole) {
    this.role = role
    this.tabBarIndex = 0
    local.set(LOCAL.hospitalRole, role)
    local.set(LOCAL.tabBar, TAB_BARS[role])
    local.set(LOCAL.tabBarIndex, 0)
  }

  setTabBarIndex(index: number) {
    this.tabBarIndex = index
    local.set(LOCAL.tabBarIndex, index)
  }

  /** Switches to another hospital: startup sees the new code, clears the tokens and authorises again (spec §2). */
  switchTo(hospitalCode: string) {
    return Taro.reLaunch({ url: hospitalHomeUrl(hospitalCode) })
  }

  /**
   * Loads the hospital of the app id (or of the cached code) and its home-page config; main mode without either.
   * `banners`: the app opens on a home page, whose banners are read beside the config rather than after the page's
   * script has come (they are the home's largest picture, and a round trip later on a slow link).
   * `homeKnown`: told the path of the hospital's home once the hospital answers, so the page's code can be fetched while
   * startup reads on (on H5 the entry has fetched the likely home's code already: RootStore.startEarly).
   */
  async load(appId: string, { banners = false, homeKnown }: { banners?: boolean; homeKnown?: (homePath: string) => void } = {}) {
    const main = appId === DEFAULT_APP_ID && !this.cachedHospitalCode
    const asked = main ? undefined : (this.cachedHospitalCode ?? undefined)
    const answer = main ? null : api.getHospitalByAppId(appId, asked)
    // the config and banners of the hospital asked for are read beside the hospital, not a round trip after it; they
    // are read again only when the answer is another hospital (an app id's own when the code is none of its)
    const early = asked ? api.getHomePageConfig(asked) : null
    early?.catch(() => undefined)
    if (banners && asked) this.loadBanners(asked)
    const hospital = await answer
    if (banners) this.loadBanners(hospital?.hospitalCode)
    homeKnown?.(TAB_BARS[roleOf(hospital?.configDto)][0]!.path)
    const homeConfig = await (early && hospital?.hospitalCode === asked ? early : api.getHomePageConfig(hospital?.hospitalCode))
    runInAction(() => {
      this.appId = appId
      this.main = !hospital
      this.hospital = hospital
      this.homeConfig = homeConfig
      this.demo = homeConfig.demo === true
      this.setRole(roleOf(hospital?.configDto))
    })
    local.set(LOCAL.main, !hospital)
    local.set(LOCAL.demo, this.demo)
    if (hospital) local.set(LOCAL.hospital, hospital)
    else local.remove(LOCAL.hospital)
  }

  /**
   * Reads the banners of a hospital (or the platform's own) unless they are read or on their way: once per hospital
   * and app load, since a hospital changes them seldom. A failed read is tried again on the next call; a failure
   * only leaves the banners out.
   */
  loadBanners(hospitalCode: string | undefined) {
    if (this.bannersOf === hospitalCode && (this.ads.state === 'loading' || this.ads.state === 'done')) return
    if (this.bannersOf !== hospitalCode) this.ads.reset()
    this.bannersOf = hospitalCode
    void this.ads.load(hospitalCode).catch(() => undefined)
  }

  /** Reads the current hospital's menu config (the palm home); on failure the startup's menus stay. */
  async loadMenus() {
    const hospitalId = this.hospital?.id
    if (!hospitalId) return
    const menus = await api.getMenuConfig(hospitalId).catch(() => null)
    runInAction(() => {
      if (menus && this.hospital?.id === hospitalId) this.menuConfig = { hospitalId, menus }
    })
  }

  /** A brand's hospitals and featured departments; another brand's stop showing at once. */
  async showBrand(brandId: number) {
    this.brandHospitals.reset()
    this.brandDepartments.reset()
    await Promise.all([this.brandHospitals.load(brandId), this.brandDepartments.load(brandId)])
  }

  /** One public setting of the current hospital (spec §7 hospital/config); null when unset or not readable. */
  async setting(key: string): Promise<string | null> {
    const code = this.hospital?.hospitalCode
    if (!code) return null
    return (await api.getHospitalSetting(code, key).catch(() => null))?.value ?? null
  }

  /** Changes one setting of the current hospital (its staff only) and shows the saved value in the list. */
  async saveSetting(key: string, value: string): Promise<HospitalSetting> {
    const hospitalCode = this.hospital?.hospitalCode
    if (!hospitalCode) throw new Error('请先选择医院')
    const saved = await api.saveHospitalSetting({ hospitalCode, key, value })
    runInAction(() => {
      if (this.settings.value) this.settings.value = this.settings.value.map((s) => (s.key === saved.key ? saved : s))
    })
    return saved
  }

  /** The hospitals to choose from, by name when a keyword is given (选择医院, the platform's home). */
  listHospitals(keyword?: string) {
    return api.listHospitals(keyword)
  }

  /**
   * A text the hospital configures (agreements, notices; rich text under keys ending in Html, sanitised by the
   * server): of the current hospital, else the first one.
   */
  async textConfig(key: string): Promise<string> {
    const id = this.hospital?.id ?? (await api.listHospitals())[0]?.id
    return id ? ((await api.getTextConfig(id))[key] ?? '') : ''
  }

  /** 健康知识: a page of the current hospital's articles, and one article. */
  listArticles(q: { page: number; size: number }) {
    return api.listArticles({ ...q, hospitalCode: this.hospital?.hospitalCode })
  }

  /** 医生文章: a page of what one doctor wrote, newest first. */
  listDoctorArticles(doctorId: number, q: { page: number; size: number }) {
    return api.listArticles({ ...q, doctorId })
  }

  getArticle(id: number) {
    return api.getArticle(id)
  }

}
