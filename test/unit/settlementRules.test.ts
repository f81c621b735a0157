import { settlementReturnText, stayDays } from '../../src/utils/settlementRules'
import { settlementReturns } from '../../server/src/plugins/providers/hisSandbox'

describe('days in hospital (算入不算出)', () => {
  it('counts the day of admission and not the day of discharge', () => {
    expect(stayDays('2026-11-01', '2026-11-04')).toBe(3)
    expect(stayDays('2026-02-27', '2026-03-02')).toBe(3)
  })
  it('counts a stay of one day as one day', () => {
    expect(stayDays('2026-11-01', '2026-11-01')).toBe(1)
  })
})

describe('how a settled stay’s balance goes back', () => {
  it('goes back to the latest online deposits first, each at most what it paid, the rest at the window', () => {
    const deposits = [
      { channel: 'wechat', amountFen: 30000 },
      { channel: 'window', amountFen: 100000 },
      { channel: 'alipay', amountFen: 20000 },
      { channel: 'wechat', amountFen: 10000 },
    ]
    expect(settlementReturns(55000, deposits)).toEqual([
      { way: 'original', channel: 'wechat', amountFen: 35000 },
      { way: 'original', channel: 'alipay', amountFen: 20000 },
    ])
    expect(settlementReturns(80000, deposits)).toEqual([
      { way: 'original', channel: 'wechat', amountFen: 40000 },
      { way: 'original', channel: 'alipay', amountFen: 20000 },
      { way: 'window', channel: 'window', amountFen: 20000 },
    ])
  })
  it('returns nothing when nothing is left', () => {
    expect(settlementReturns(0, [{ channel: 'wechat', amountFen: 100 }])).toEqual([])
  })
  it('reads as the patient expects', () => {
    expect(settlementReturnText('original', 'wechat')).toBe('原路退回微信支付')
    expect(settlementReturnText('window', 'window')).toBe('凭预交金收据到住院收费处领取')
  })
})
