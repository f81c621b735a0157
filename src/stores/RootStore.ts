import { makeAutoObservable, reaction, runInAction } from 'mobx'
import Taro from '@tarojs/taro'
import platform from '@/platform'
import { authEvents } from '@/services/request'
import { MSG } from '@/ui/messages'
import { SESSION, session } from '@/services/storage'
import { isOpenPage, pathOf, skipsStartup, sourceTypeFor } from '@/utils/routeRules'
import { errorReporter, reportOf } from '@/utils/clientErrors'
import { reportClientError } from '@/services/hospital'
import { ChatStore } from './ChatStore'
import { HospitalStore, isHomeUrl } from './HospitalStore'
import { UserStore } from './UserStore'
import { PreferencesStore } from './PreferencesStore'
import { AUTH_RETURN_URL, CONSENT_URL, HOME_URL, loginUrl } from '@/pageUrls'

export type StartupResult = 'ready' | 'redirecting'

/** The hospital code an address asks for (its hospitalCode parameter), if any. */
const hospitalAsked = (url: string) => new URLSearchParams(url.split('?')[1] ?? '').get('hospitalCode')

/**
 * What every page and the startup need; a store of some pages only is made on its first use (base/pageStore.ts), so
 * that its code goes with those pages, not into the first load.
 */
export class RootStore {
  preferences = new PreferencesStore()
  user = new UserStore()
  hospital = new HospitalStore()
  chat = new ChatStore()
  started = false
  private starting: Promise<StartupResult> | null = null
  /**
   * The browser is on its way to authorisation: a page that asks for startup now is told so, instead of a second
   * trip with another state (whose return the first one's would then not match). H5's entry starts the startup before
   * the page's code has come, so the page may ask after the first trip has begun.
   */
  private leaving = false
  /** Whether startup has looked at this page load's return from authorisation (a failure is shown once). */
  private returnSeen = false
  /** The pages whose code this page load has fetched ahead (preload). */
  private readonly preloaded = new Set<string>()
  /** Each distinct error of this session once, a few at most (src/utils/clientErrors.ts). */
  private readonly report = errorReporter(reportClientError)

  /** A script error or an unhandled rejection of the app (app.tsx), for the server's log, on the page it happened. */
  reportError(kind: 'error' | 'rejection', reason: unknown) {
    this.report(reportOf(kind, reason, platform.currentUrl()))
  }

  constructor() {
    makeAutoObservable<
      RootStore,
      'starting' | 'leaving' | 'returnSeen' | 'preloaded' | 'report' | 'startupFor' | 'preloadHome' | 'preload' | 'bindsFirst' | 'asksOtherHospital'
    >(this, {
      starting: false,
      leaving: false,
      returnSeen: false,
      preloaded: false,
      report: false,
      reportError: false,
      startEarly: false,
      startupFor: false,
      preloadHome: false,
      preload: false,
      bindsFirst: false,
      asksOtherHospital: false,
      user: false,
      hospital: false,
      chat: false,
    })
    // spec §8: 401 remembers the page and re-authorises with the user-info scope, returning to the login page
    authEvents.onUnauthorized = () => {
      // calls answered 401 together make one trip, not one each (each trip's state would undo the one before)
      if (this.leaving) return
      this.leaving = true
      const appId = platform.fixedAppId() ?? this.hospital.appId
      this.user.clearTokens()
      this.started = false
      // a mini-program signs in again where it is and opens the page the patient was on afresh
      void this.user
        .authorize(appId, 'userinfo')
        .then((how) => {
          if (how !== 'left') this.leaving = false
          if (how === 'signed-in') void Taro.reLaunch({ url: this.user.takeRedirect() })
        })
        .catch(() => {
          this.leaving = false
        })
    }
    // the back button on the authorisation page brings back a page load that was left waiting for the return: it
    // starts afresh (and goes to authorisation again unless the patient is signed in meanwhile)
    platform.onBroughtBack(() => {
      if (this.leaving) platform.reload()
    })
    // the account on this phone changed or went (退出登录, 注销账号, a new sign-in): the chat lets go of the old one,
    // whose signatures the server has revoked; startup asks for the new account's
    reaction(
      () => this.user.user?.id || 0,
      (id, previous) => {
        if (previous && id !== previous) this.chat.reset()
      },
    )
  }

  /**
   * spec §2 startup, once per app load: appId from the query or session; authorise when it is missing, differs
   * from the signed-in one, or the login expired and its refresh token cannot renew it; a changed hospital parameter
   * clears the tokens; then the user,
   * the hospital and its home-page config load, and the chat signature is requested. `url`, the page the app opens
   * on: a home's banners are read with the config.
   */
  startup(query: Record<string, string | undefined>, url?: string): Promise<StartupResult> {
    // a different hospital parameter (e.g. chosen from the hospital list, which relaunches in the same page load)
    // restarts for that hospital: its code is cached, the tokens cleared and authorisation redone (spec §2)
    const hospitalChanged = !!query.hospitalCode && query.hospitalCode !== this.hospital.cachedHospitalCode
    if (this.started && !hospitalChanged) return Promise.resolve('ready')
    if (this.leaving && !hospitalChanged) return Promise.resolve('redirecting')
    this.started = false
    this.starting ??= this.runStartup(query, url).finally(() => {
      this.starting = null
    })
    return this.starting
  }

  private async runStartup(query: Record<string, string | undefined>, url?: string): Promise<StartupResult> {
    // back from authorisation (startEarly): the code is redeemed first; a failure is shown on the login page, once
    // (its 重新进入 starts afresh)
    if (!this.returnSeen) {
      this.returnSeen = true
      if (!(await this.user.returned())) {
        await Taro.redirectTo({ url: AUTH_RETURN_URL })
        return 'redirecting'
      }
    }
    let appId = platform.fixedAppId() ?? (query.appId || session.get<string>(SESSION.appId) || this.user.lifeData?.appId)
    if (!appId) {
      console.warn(MSG.noAppId)
      appId = DEFAULT_APP_ID
    }
    session.set(SESSION.appId, appId)
    // on H5 another hospital is another official account, and so another sign-in; a mini-program's stays
    if (query.hospitalCode && this.hospital.cacheHospitalCode(query.hospitalCode) && !platform.fixedAppId()) this.user.clearTokens()
    if (!this.user.hasValidLogin(appId) && !(await this.user.renew(appId))) {
      this.user.clearTokens()
      const how = await this.user.authorize(appId, 'base')
      if (how === 'left') this.leaving = true
      if (how !== 'signed-in') return 'redirecting'
    }
    // the home's banners come with the startup when the app opens on a home (长辈模式 shows none)
    const banners = !!url && isHomeUrl(url) && !this.preferences.elderMode
    // the entry opens its hospital's home once this is done (pages/sys/index): that home's code comes meanwhile, once
    // the hospital's answer says which (when startEarly has not fetched it already)
    const homeKnown = url?.split('?')[0] === HOME_URL ? (path: string) => this.preload([path]) : undefined
    const [user] = await Promise.all([this.user.loadUser(), this.hospital.load(appId, { banners, homeKnown })])
    // spec §2: the IM profile carries the nick and avatar
    if (user.id) void this.chat.requestSignature(user.id, { nick: user.nickname, avatar: user.wechatAvatar }).catch(() => undefined)
    runInAction(() => {
      this.started = true
    })
    return 'ready'
  }

  /**
   * H5's entry calls this as the app's script runs, before the router has read the address and before the page's own
   * code has come (a round trip or more sooner on a slow link): the startup of the page opened or, back from
   * authorisation, the redemption of its code and then the startup of the page it goes back to. Answers the page to
   * open: back from authorisation, the page it goes back to when one is remembered (the login page, which would only
   * say 正在登录, is not drawn; startup waits for the code to be redeemed and shows a failure there); the bind page
   * for a page that would send this visitor there first (bindsFirst); else `url`. The page's enterPage takes the
   * startup under way. `url`: the address as opened, without the H5 base.
   */
  startEarly(url: string): string {
    if (pathOf(url) !== AUTH_RETURN_URL) {
      // a new visitor leaves for authorisation first: the home's or the bind page's code is fetched on the way back
      const signedIn = this.user.signedInHere
      if (signedIn) this.preloadHome(url)
      if (!signedIn || !this.bindsFirst(url)) {
        void this.startupFor(url)
        return url
      }
      // the bind page opens at once, not the page asked for and then the bind page; should userinfo find the account
      // bound after all (bound on another phone), the page asked for opens once it has answered
      this.user.rememberRedirect(url)
      void this.startupFor(url).then(() => {
        if (this.user.isLoggedIn && this.user.redirectTarget === url) void Taro.redirectTo({ url: this.user.takeRedirect() })
      })
      return loginUrl(sourceTypeFor(url))
    }
    const target = this.user.redirectTarget
    // without a page to go back to, the login page is drawn and shows a failure itself
    if (!target) this.returnSeen = true
    else this.preloadHome(target)
    this.user.returnFromAuthorization().then(
      (to) => {
        // the session redeemed says whether an account is bound: the bind page's code comes beside the startup
        if (this.bindsFirst(to)) this.preload([pathOf(loginUrl(0))])
        void this.startupFor(to)
      },
      () => undefined,
    )
    return target ?? url
  }

  /**
   * Whether the page at `url` will send this visitor to the bind page (enterPage), as far as is known before userinfo
   * answers: the page needs a bound account, the visitor has none as far as this phone knows (UserStore.likelyUnbound),
   * and no other hospital is asked for (that is another sign-in first, spec §2).
   */
  private bindsFirst(url: string) {
    return !isOpenPage(url) && this.user.likelyUnbound && !this.asksOtherHospital(url)
  }

  /** Whether `url` asks for another hospital than the one this phone has seen last (spec §2: another sign-in). */
  private asksOtherHospital(url: string) {
    const asked = hospitalAsked(url)
    return !!asked && !!this.hospital.cachedHospitalCode && asked !== this.hospital.cachedHospitalCode
  }

  /**
   * Opened on the entry (which opens the hospital's home once startup is done), the home's code is fetched beside the
   * startup, not after the hospital's answer: the home it likely has (HospitalStore.likelyHome). Not when another
   * hospital is asked for, which is another sign-in first (spec §2).
   */
  private preloadHome(url: string) {
    if (pathOf(url) !== HOME_URL || this.asksOtherHospital(url)) return
    this.preload([this.hospital.likelyHome(hospitalAsked(url) ?? this.hospital.cachedHospitalCode)])
  }

  /** Fetches the code of pages about to open (platform.preloadPages), each once. */
  private preload(paths: string[]) {
    const fresh = paths.filter((path) => !this.preloaded.has(path))
    fresh.forEach((path) => this.preloaded.add(path))
    if (fresh.length) platform.preloadPages(fresh)
  }

  /** Starts the startup of the page at `url` (none for a page without one); answers when it is done, never failing. */
  private async startupFor(url: string): Promise<void> {
    if (skipsStartup(url)) return
    const [path = '', search = ''] = url.split('?')
    const query = Object.fromEntries(new URLSearchParams(search))
    await this.startup(query, `${pathOf(path)}${search ? `?${search}` : ''}`).catch(() => undefined)
  }

  /**
   * Every page calls this on entry: startup (except login and about pages), then the login gate of spec §4:
   * a page that is not open needs a bound user, else the bind page with the page's sourceType; and a bound user
   * who has not agreed to the agreement and policy in force agrees first (the consent page, then back here).
   */
  async enterPage(url: string, query: Record<string, string | undefined>): Promise<StartupResult> {
    if (skipsStartup(url)) return 'ready'
    const result = await this.startup(query, url)
    if (result === 'redirecting') return result
    if (!isOpenPage(url) && !this.user.isLoggedIn) {
      this.user.rememberRedirect(url)
      await Taro.redirectTo({ url: loginUrl(sourceTypeFor(url)) })
      return 'redirecting'
    }
    // PIPL: a bound account agrees to the platform's agreement and policy as they now read before going on
    if (this.user.consentNeeded) {
      this.user.rememberRedirect(url)
      await Taro.redirectTo({ url: CONSENT_URL })
      return 'redirecting'
    }
    return 'ready'
  }
}

export const rootStore = new RootStore()
