import { flagText, labFlag, numericValue, trendAxis, trendLabel, ucumOf } from '../../src/utils/reportRules'

describe('lab flags', () => {
  test('a value above, below or within its range; words, not colour alone', () => {
    expect(labFlag('11.80', 3.5, 9.5)).toBe('H')
    expect(labFlag('3.49', 3.5, 9.5)).toBe('L')
    expect(labFlag('3.5', 3.5, 9.5)).toBe('N')
    expect(labFlag('9.5', 3.5, 9.5)).toBe('N')
    expect(labFlag('27', null, 26)).toBe('H')
    expect(labFlag('0', null, 26)).toBe('N')
    expect(flagText('H')).toBe('↑ 偏高')
    expect(flagText('L')).toBe('↓ 偏低')
    expect(flagText('N')).toBe('')
    expect(flagText('')).toBe('')
  })

  test('a value that is not a number, or an item without a range, has no flag', () => {
    expect(labFlag('阴性', 0, 1)).toBe('')
    expect(labFlag('>1000', 0, 100)).toBe('')
    expect(labFlag('5', null, null)).toBe('')
    expect(numericValue(' -1.25 ')).toBe(-1.25)
    expect(numericValue('1e3')).toBeNull()
  })
})

describe('UCUM units', () => {
  test('the laboratory’s units as UCUM codes, null when unknown', () => {
    expect(ucumOf('10^9/L')).toBe('10*9/L')
    expect(ucumOf('10^12/L')).toBe('10*12/L')
    expect(ucumOf('μmol/L')).toBe('umol/L')
    expect(ucumOf('mmol/L')).toBe('mmol/L')
    expect(ucumOf('IU/L')).toBe('[IU]/L')
    expect(ucumOf('S/CO')).toBeNull()
  })
})

describe('trend chart', () => {
  test('labels a point by its day in China, with the year when not this one', () => {
    const now = new Date('2026-11-27T04:00:00Z')
    expect(trendLabel('2026-11-19T17:00:00Z', now)).toBe('11-20')
    expect(trendLabel('2025-12-31T17:00:00Z', now)).toBe('01-01')
    expect(trendLabel('2025-06-01T02:00:00Z', now)).toBe('2025-06-01')
  })

  test('the axis holds the values and the reference range with a margin', () => {
    expect(trendAxis([7.2, 8.9, 11.8], 3.5, 9.5)).toEqual({ min: 2.25, max: 13 })
    expect(trendAxis([14.2], null, 26)).toEqual({ min: 12.4, max: 27.8 })
    expect(trendAxis([], null, null)).toEqual({ min: 0, max: 1 })
    expect(trendAxis([0.5, 0.6], 0, 1.7).min).toBe(0)
  })
})
