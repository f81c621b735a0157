/**
 * The outside world, one interface each (WeChat and Alipay authorisation, SMS, ID-card OCR, the health card, maps,
 * payment, health insurance, the hospital information system, an AI model): the real service when its settings are there, else on a demo server its
 * sandbox (which behaves like the real one: redirects, signed callbacks, one-time codes), and off anywhere else
 * (productionCheck.ts refuses to start a production server without the ones patients depend on).
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../../config'
import { hmacHex, type FieldCipher } from '../../crypto'
import type { Db } from '../../db'
import { redeemOAuthCode, redeemPhoneCode } from '../../domain/auth'
import { noModel, openAiCompatibleModel, type AiProvider } from './ai'
import { disabledHealthCard, sandboxHealthCard, tencentHealthCard, type HealthCardProvider } from './healthCard'
import { disabledInsurance, gatewayInsurance, sandboxInsurance, type InsuranceProvider } from './insurance'
import { disabledHis, httpHis, type HisProvider } from './his'
import { sandboxHis } from './hisSandbox'
import { disabledLocation, sandboxLocation, tencentLocation, type LocationProvider } from './location'
import { disabledAlipay, disabledWechat, realAlipay, realWechat, sandboxAlipay, sandboxWechat, type OAuthProvider, type WechatProvider } from './oauth'
import { disabledOcr, sandboxOcr, tencentOcr, type OcrProvider } from './ocr'
import type { Deliver, PayProvider } from './pay'
import { sandboxPay, type SandboxPay } from './paySandbox'
import { wechatPay } from './wechatPay'
import { alipayPay } from './alipayPay'
import { disabledSms, httpSms, sandboxSms, type SmsProvider } from './sms'

export interface Providers {
  wechat: WechatProvider
  alipay: OAuthProvider
  sms: SmsProvider
  ocr: OcrProvider
  healthCard: HealthCardProvider
  location: LocationProvider
  pay: PayProviders
  insurance: InsuranceProvider
  /** The hospital information system: bills, queues, prices (later admissions and registration). */
  his: HisProvider
  ai: AiProvider
}

/** What the payment core needs of them: the payment channels and health insurance. */
export type PayProvidersOf = Pick<Providers, 'pay' | 'insurance'>

/** The sandbox WeChat's JS-SDK ticket for an app id: stable per app secret, like WeChat's for a while. */
export const sandboxTicket = (secret: string, appId: string) => hmacHex(secret, `jsapi-ticket:${appId}`).slice(0, 40)

export function buildProviders(
  config: Config,
  db: Db,
  cipher: FieldCipher,
  log: FastifyBaseLogger,
  /** How the sandbox cashier calls this server's notify URL (through the app, like a provider over the network). */
  deliver: Deliver,
): Providers {
  const redeem = (provider: 'wechat' | 'alipay') => (appId: string, code: string) => redeemOAuthCode(db, provider, appId, code)
  const sandboxOrOff = <T>(sandbox: () => T, off: () => T): T => (config.demo ? sandbox() : off())
  return {
    wechat: Object.keys(config.wechat).length || Object.keys(config.wechatMini).length
      ? realWechat(config.wechat, config.wechatMini)
      : sandboxOrOff(() => sandboxWechat(redeem('wechat'), (appId) => sandboxTicket(config.secret, appId), (appId, code) => redeemPhoneCode(db, appId, code)), disabledWechat),
    alipay: config.alipay || config.alipayMini ? realAlipay(config.alipay, fetch, config.alipayMini) : sandboxOrOff(() => sandboxAlipay(redeem('alipay')), disabledAlipay),
    sms: config.sms.provider === 'http' ? httpSms(config.sms) : sandboxOrOff(() => sandboxSms(log), disabledSms),
    ocr: config.ocr ? tencentOcr(config.ocr) : sandboxOrOff(sandboxOcr, disabledOcr),
    healthCard: config.healthCard ? tencentHealthCard(config.healthCard, config.publicUrl) : sandboxOrOff(() => sandboxHealthCard(db, cipher), disabledHealthCard),
    location: config.map ? tencentLocation(config.map) : sandboxOrOff(() => sandboxLocation(db), disabledLocation),
    pay: buildPayProviders(config, db, deliver),
    insurance: config.insurance ? gatewayInsurance(config.insurance, config.publicUrl) : sandboxOrOff(() => sandboxInsurance(db, cipher, config.secret), disabledInsurance),
    his: config.his ? httpHis(config.his) : sandboxOrOff(() => sandboxHis(db, cipher), disabledHis),
    ai: config.ai ? openAiCompatibleModel(config.ai) : noModel(),
  }
}

/** The sandbox (the embedded default) and the real channels the configuration turns on. */
export interface PayProviders {
  sandbox: SandboxPay | null
  wechat: (PayProvider & { readonly appId: string }) | null
  alipay: (PayProvider & { readonly appId: string }) | null
  /** Stops the sandbox's pending deliveries (the app is closing). */
  close(): void
}

/** The sandbox while no real channel is configured (or PAY_SANDBOX asks for it), and each configured real channel. */
export function buildPayProviders(
  config: Pick<Config, 'secret' | 'publicUrl' | 'wechatPay' | 'alipayPay' | 'paySandbox'>,
  db: Db,
  deliver: Deliver,
): PayProviders {
  if ((config.wechatPay || config.alipayPay) && !config.publicUrl) {
    throw new Error('PUBLIC_URL must be set for WeChat Pay or Alipay to reach the notify URL')
  }
  const sandbox = config.paySandbox ? sandboxPay({ secret: config.secret, db, deliver }) : null
  return {
    sandbox,
    wechat: config.wechatPay ? wechatPay(config.wechatPay, config.publicUrl!) : null,
    alipay: config.alipayPay ? alipayPay(config.alipayPay, config.publicUrl!) : null,
    close: () => sandbox?.close(),
  }
}
