import { parseIdCard } from './idCard'

/**
 * Self-service tests (自助开单, spec §2 /palm/selfService): the tests a patient may order without a doctor's visit,
 * and who may order each. Shared by the app (what is shown disabled, and why) and the server (which checks every
 * choice again before the HIS makes a bill). Codes are the hospital's price catalogue codes (价格公示); the name and
 * price come from the catalogue, the notes from here.
 */
export interface SelfServiceRule {
  /** The catalogue code of the test. */
  code: string
  /** What the patient should know before coming (空腹 ...). */
  notes: string
  /** 1 men only, 2 women only. */
  sex?: 1 | 2
  /** Full years, inclusive. */
  minAge?: number
  maxAge?: number
}

/** The people a self-service test is for: sex (1 male, 2 female) and birth date (YYYY-MM-DD). */
export interface SelfServicePerson {
  sex: 1 | 2
  birthday: string
}

const FASTING = '需空腹8小时以上，建议上午8:00-10:00抽血'

/** The tests the hospital allows without a doctor's visit, in the order they are shown. */
export const SELF_SERVICE_RULES: readonly SelfServiceRule[] = [
  { code: 'JY0001', notes: '无需空腹' },
  { code: 'JY0005', notes: '留取晨起中段尿，女性避开月经期' },
  { code: 'JY0007', notes: FASTING },
  { code: 'JY0009', notes: `${FASTING}，前一天清淡饮食、勿饮酒` },
  { code: 'JY0010', notes: FASTING },
  { code: 'JY0011', notes: '无需空腹' },
  { code: 'JY0018', notes: '无需空腹，正在服用甲状腺药物者请告知采血人员' },
  { code: 'JY0019', notes: '无需空腹' },
  { code: 'JY0027', notes: FASTING },
  { code: 'JY0032', notes: '无需空腹' },
  // 妊娠试验: women of childbearing age
  { code: 'JY0034', notes: '妊娠试验，停经7天以上检测更准确', sex: 2, minAge: 18, maxAge: 55 },
  // PSA: men over 45 (prostate screening)
  { code: 'JY0024', notes: '检查前48小时内避免剧烈运动和性生活', sex: 1, minAge: 45 },
  { code: 'JY0025', notes: '避开月经期', sex: 2, minAge: 18 },
]

/** At most this many tests in one self-service bill. */
export const MAX_SELF_SERVICE_ITEMS = SELF_SERVICE_RULES.length

export const ruleOf = (code: string): SelfServiceRule | undefined => SELF_SERVICE_RULES.find((r) => r.code === code)

/** Full years between a birth date and a date (both YYYY-MM-DD): the calendar's, no time zone involved. */
export function ageOn(birthday: string, today: string): number {
  const [by, bm, bd] = birthday.split('-').map(Number) as [number, number, number]
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number]
  let age = ty - by
  if (tm < bm || (tm === bm && td < bd)) age -= 1
  return Math.max(0, age)
}

/** The rule's audience in words: 仅限女性, 仅限45岁及以上, 仅限18至55岁, 仅限45岁及以上男性 ... */
export function audienceOf(rule: SelfServiceRule): string {
  const { minAge, maxAge } = rule
  let ages = ''
  if (minAge !== undefined && maxAge !== undefined) ages = `${minAge}至${maxAge}岁`
  else if (minAge !== undefined) ages = `${minAge}岁及以上`
  else if (maxAge !== undefined) ages = `${maxAge}岁及以下`
  const who = rule.sex === 1 ? '男性' : rule.sex === 2 ? '女性' : ''
  return ages || who ? `仅限${ages}${who}` : ''
}

/**
 * Why this person may not order this test without a doctor (null: they may). A wrong sex says only the sex
 * (仅限女性); a wrong age says the ages (仅限45岁及以上), so the patient reads the one reason that applies.
 */
export function selfServiceRefusal(rule: SelfServiceRule, person: SelfServicePerson, today: string): string | null {
  if (rule.sex && person.sex !== rule.sex) return rule.sex === 1 ? '仅限男性' : '仅限女性'
  const age = ageOn(person.birthday, today)
  const tooYoung = rule.minAge !== undefined && age < rule.minAge
  const tooOld = rule.maxAge !== undefined && age > rule.maxAge
  if (tooYoung || tooOld) return audienceOf({ code: rule.code, notes: '', minAge: rule.minAge, maxAge: rule.maxAge })
  return null
}

/**
 * A whole choice checked: the codes as given once each, or the first reason to refuse it (an unknown code, an
 * empty or too long choice, a test this person may not order, with its name when `nameOf` knows it).
 */
export function checkSelfServiceChoice(
  codes: readonly string[],
  person: SelfServicePerson,
  today: string,
  nameOf: (code: string) => string = (code) => code,
): { ok: true; codes: string[] } | { ok: false; reason: string } {
  const unique = [...new Set(codes)]
  if (!unique.length) return { ok: false, reason: '请选择检验项目' }
  if (unique.length > MAX_SELF_SERVICE_ITEMS) return { ok: false, reason: `一次最多选择${MAX_SELF_SERVICE_ITEMS}项` }
  for (const code of unique) {
    const rule = ruleOf(code)
    if (!rule) return { ok: false, reason: `${nameOf(code)}不能自助开单` }
    const refusal = selfServiceRefusal(rule, person, today)
    if (refusal) return { ok: false, reason: `${nameOf(code)}${refusal}，不能为该就诊人开单` }
  }
  return { ok: true, codes: unique }
}

/** Sex and birth date of a patient: from the identity number when there is one (GB 11643), else as recorded. */
export function selfServicePersonOf(idCard: string | null | undefined, recorded: SelfServicePerson): SelfServicePerson {
  const info = idCard ? parseIdCard(idCard) : null
  return info ? { sex: info.sex, birthday: info.birthday } : recorded
}
