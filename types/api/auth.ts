import type { DeclaredIdentity } from './account'
export interface Session {
  token: string
  refreshToken: string
  /** ms since epoch when the access token expires (the lifeData expire stamp) */
  expireTime: number
  appId: string
  userId: number
}

export interface UserInfo {
  id: number
  nickname: string
  wechatAvatar: string
  mobile: string
  roles: string[]
  appId: string
  provider: 'wechat' | 'alipay'
  /** 实名认证 as the account holder declared it (masked); null until they have. */
  identity: DeclaredIdentity | null
  /** The platform's user agreement or privacy policy has not been agreed to in its current version. */
  consentNeeded: boolean
}

export interface UserSig {
  driver: 'tim' | 'local'
  sdkAppId: number
  imAccount: string
  userSig: string
  expire: number
}
