import { hospitalClock, hospitalInstant, hospitalToday } from '../../src/utils/hospitalClock'

describe('the hospital wall clock (Asia/Shanghai, UTC+8 all year)', () => {
  test('an instant late in the UTC day is already the next day at the hospital', () => {
    expect(hospitalClock(new Date('2026-11-24T16:30:05.900Z'))).toEqual({ date: '2026-11-25', time: '00:30:05', minutes: 30 })
    expect(hospitalToday(new Date('2026-12-31T15:59:59Z'))).toBe('2026-12-31')
    expect(hospitalToday(new Date('2026-12-31T16:00:00Z'))).toBe('2027-01-01')
  })

  test('no daylight saving: July and January keep the same offset', () => {
    expect(hospitalClock(new Date('2026-07-01T00:00:00Z')).time).toBe('08:00:00')
    expect(hospitalClock(new Date('2026-01-01T00:00:00Z')).time).toBe('08:00:00')
  })

  test('a wall-clock time is the instant the clock shows', () => {
    expect(hospitalInstant('2026-11-25', '08:30').toISOString()).toBe('2026-11-25T00:30:00.000Z')
    expect(hospitalInstant('2026-11-25', '00:30:05').toISOString()).toBe('2026-11-24T16:30:05.000Z')
    const now = new Date('2026-11-25T03:04:05Z')
    const { date, time } = hospitalClock(now)
    expect(hospitalInstant(date, time)).toEqual(now)
  })
})
