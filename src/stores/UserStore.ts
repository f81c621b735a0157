import { makeAutoObservable, runInAction } from 'mobx'
import platform from '@/platform'
import * as auth from '@/services/auth'
import * as account from '@/services/user'
import * as hospitalApi from '@/services/hospital'
import { LOCAL, SESSION, local, session, type LifeData } from '@/services/storage'
import { MSG } from '@/ui/messages'
import { toastError } from '@/ui/feedback'
import type { Session, UserInfo } from '../../types/api/auth'
import type { AccountClosure, DeclaredIdentity, IdentityInput } from '../../types/api/account'
import type { Protocols } from '../../types/api/hospital'
import { isStaffOf as rolesMakeStaff } from '@/utils/staffRules'
import { OneAtATime } from './base/OneAtATime'

/** More than this many trips to authorisation within a minute means something is wrong: stop instead of looping. */
export const MAX_AUTH_TRIPS = 3
const AUTH_TRIP_WINDOW_MS = 60_000

type Scope = 'snsapi_base' | 'snsapi_userinfo' | 'auth_base' | 'auth_user'

export class UserStore {
  user: UserInfo | null = local.get<UserInfo>(LOCAL.user) ?? null
  token: string | null = local.get<string>(LOCAL.token) ?? null
  /** 账号与隐私: where the account's codes go and what keeps it from being closed (null until loaded). */
  closure: AccountClosure | null = null
  /** The redemption of this page load's authorisation code, once started (returnFromAuthorization). */
  private returning: Promise<string> | null = null
  /** The account the session redeemed in this page load belongs to (0: no mobile bound yet); null before one. */
  private redeemedUserId: number | null = null
  readonly identitySaving = new OneAtATime()

  constructor() {
    makeAutoObservable<UserStore, 'returning' | 'redeemedUserId'>(this, {
      identitySaving: false,
      returning: false,
      redeemedUserId: false,
      returnFromAuthorization: false,
      returned: false,
      redirectTarget: false,
      signedInHere: false,
      likelyUnbound: false,
    })
  }

  /** spec §4: logged in means a user with a non-zero id. */
  get isLoggedIn() {
    return !!this.user && this.user.id !== 0
  }

  /** Staff of this hospital (or a platform administrator): 医院设置 is theirs (server: requireStaff). */
  isStaffOf(hospitalCode: string | undefined): boolean {
    return this.isLoggedIn && !!hospitalCode && rolesMakeStaff(this.user?.roles ?? [], hospitalCode)
  }

  /** The bound account has not agreed to the platform's agreement and policy as they now read (server: domain/protocol.ts). */
  get consentNeeded() {
    return this.isLoggedIn && !!this.user?.consentNeeded
  }

  /** The real name and identity number the signed-in account declared (userinfo), masked; null when none. */
  get identity(): DeclaredIdentity | null {
    return this.user?.identity ?? null
  }

  /** 实名认证: the account holder's own real name and identity number (stored encrypted, answered masked). */
  async saveIdentity(input: IdentityInput): Promise<DeclaredIdentity> {
    const saved = await account.saveIdentity(input)
    runInAction(() => {
      if (this.user) this.user = { ...this.user, identity: saved }
    })
    return saved
  }

  get lifeData(): LifeData | undefined {
    return local.get<LifeData>(LOCAL.lifeData)
  }

  /** A token for this app id that has not expired. */
  hasValidLogin(appId: string, now = Date.now()) {
    const life = this.lifeData
    return !!this.token && !!life && life.appId === appId && life.expire > now
  }

  /**
   * Known before userinfo answers that no mobile is bound yet: the session redeemed in this page load says so, or else
   * the user the last load read. A hint, for showing the bind page sooner (RootStore.bindsFirst); what userinfo
   * answers decides.
   */
  get likelyUnbound(): boolean {
    return (this.redeemedUserId ?? this.user?.id) === 0
  }

  /** A sign-in this phone keeps (a refresh token): startup goes on here unless it is refused, not to authorisation. */
  get signedInHere(): boolean {
    return !!local.get<string>(LOCAL.refreshToken)
  }

  /**
   * An expired login of this app id renewed with its refresh token (30 days), so that the patient does not go through
   * authorisation again every 2 hours; false when there is none or the server refuses it (then authorise).
   */
  async renew(appId: string): Promise<boolean> {
    const refreshToken = local.get<string>(LOCAL.refreshToken)
    if (!refreshToken || this.lifeData?.appId !== appId) return false
    try {
      this.saveSession(await auth.renewSession(platform.authProvider(), refreshToken))
      return true
    } catch {
      return false
    }
  }

  clearTokens() {
    ;[LOCAL.token, LOCAL.refreshToken, LOCAL.wxToken, LOCAL.lifeData, LOCAL.isLogin, LOCAL.user].forEach((k) => local.remove(k))
    this.token = null
    this.user = null
  }

  /**
   * Remembers where the patient was and leaves for WeChat / Alipay authorisation (spec §2, §8): 'left' the browser is
   * on its way; 'signed-in' a mini-program signed in where it is (wx.login / my.getAuthCode); 'stopped' too many
   * trips in a minute (the patient has been told).
   */
  async authorize(appId: string, scope: 'base' | 'userinfo', returnUrl = platform.currentUrl()): Promise<'left' | 'signed-in' | 'stopped'> {
    const trips = session.get<number[]>(SESSION.authAttempts)?.filter((t) => Date.now() - t < AUTH_TRIP_WINDOW_MS) ?? []
    if (trips.length >= MAX_AUTH_TRIPS) {
      toastError(MSG.authLoop)
      return 'stopped'
    }
    session.set(SESSION.authAttempts, [...trips, Date.now()])
    if (!returnUrl.startsWith('/pages/login/')) this.rememberRedirect(returnUrl)
    const provider = platform.authProvider()
    const code = await platform.signInCode(appId)
    if (code !== null) {
      this.saveSession(provider === 'wechat' ? await auth.signInWeapp(code, appId) : await auth.signInAlipayMini(code, appId))
      session.remove(SESSION.authAttempts)
      return 'signed-in'
    }
    const fullScope: Scope = provider === 'wechat' ? (scope === 'base' ? 'snsapi_base' : 'snsapi_userinfo') : scope === 'base' ? 'auth_base' : 'auth_user'
    const state = Math.random().toString(36).slice(2, 12)
    session.set(SESSION.authState, state)
    session.set(SESSION.authScope, fullScope)
    session.set(SESSION.appId, appId)
    const { url } = await auth.getAuthorizeUrl(provider, { appId, redirectUri: platform.authReturnUrl(), scope: fullScope, state })
    platform.leaveTo(url)
    return 'left'
  }

  /**
   * The app's return from authorisation, once per page load: H5's entry starts it as the app's script runs, before
   * the login page's own code has come (a round trip sooner on a slow link), and the login page takes the same answer.
   */
  returnFromAuthorization(): Promise<string> {
    return (this.returning ??= this.completeAuthorization(platform.authReturnParams()))
  }

  /** Whether this page load's return from authorisation, if it has one under way, went well (true without one). */
  returned(): Promise<boolean> {
    return this.returning ? this.returning.then(() => true, () => false) : Promise.resolve(true)
  }

  /** The page the app goes back to after authorisation or binding, if one is remembered; it stays remembered. */
  get redirectTarget(): string | null {
    return session.get<string>(SESSION.redirectUrl) ?? null
  }

  /**
   * The return from authorisation (`/pages/login/login`): checks the state, redeems the one-time code once,
   * strips it from the address and answers where to go next.
   */
  async completeAuthorization(params: Record<string, string>): Promise<string> {
    const code = params.code ?? params.auth_code
    const expectedState = session.get<string>(SESSION.authState)
    const appId = session.get<string>(SESSION.appId) ?? params.app_id ?? DEFAULT_APP_ID
    platform.stripAuthParams()
    if (!code) throw new Error('授权未返回授权码')
    if (!expectedState || params.state !== expectedState) throw new Error('授权状态不一致，请重新进入')
    session.remove(SESSION.authState)
    const scope = session.get<Scope>(SESSION.authScope)
    const signed: Session = params.auth_code
      ? await auth.signInAlipay(code, appId)
      : scope === 'snsapi_userinfo'
        ? await auth.signInWechatUserInfo(code, appId)
        : await auth.signInWechat(code, appId)
    this.saveSession(signed)
    this.redeemedUserId = signed.userId
    session.remove(SESSION.authAttempts)
    return this.takeRedirect()
  }

  /** Where to go back to after authorisation or binding. */
  rememberRedirect(url: string) {
    session.set(SESSION.redirectUrl, url)
  }

  takeRedirect(fallback = '/pages/sys/index'): string {
    const url = this.redirectTarget ?? fallback
    session.remove(SESSION.redirectUrl)
    return url
  }

  saveSession(s: Session) {
    local.set(LOCAL.token, s.token)
    local.set(LOCAL.refreshToken, s.refreshToken)
    local.set(LOCAL.lifeData, { appId: s.appId, expire: s.expireTime } satisfies LifeData)
    local.set(LOCAL.appId, s.appId)
    local.set(LOCAL.isLogin, true)
    this.token = s.token
  }

  async loadUser() {
    const user = await auth.getUserInfo()
    runInAction(() => {
      this.user = user
      // from now on the user read is what counts (likelyUnbound)
      this.redeemedUserId = null
    })
    local.set(LOCAL.user, user)
    local.set(LOCAL.roles, user.roles)
    return user
  }

  /** The platform's user agreement and privacy policy as they are in force. */
  loadProtocols() {
    return hospitalApi.getProtocols()
  }

  /** Records that the account agreed to these texts (their versions), and reads the account again. */
  async agreeToProtocols(protocols: Protocols) {
    await hospitalApi.consentToProtocols({ userAgreementVersion: protocols.userAgreement.version, privacyPolicyVersion: protocols.privacyPolicy.version })
    return this.loadUser()
  }

  async bind(mobile: string, code: string, sourceType: number) {
    await auth.bindMobile(platform.authProvider(), mobile, code, sourceType)
    return this.loadUser()
  }

  /**
   * Binds the number behind WeChat's phone-number button (`eventCode` from the button's event); null when the
   * patient declined in WeChat's sheet (the SMS binding is still there).
   */
  async bindWithPhoneButton(eventCode: string | undefined, sourceType: number) {
    // the button is the WeChat mini-program's, whose app id is fixed (the server reads it from the session)
    const code = await platform.phoneNumberCode(platform.fixedAppId() ?? DEFAULT_APP_ID, eventCode)
    if (!code) return null
    await auth.bindWechatPhone(code, sourceType)
    return this.loadUser()
  }

  /** 更换手机号: the account moves to a new mobile, proven by a code sent to it; the account's codes go there from now on. */
  async changeMobile(mobile: string, code: string) {
    await auth.changeBind(mobile, code)
    await this.loadClosure()
    return this.loadUser()
  }

  /**
   * 退出登录: this WeChat / Alipay identity lets go of the account (spec §7 cancelBind); the account, its patients and
   * records stay, and binding the same mobile again brings them back. The session stays, as an unbound visitor's.
   */
  async signOut() {
    await auth.cancelBind()
    return this.loadUser()
  }

  /** Uploads a new avatar picture; answers its address, for saveProfile. */
  async uploadAvatar(path: string) {
    return (await auth.uploadFile(path)).url
  }

  /** Saves the nickname and avatar and shows them. */
  async saveProfile(profile: { nickname: string; avatar: string }) {
    await auth.updateProfile(profile)
    return this.loadUser()
  }

  /** A code to `mobile`: to bind it to the account ('bind') or to prove a patient's ('patient'). */
  sendBindCode(mobile: string, purpose: auth.SmsPurpose) {
    return auth.sendBindCode(mobile, purpose)
  }

  async loadClosure() {
    const closure = await account.closureStatus()
    runInAction(() => {
      this.closure = closure
    })
  }

  /** A code to the account's own mobile, to download its data or close it. */
  sendAccountCode(purpose: account.AccountCodePurpose) {
    return account.sendAccountCode(purpose)
  }

  /** Everything the hospital holds about the account (server/src/domain/account.ts). */
  exportAccount(code: string) {
    return account.exportAccount(code)
  }

  /** Closes the account; this phone stays signed in to WeChat/Alipay, without an account (id 0). */
  async closeAccount(code: string) {
    await account.closeAccount(code)
    runInAction(() => {
      this.closure = null
    })
    return this.loadUser()
  }
}
