import { get, post, put, upload } from './request'
import type { Session, UserInfo } from '../../types/api/auth'

/** `/dld-auth` and `/dld-im`: sign-in, binding and the chat signature. */
export const getAuthorizeUrl = (provider: 'wechat' | 'alipay', q: { appId: string; redirectUri: string; scope: string; state: string }) =>
  get<{ url: string }>(`/dld-auth/oauth/${provider}/authorize-url`, q, { noLoading: true })

export const signInWechat = (code: string, appId: string) => post<Session>('/dld-auth/token/wxH5', { code, appId }, { silent: true })
export const signInWechatUserInfo = (code: string, appId: string) =>
  post<Session>('/dld-auth/token/getWxAccessToken', { code, appId }, { silent: true })
export const signInAlipay = (authCode: string, appId: string) => post<Session>('/dld-auth/token/alipay/H5', { authCode, appId }, { silent: true })
/** Inside the mini-programs: the code of wx.login / my.getAuthCode. */
export const signInWeapp = (code: string, appId: string) => post<Session>('/dld-auth/token/weapp', { code, appId }, { silent: true })
export const signInAlipayMini = (authCode: string, appId: string) => post<Session>('/dld-auth/token/alipay/mini', { authCode, appId }, { silent: true })

/** A new session for the refresh token (the old one is revoked), before the patient must authorise again. */
export const renewSession = (provider: 'wechat' | 'alipay', refreshToken: string) =>
  post<Session>(provider === 'wechat' ? '/dld-auth/token/refresh/force' : '/dld-auth/token/alipay/refresh/force', { refreshToken }, { silent: true, noLoading: true, own401: true })

/** What the code proves: the account's own mobile ('bind') or a patient's mobile ('patient'). */
export type SmsPurpose = 'bind' | 'patient'
export const sendBindCode = (mobile: string, purpose: SmsPurpose = 'bind') =>
  post<{ sent: boolean; resendAfter: number }>('/dld-auth/token/smsBindCode', { mobile, purpose })
/** Binding the signed-in identity to a mobile proven by an SMS code: an Alipay identity through its own call (spec §7). */
export const bindMobile = (provider: 'wechat' | 'alipay', mobile: string, code: string, sourceType: number) =>
  post<{ userId: number; nickname: string }>(provider === 'alipay' ? '/dld-hospital/alipayBind' : '/dld-hospital/bind', { mobile, code, sourceType })
/** Moves the account to a new mobile proven by a 'bind' SMS code to it (the patients and records stay). */
export const changeBind = (mobile: string, code: string) => post<{ userId: number; mobile: string }>('/dld-hospital/changeBind', { mobile, code })
/** Unbinds the signed-in WeChat / Alipay identity from its account (the account and its patients stay). */
export const cancelBind = () => get<{ userId: 0 }>('/dld-hospital/cancelBind')
/** The WeChat mini-program's phone-number button: the number WeChat verified, no SMS code. */
export const bindWechatPhone = (code: string, sourceType: number) => post<{ userId: number; nickname: string }>('/dld-hospital/wxPhoneBind', { code, sourceType })

export const getUserInfo = () => get<UserInfo>('/dld-hospital/userinfo', undefined, { noLoading: true })
export const updateProfile = (profile: { nickname: string; avatar: string }) => put<UserInfo>('/dld-hospital/userinfo', profile)
export const uploadFile = (filePath: string) => upload<{ url: string; name: string; size: number; mime: string }>('/dld-file/files-upload', filePath)
