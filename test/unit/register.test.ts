import {
  cancelConfirmText,
  countdownText,
  groupByDoctor,
  isBookable,
  localTime,
  msUntil,
  newIdempotencyKey,
  refundText,
  shortDate,
  splitRemark,
  yuan,
} from '../../src/utils/register'

describe('yuan: fen as the patient reads it (spec §9)', () => {
  test('two decimals from integer fen, no float noise', () => {
    expect(yuan(0)).toBe('¥0.00')
    expect(yuan(5)).toBe('¥0.05')
    expect(yuan(1230)).toBe('¥12.30')
    expect(yuan(10000)).toBe('¥100.00')
    // 0.1 + 0.2 in yuan would print 0.30000000000000004; in fen it is exact
    expect(yuan(10 + 20)).toBe('¥0.30')
    expect(yuan(123456789)).toBe('¥1234567.89')
  })
})

describe('the hold countdown', () => {
  const now = Date.UTC(2026, 10, 23, 8, 0, 0)
  test('mm:ss, seconds rounded up so 00:00 means the hold is over', () => {
    expect(countdownText(15 * 60_000)).toBe('15:00')
    expect(countdownText(14 * 60_000 + 59_001)).toBe('15:00')
    expect(countdownText(61_000)).toBe('01:01')
    expect(countdownText(9_000)).toBe('00:09')
    expect(countdownText(200)).toBe('00:01')
    expect(countdownText(0)).toBe('00:00')
    expect(countdownText(-5_000)).toBe('00:00')
    expect(countdownText(Number.NaN)).toBe('00:00')
  })

  test('minutes are not capped at 59', () => {
    expect(countdownText(90 * 60_000)).toBe('90:00')
  })

  test('time left until an ISO instant; none, past or unreadable is zero', () => {
    expect(msUntil(new Date(now + 90_000).toISOString(), now)).toBe(90_000)
    expect(msUntil(new Date(now - 1).toISOString(), now)).toBe(0)
    expect(msUntil(null, now)).toBe(0)
    expect(msUntil('not a time', now)).toBe(0)
  })
})

describe('splitRemark: "title|hospitalName" (spec §3)', () => {
  test('splits at the first bar and trims', () => {
    expect(splitRemark('主任医师|示范市第一人民医院')).toEqual({ title: '主任医师', hospitalName: '示范市第一人民医院' })
    expect(splitRemark(' 副主任医师 | 示范市中医院 ')).toEqual({ title: '副主任医师', hospitalName: '示范市中医院' })
  })

  test('no bar is all title; a second bar stays in the hospital name; nothing is empty', () => {
    expect(splitRemark('医师')).toEqual({ title: '医师', hospitalName: '' })
    expect(splitRemark('主治医师|某院|东院区')).toEqual({ title: '主治医师', hospitalName: '某院|东院区' })
    expect(splitRemark('|某院')).toEqual({ title: '', hospitalName: '某院' })
    expect(splitRemark(null)).toEqual({ title: '', hospitalName: '' })
  })
})

describe('schedule helpers', () => {
  const item = (doctorId: number | null, remaining: number, stopped = false) => ({
    doctorId,
    doctorName: doctorId === null ? '普通门诊' : `医生${doctorId}`,
    title: doctorId === null ? '' : '主任医师',
    avatar: '',
    remaining,
    stopped,
  })

  test('bookable only when not stopped and a number is left', () => {
    expect(isBookable({ remaining: 1, stopped: false })).toBe(true)
    expect(isBookable({ remaining: 0, stopped: false })).toBe(false)
    expect(isBookable({ remaining: 3, stopped: true })).toBe(false)
  })

  test('按医生 groups days per doctor in first-seen order, the general clinic as one group', () => {
    const groups = groupByDoctor([item(7, 0), item(null, 2), item(8, 0, true), item(7, 3), item(null, 0)])
    expect(groups.map((g) => [g.doctorId, g.items.length, g.available])).toEqual([
      [7, 2, true],
      [null, 2, true],
      [8, 1, false],
    ])
  })

  test('short dates for the strip', () => {
    expect(shortDate('2026-11-23')).toBe('11-23')
    expect(shortDate('明天')).toBe('明天')
  })
})

describe('idempotency keys', () => {
  test('each attempt gets its own', () => {
    const keys = new Set(Array.from({ length: 200 }, () => newIdempotencyKey()))
    expect(keys.size).toBe(200)
    for (const k of keys) expect(k.length).toBeGreaterThanOrEqual(16)
  })

  test('without the platform UUID (mini-programs) still 32 random hex characters', () => {
    const crypto = globalThis.crypto
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true })
    try {
      const a = newIdempotencyKey()
      expect(a).toMatch(/^[0-9a-f]{32}$/)
      expect(newIdempotencyKey()).not.toBe(a)
    } finally {
      Object.defineProperty(globalThis, 'crypto', { value: crypto, configurable: true })
    }
  })
})

describe('cancelling texts', () => {
  const order = (status: string, selfPayFen: number, insuranceFen = 0, refundedFen = 0) => ({ status, selfPayFen, insuranceFen, refundedFen })

  test('a hold gives the number back; a free booking just ends', () => {
    expect(cancelConfirmText({ status: 'holding', order: order('paying', 2500) })).toBe('确定取消本次预约吗？取消后号源将释放给其他患者。')
    expect(cancelConfirmText({ status: 'booked', order: null })).toBe('确定取消预约吗？')
  })

  test('a paid booking says how much goes back and where', () => {
    expect(cancelConfirmText({ status: 'booked', order: order('paid', 2500) })).toBe('确定取消预约吗？取消后已支付的¥25.00将原路退回，预计1-7个工作日到账。')
    expect(cancelConfirmText({ status: 'booked', order: order('paid', 1000, 1500) })).toBe(
      '确定取消预约吗？取消后已支付的¥10.00将原路退回，预计1-7个工作日到账，医保支付的¥15.00将退回医保账户。',
    )
  })

  test('after cancelling: the refund in progress or done; nothing for a hold or a free booking', () => {
    expect(refundText({ status: 'cancelled', order: order('refunding', 2500) })).toBe('退款处理中：¥25.00将原路退回，预计1-7个工作日到账')
    expect(refundText({ status: 'cancelled', order: order('refunded', 2500, 0, 2500) })).toBe('已退款¥25.00，已原路退回')
    expect(refundText({ status: 'cancelled', order: order('cancelled', 2500) })).toBeNull()
    // a paid order under a cancelled booking: the provider refused the refund
    expect(refundText({ status: 'cancelled', order: order('paid', 2500) })).toBe('退款未成功，¥25.00尚未退回，请联系医院窗口处理')
    expect(refundText({ status: 'cancelled', order: null })).toBeNull()
    expect(refundText({ status: 'booked', order: order('paid', 2500) })).toBeNull()
  })
})

describe('localTime', () => {
  test('the phone’s own clock, minutes; nothing for none', () => {
    const d = new Date(2026, 10, 23, 9, 5, 30)
    expect(localTime(d.toISOString())).toBe('2026-11-23 09:05')
    expect(localTime(null)).toBe('')
    expect(localTime('x')).toBe('')
  })
})
