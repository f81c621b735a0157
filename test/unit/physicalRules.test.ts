import { addDays, bookableDays, canCancelPaid, isCentreOpen, packageRefusal, weekOf } from '../../src/utils/physicalRules'

describe('physical-exam booking rules', () => {
  const basicMale = { sex: 1 as const, minAge: 18, maxAge: 80 }
  it('refuses a package for the other sex, and outside its ages, saying why', () => {
    expect(packageRefusal(basicMale, { sex: 2, birthday: '1990-01-01' }, '2026-11-27')).toBe('该套餐仅限男性')
    expect(packageRefusal({ sex: 2, minAge: 25, maxAge: 70 }, { sex: 1, birthday: '1990-01-01' }, '2026-11-27')).toBe('该套餐仅限女性')
    expect(packageRefusal(basicMale, { sex: 1, birthday: '2010-01-01' }, '2026-11-27')).toBe('该套餐适合18至80岁')
    expect(packageRefusal(basicMale, { sex: 1, birthday: '1990-01-01' }, '2026-11-27')).toBeNull()
    expect(packageRefusal({ sex: 0, minAge: 45, maxAge: 90 }, { sex: 2, birthday: '1981-11-28' }, '2026-11-27')).toBe('该套餐适合45至90岁')
    expect(packageRefusal({ sex: 0, minAge: 45, maxAge: 90 }, { sex: 2, birthday: '1981-11-27' }, '2026-11-27')).toBeNull()
  })
  it('books from tomorrow for two weeks; the centre rests on Sundays', () => {
    const days = bookableDays('2026-12-31')
    expect(days[0]).toBe('2027-01-01')
    expect(days).toHaveLength(14)
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29')
    expect(weekOf('2026-11-29')).toBe('周日')
    expect(isCentreOpen('2026-11-29')).toBe(false)
    expect(isCentreOpen('2026-11-28')).toBe(true)
  })
  it('cancels a paid exam only before its day', () => {
    expect(canCancelPaid('2026-11-28', '2026-11-27')).toBe(true)
    expect(canCancelPaid('2026-11-27', '2026-11-27')).toBe(false)
    expect(canCancelPaid('2026-11-26', '2026-11-27')).toBe(false)
  })
})
