import type { PayAction } from '../../types/api/payment'

/**
 * How a payment attempt ended on this side: 'left' the browser went to the cashier (it comes back to the return
 * URL); 'paid' the provider's own sheet says paid (the server still decides); 'cancelled' the patient closed it;
 * 'failed' it could not be started here (the patient has been told why).
 */
export type PayOutcome = 'left' | 'paid' | 'cancelled' | 'failed'

/** What differs between H5 (in WeChat / Alipay browsers), the WeChat mini-program and the Alipay one. */
export interface SessionStore {
  get<T>(key: string): T | undefined
  set(key: string, value: unknown): void
  remove(key: string): void
}

export interface Platform {
  readonly name: 'h5' | 'weapp' | 'alipay'
  /** The authorisation service the app signs in with here. */
  authProvider(): 'wechat' | 'alipay'
  /** The current page's path and query, as the router names it (e.g. `/pages/sys/user/index?a=1`). */
  currentUrl(): string
  /** Absolute URL the authorisation page sends the browser back to (spec §2: /h5/pages/login/login). */
  authReturnUrl(): string
  /** Leaves the app for the authorisation page. */
  leaveTo(url: string): void
  /** `code`, `auth_code`, `state`, `app_id` as the authorisation page put them in the address. */
  authReturnParams(): Record<string, string>
  /** Takes the one-time code out of the address bar so a refresh cannot reuse it (stack notes). */
  stripAuthParams(): void
  /** Takes other one-time parameters (the health card's `healthCode`) out of the address bar the same way. */
  stripParams(names: string[]): void
  /** Hands a payment to the channel: opens the cashier, or WeChat's payment sheet. */
  pay(action: PayAction): Promise<PayOutcome>
  /**
   * Hands the patient a text file to keep (账号与隐私's copy of their data): the browser downloads it; a
   * mini-program, which has no downloads folder, copies it to the clipboard.
   */
  saveTextFile(name: string, text: string, mime: string): Promise<'downloaded' | 'copied'>
  /** Session-only storage (spec §3), cleared with the tab; entries expire after 20 minutes. */
  session: SessionStore
}

declare const platform: Platform
export default platform
