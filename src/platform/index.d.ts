import type { PayAction } from '../../types/api/payment'

/**
 * How a payment attempt ended on this side: 'left' the browser went to the cashier (it comes back to the return
 * URL); 'paid' the provider's own sheet says paid, or a mini-program's web-view cashier has closed (either way the
 * server decides, and the caller opens the order); 'cancelled' the patient closed it; 'failed' it could not be
 * started here (the patient has been told why).
 */
export type PayOutcome = 'left' | 'paid' | 'cancelled' | 'failed'

/** A place on a map, as the mini-programs' pickers give it. */
export interface Place {
  latitude: number
  longitude: number
  name: string
  address: string
}

/** What a page shares (useShare): the card a friend receives, and the page it opens. */
export interface ShareContent {
  /** The card's title: the doctor's name and title, the article's title. */
  title: string
  /** The page it opens, as the app names it (`/internet/doctor/index?id=5`). */
  path: string
  /** The line under the title (WeChat's browser; a mini-program's card shows a picture of the page instead). */
  summary?: string
  /** The small square picture beside it (WeChat's browser): the doctor's portrait, the article's cover. */
  image?: string
}

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
  /**
   * The app id the identity belongs to wherever the patient goes: a mini-program's own (the hospital is a choice
   * within it, and choosing another keeps the sign-in); null on H5, where each hospital's official account is its
   * own app id and the address says which.
   */
  fixedAppId(): string | null
  /**
   * Signing in without leaving the app (a mini-program): the one-time code of wx.login / my.getAuthCode for `appId`,
   * or the sandbox server's stand-in for it. Null on H5, which leaves for the authorisation page instead (leaveTo).
   */
  signInCode(appId: string): Promise<string | null>
  /**
   * The system's own map picker (a mini-program's chooseLocation): the place the patient chose, in GCJ-02 as the
   * mini-programs give it, or null when they closed the map. Undefined on H5, where the app's own 选择位置 page
   * locates the patient instead.
   */
  readonly pickPlace?: () => Promise<Place | null>
  /** The system's map at a place (a mini-program's openLocation); undefined on H5 (the place page copies the address). */
  readonly showPlace?: (place: Place) => Promise<void>
  /**
   * The camera's QR-code scanner (扫一扫): the code's text, or null when the patient closed the scanner; it rejects
   * when the scanner could not be opened. WeChat's and Alipay's browsers (WeChat's JS-SDK, AlipayJSBridge) and both
   * mini-programs (Taro.scanCode) have one; any other browser uses the camera (getUserMedia) with a QR decoder, fetched
   * on first use; undefined where the page may not ask for the camera (not https), and the caller leaves its entry out
   * (or offers typing the code instead).
   */
  readonly scanCode?: () => Promise<string | null>
  /**
   * Where the H5 app is served (its pages are `${webOrigin()}/h5/...`): the page's own origin in a browser; in a
   * mini-program the server's (API_BASE), which serves the H5 app too. A scanned address of the app is recognised by it.
   */
  webOrigin(): string
  /** Whether the bind page offers WeChat's phone-number button (the WeChat mini-program), beside the SMS code. */
  readonly phoneButton: boolean
  /**
   * The code to exchange for the number behind the phone-number button: the one the button's event carried, or on a
   * sandbox server its stand-in for this phone; null when the patient declined.
   */
  phoneNumberCode(appId: string, eventCode: string | undefined): Promise<string | null>
  /** The current page's path and query, as the router names it (e.g. `/pages/sys/user/index?a=1`). */
  currentUrl(): string
  /** Absolute URL the authorisation page sends the browser back to (spec §2: /h5/pages/login/login). */
  authReturnUrl(): string
  /** Leaves the app for the authorisation page. */
  leaveTo(url: string): void
  /**
   * Calls `back` when the browser brings this page load back from its back-forward cache (the back button on a page
   * the app left for) rather than loading it afresh; never in a mini-program, which does not leave.
   */
  onBroughtBack(back: () => void): void
  /** Loads the app afresh at the address it is on (H5); nothing in a mini-program. */
  reload(): void
  /** `code`, `auth_code`, `state`, `app_id` as the authorisation page put them in the address. */
  authReturnParams(): Record<string, string>
  /** Takes the one-time code out of the address bar so a refresh cannot reuse it (stack notes). */
  stripAuthParams(): void
  /** Takes other one-time parameters (the health card's `healthCode`) out of the address bar the same way. */
  stripParams(names: string[]): void
  /** H5, before the router has read the address: the app opens `url` (a page's path and query) instead. */
  openInstead(url: string): void
  /** Hands a payment to the channel: opens the cashier, or WeChat's payment sheet. */
  pay(action: PayAction): Promise<PayOutcome>
  /**
   * Hands the patient a text file to keep (账号与隐私's copy of their data): the browser downloads it; a
   * mini-program, which has no downloads folder, copies it to the clipboard.
   */
  saveTextFile(name: string, text: string, mime: string): Promise<'downloaded' | 'copied'>
  /**
   * Shows the patient a document the server hands only to them (a report's PDF): on H5 the app's own viewer page
   * (`previewPage`, pdf.js); a mini-program downloads it with the token (`download` answers the file's temporary path)
   * and opens it in the system's document viewer.
   */
  openDocument(doc: { previewPage: string; download: () => Promise<string>; fileType: 'pdf' }): Promise<void>
  /**
   * Marks the whole document with a class (elder mode): on H5 the <html> element, so that popups, toasts and modals
   * rendered outside the page take it too; a mini-program has no document, and each page's frame takes the class.
   */
  markDocument(className: string, on: boolean): void
  /**
   * Where the app's own navigation bar goes, in CSS pixels, in a mini-program whose native bar is hidden
   * (navigationStyle custom): below the status bar (`top`), as tall as the capsule menu button with its margins
   * (`height`), keeping clear of the capsule on the right (`right`). Null on H5, where the browser draws nothing over
   * the page.
   */
  navBarFrame(): { top: number; height: number; right: number } | null
  /**
   * Starts fetching the code of pages the app is about to open (`/pages/sys/palm/index`), so that it comes while other
   * work is waited for: on H5 the pages' script chunks, through the router's own loaders; nothing in a mini-program,
   * whose main package is on the phone already. A page whose code does not come now is fetched again when it opens.
   */
  preloadPages(paths: string[]): void
  /** Session-only storage (spec §3), cleared with the tab; entries expire after 20 minutes. */
  session: SessionStore
  /**
   * Whether views take keyboard focus (Tab) and Enter / Space (H5); a mini-program has no keyboard focus. Read by
   * components/Tappable.
   */
  readonly keyboard: boolean
  /**
   * Reads a toast's text to a screen reader (H5: one polite live region, visually hidden); a mini-program's own
   * toast is read by the system.
   */
  announce(text: string): void
  /** Moves focus to the new page's title so a screen reader reads it (H5); a mini-program reads its own page title. */
  focusTitle(node: unknown): void
  /**
   * Gives the modal Taro.showModal has just opened a dialog role, a name and buttons that answer the keyboard, and
   * moves focus into it (H5); returns what puts focus back once it has closed. A mini-program's modal is native.
   */
  labelModal(): () => void
}

/**
 * Says what the page shares, null while it does not know yet: a mini-program's share menu (Taro's useShareAppMessage;
 * the page's config sets `enableShareAppMessage: true`), WeChat's ··· menu in WeChat's browser (its JS-SDK, configured
 * for the page's address first); nothing in other browsers. A page calls it once, unconditionally, like any hook.
 */
export declare function useShare(content: ShareContent | null): void

declare const platform: Platform
export default platform
