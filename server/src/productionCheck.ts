import type { Config } from './config'

/*
 * Production is never a sandbox by accident. A server with NODE_ENV=production and without DEMO=1 does not start
 * while a provider a patient depends on is missing, and names every missing setting in one error, so that one
 * restart is enough to fix them all.
 *
 * Depended on, because without it no patient gets through:
 * - signing in: WeChat (WECHAT_APPS) or Alipay (ALIPAY) web authorisation. Every call needs a signed-in identity,
 *   and the sandbox page would let anyone in as anybody.
 * - SMS codes (SMS_URL): binding a mobile turns an identity into a user; a code written only to the log never reaches
 *   the patient.
 * - paying online: WeChat Pay (WECHAT_PAY, under one of WECHAT_APPS) or Alipay (ALIPAY_PAY, with ALIPAY sign-in), with
 *   the sandbox cashier off (PAY_SANDBOX=1 is refused: its "payments" take no money), and PUBLIC_URL, where the
 *   provider's notifications and the patient's browser come back.
 *
 * Optional, because a hospital may not offer them: insurance (INSURANCE), identity-card photos (OCR_*), the
 * electronic health card (HEALTH_CARD), reverse geocoding (MAP_KEY), outpatient bills from the HIS (HIS). Without their settings app.ts builds them
 * "disabled": they answer that the service is not open, and their sandboxes and /sandbox pages are not served. A sign-in
 * channel the hospital does not use is disabled the same way. Tencent IM (TIM_*) and an AI model (AI_*) have no
 * sandbox: our own chat service and the built-in triage rules are real implementations and stay.
 *
 * DEMO=1 makes a production server a demo or training server: sandboxes, the demo hospitals and the 演示环境 mark.
 */

/** What keeps this configuration from running in production, one line per setting to fix; empty when it may start. */
export function productionProblems(config: Config): string[] {
  if (config.mode !== 'production' || config.demo) return []
  const problems: string[] = []
  const wechatApps = Object.keys(config.wechat)
  if (wechatApps.length === 0 && !config.alipay && Object.keys(config.wechatMini).length === 0 && !config.alipayMini) {
    problems.push('WECHAT_APPS, ALIPAY, WECHAT_MINI_APPS or ALIPAY_MINI: patients sign in with WeChat or Alipay (web or mini-program); set at least one')
  }
  if (config.sms.provider !== 'http') problems.push('SMS_URL (and SMS_TOKEN): the SMS gateway that sends the codes patients bind their mobile with')
  if (!config.wechatPay && !config.alipayPay) {
    problems.push('WECHAT_PAY or ALIPAY_PAY: a real payment channel; without one no patient can pay online')
  }
  if (config.wechatPay && !wechatApps.includes(config.wechatPay.appId)) {
    problems.push(`WECHAT_APPS: add the WeChat Pay app id ${config.wechatPay.appId}; only patients signed in under it can pay with WECHAT_PAY`)
  }
  if (config.alipayPay && !config.alipay) problems.push('ALIPAY: Alipay sign-in; only patients signed in with Alipay can pay with ALIPAY_PAY')
  if (config.paySandbox) problems.push('PAY_SANDBOX: unset it; the sandbox cashier takes no money (DEMO=1 is for a demo server)')
  if (!config.publicUrl) problems.push('PUBLIC_URL: the public origin (https://...); payment notifications and authorisation pages return there')
  return problems
}

/** Throws one error naming every setting production still needs (see above); returns on a demo or a complete configuration. */
export function assertReadyForProduction(config: Config): void {
  const problems = productionProblems(config)
  if (problems.length === 0) return
  throw new Error(
    [
      'Refusing to start: NODE_ENV=production without DEMO=1 runs no sandbox for what patients depend on. Set:',
      ...problems.map((p) => `  - ${p}`),
      '(README, Configuration), or DEMO=1 for a demo or training server: sandboxes, the demo hospitals and the 演示环境 mark.',
    ].join('\n'),
  )
}
