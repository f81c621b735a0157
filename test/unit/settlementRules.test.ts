import { costCategoryName, settlementReturnText, stayDays } from '../../src/utils/settlementRules'

describe('days in hospital (算入不算出)', () => {
  it('counts the day of admission and not the day of discharge', () => {
    expect(stayDays('2026-11-01', '2026-11-04')).toBe(3)
    expect(stayDays('2026-02-27', '2026-03-02')).toBe(3)
  })
  it('counts a stay of one day as one day', () => {
    expect(stayDays('2026-11-01', '2026-11-01')).toBe(1)
  })
})

describe('how a returned balance reads', () => {
  it('reads as the patient expects', () => {
    expect(settlementReturnText('original', 'wechat')).toBe('原路退回微信支付')
    expect(settlementReturnText('window', 'window')).toBe('凭预交金收据到住院收费处领取')
  })
  it('names a stay’s cost category', () => {
    expect(costCategoryName('lab')).toBe('检验费')
  })
})
