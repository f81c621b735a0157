/// <reference types="@tarojs/taro" />

declare module '*.png'
declare module '*.svg'
declare module '*.scss'

declare namespace NodeJS {
  interface ProcessEnv {
    TARO_ENV: 'weapp' | 'alipay' | 'h5'
  }
}

/** Where the app's API lives: '' (same origin) on H5; the server's https origin in the mini-programs. */
declare const API_BASE: string
/** Sites besides the server a mini-program's web-view may open (TARO_APP_WEBVIEW_ORIGINS, config/index.ts). */
declare const WEBVIEW_ORIGINS: string[]
/** The platform's own official-account app id: main (non-hospital) mode runs under it (spec §1). */
declare const DEFAULT_APP_ID: string
