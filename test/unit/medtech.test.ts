import { nucleicResultText, weekdayText } from '../../src/utils/medtech'

describe('weekdayText', () => {
  test('names the calendar day of a date, whatever the time zone', () => {
    expect(weekdayText('2026-11-27')).toBe('周五')
    expect(weekdayText('2026-11-29')).toBe('周日')
    expect(weekdayText('2026-11-30')).toBe('周一')
    expect(weekdayText('not a date')).toBe('')
  })
})

describe('nucleicResultText', () => {
  test('says a result in words, not by colour alone', () => {
    expect(nucleicResultText('阴性')).toBe('阴性（未检出新冠病毒核酸）')
    expect(nucleicResultText('阳性')).toMatch(/^阳性（检出/)
    expect(nucleicResultText(null)).toBe('等待报告')
  })
})
