import type TIM from 'tim-js-sdk'

/**
 * The Tencent IM SDK (v2) of this target: tim-js-sdk in H5, tim-wx-sdk in the WeChat and Alipay mini-programs.
 * Only the Tencent IM chat driver imports it, and only the internet pages that chat bring that driver (./imDriver.ts),
 * so the SDK (about 143 KB gzip) stays out of the first load and out of the mini-programs' main package.
 */
export type TimSdk = typeof TIM

declare const sdk: TimSdk
export default sdk
