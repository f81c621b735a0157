import { ageOn, audienceOf, checkSelfServiceChoice, ruleOf, selfServicePersonOf, selfServiceRefusal, SELF_SERVICE_RULES } from '../../src/utils/selfService'
import { idCardCheckChar } from '../../src/utils/idCard'

const TODAY = '2026-06-15'
const PSA = ruleOf('JY0024')!
const HCG = ruleOf('JY0034')!
const BLOOD = ruleOf('JY0001')!

describe('age on a date', () => {
  test.each([
    ['1981-06-15', 45],
    ['1981-06-16', 44],
    ['1981-05-31', 45],
    ['2026-06-15', 0],
    ['2030-01-01', 0],
  ])('born %s is %i on 2026-06-15', (birthday, age) => {
    expect(ageOn(birthday, TODAY)).toBe(age)
  })
})

describe('who may order a self-service test (自助开单)', () => {
  test('a test for anyone is allowed for anyone', () => {
    expect(selfServiceRefusal(BLOOD, { sex: 1, birthday: '2010-01-01' }, TODAY)).toBeNull()
    expect(audienceOf(BLOOD)).toBe('')
  })

  test('PSA: men of 45 and over; a woman is told the sex, a younger man the age', () => {
    expect(audienceOf(PSA)).toBe('仅限45岁及以上男性')
    expect(selfServiceRefusal(PSA, { sex: 1, birthday: '1981-06-15' }, TODAY)).toBeNull()
    expect(selfServiceRefusal(PSA, { sex: 1, birthday: '1981-06-16' }, TODAY)).toBe('仅限45岁及以上')
    expect(selfServiceRefusal(PSA, { sex: 2, birthday: '1960-01-01' }, TODAY)).toBe('仅限男性')
  })

  test('pregnancy test: women of childbearing age, both ends inclusive', () => {
    expect(audienceOf(HCG)).toBe('仅限18至55岁女性')
    expect(selfServiceRefusal(HCG, { sex: 2, birthday: '2008-06-15' }, TODAY)).toBeNull()
    expect(selfServiceRefusal(HCG, { sex: 2, birthday: '2008-06-16' }, TODAY)).toBe('仅限18至55岁')
    expect(selfServiceRefusal(HCG, { sex: 2, birthday: '1971-06-15' }, TODAY)).toBeNull()
    expect(selfServiceRefusal(HCG, { sex: 2, birthday: '1970-06-14' }, TODAY)).toBe('仅限18至55岁')
    expect(selfServiceRefusal(HCG, { sex: 1, birthday: '1990-01-01' }, TODAY)).toBe('仅限女性')
  })

  test('every rule has a catalogue code of its own and notes', () => {
    expect(new Set(SELF_SERVICE_RULES.map((r) => r.code)).size).toBe(SELF_SERVICE_RULES.length)
    for (const r of SELF_SERVICE_RULES) expect(r.notes).not.toBe('')
  })
})

describe('a whole choice checked', () => {
  const man = { sex: 1 as const, birthday: '1970-01-01' }
  const names: Record<string, string> = { JY0001: '血常规', JY0034: '妊娠试验' }
  const nameOf = (code: string) => names[code] ?? code

  test('allowed tests pass, each once', () => {
    expect(checkSelfServiceChoice(['JY0001', 'JY0024', 'JY0001'], man, TODAY)).toEqual({ ok: true, codes: ['JY0001', 'JY0024'] })
  })

  test('nothing chosen, an unknown test, or one not for this person is refused with the reason', () => {
    expect(checkSelfServiceChoice([], man, TODAY)).toEqual({ ok: false, reason: '请选择检验项目' })
    expect(checkSelfServiceChoice(['JY0003'], man, TODAY)).toEqual({ ok: false, reason: 'JY0003不能自助开单' })
    expect(checkSelfServiceChoice(['JY0001', 'JY0034'], man, TODAY, nameOf)).toEqual({ ok: false, reason: '妊娠试验仅限女性，不能为该就诊人开单' })
  })
})

describe('sex and birth date of a patient', () => {
  const recorded = { sex: 2 as const, birthday: '2020-02-02' }
  test('from the identity number when there is one', () => {
    const first17 = '11010119800101001'
    expect(selfServicePersonOf(first17 + idCardCheckChar(first17), recorded)).toEqual({ sex: 1, birthday: '1980-01-01' })
  })
  test('as recorded without one (a child bound without a card), or when it cannot be read', () => {
    expect(selfServicePersonOf(null, recorded)).toEqual(recorded)
    expect(selfServicePersonOf('not a number', recorded)).toEqual(recorded)
  })
})
