import type { BillCategory } from '../../types/api/palm'

/** The category of a bill, a price item or a stay's charge as the patient reads it. */
export const CATEGORY_TEXT: Record<BillCategory, string> = {
  drug: '西药',
  herbal: '中药饮片',
  lab: '检验',
  exam: '检查',
  treatment: '治疗',
  material: '材料',
  service: '诊疗服务',
}

/** A cost category of a settled stay (出院结算's 费用分类): 西药费, 检验费 ... */
export const costCategoryName = (category: BillCategory) => `${CATEGORY_TEXT[category]}费`

const CHANNEL_NAMES: Record<string, string> = { wechat: '微信支付', alipay: '支付宝', sandbox: '在线支付' }

/** How a returned balance goes back, as the patient reads it. */
export function settlementReturnText(way: 'original' | 'window', channel: string): string {
  if (way === 'window') return '凭预交金收据到住院收费处领取'
  return `原路退回${CHANNEL_NAMES[channel] ?? '原支付账户'}`
}

/**
 * Days in hospital as a Chinese hospital bills them: the day of discharge is not counted (算入不算出), and a stay that
 * begins and ends on one day counts one day. Dates are the hospital's calendar days, YYYY-MM-DD.
 */
export function stayDays(admittedOn: string, dischargedOn: string): number {
  const days = Math.round((Date.parse(`${dischargedOn}T00:00:00Z`) - Date.parse(`${admittedOn}T00:00:00Z`)) / 86_400_000)
  return Math.max(1, days)
}
