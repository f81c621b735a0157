import {
  ABO_TYPES,
  CHINESE_MODEL,
  EQUAL_MODEL,
  HB_PATTERNS,
  HB_RARE_TEXT,
  babyBloodTypes,
  childAboChances,
  childRhChances,
  filterCheckItems,
  hbPattern,
  hbQueryOf,
  hbQueryString,
  percentText,
} from '../../src/utils/healthTools'
import type { AboType, CheckCategory, HbSurveyQuery } from '../../types/api/healthTools'

const MARKERS = ['HBsAg', 'HBsAb', 'HBeAg', 'HBeAb', 'HBcAb'] as const
/** '10101' → HBsAg, HBeAg and 抗-HBc positive. */
const hb = (pattern: string) => Object.fromEntries(MARKERS.map((m, i) => [m, pattern[i] === '1' ? 'positive' : 'negative'])) as HbSurveyQuery
const ALL_32 = Array.from({ length: 32 }, (_, n) => n.toString(2).padStart(5, '0'))

describe('乙肝两对半 (hbPattern)', () => {
  it.each([
    ['10101', '大三阳', 'infected'],
    ['10011', '小三阳', 'infected'],
    ['10001', '表面抗原、核心抗体阳性', 'infected'],
    ['10000', '单纯表面抗原阳性', 'infected'],
    ['10100', '急性感染早期', 'infected'],
    ['10111', '表面抗原、e抗原、e抗体、核心抗体阳性', 'infected'],
    ['00000', '五项全阴', 'susceptible'],
    ['01000', '表面抗体阳性', 'immune'],
    ['01001', '既往感染，已康复', 'immune'],
    ['01011', '既往感染，已康复', 'immune'],
    ['00001', '单纯核心抗体阳性', 'past'],
    ['00011', 'e抗体、核心抗体阳性', 'past'],
  ])('%s → %s (%s)', (pattern, title, category) => {
    const r = hbPattern(hb(pattern))
    expect([r.title, r.category, r.rare]).toEqual([title, category, false])
    expect(r.advice.length).toBeGreaterThan(0)
    expect(r.disclaimer).toBe('结果仅供参考，不能替代医生诊断')
  })

  it('the window period and the vaccination are named where they belong', () => {
    expect(hbPattern(hb('00001')).meaning).toContain('窗口期')
    expect(hbPattern(hb('00011')).meaning).toContain('窗口期')
    expect(hbPattern(hb('01000')).meaning).toContain('接种乙肝疫苗')
    expect(hbPattern(hb('00000')).advice[0]).toContain('建议接种乙肝疫苗')
  })

  it('answers all 32 combinations: 12 well-known, the other 20 少见模式 with the advice to test again', () => {
    const results = ALL_32.map((p) => hbPattern(hb(p)))
    expect(Object.keys(HB_PATTERNS)).toHaveLength(12)
    expect(results.filter((r) => !r.rare)).toHaveLength(12)
    for (const r of results.filter((x) => x.rare)) {
      expect(r.title).toBe('少见模式')
      expect(r.category).toBe('rare')
      expect(r.meaning).toBe(`${HB_RARE_TEXT}。`)
      expect(r.advice.join('')).toContain('复查')
    }
    expect(HB_RARE_TEXT).toBe('少见模式，建议复查并咨询医生')
    // a rare pattern with HBsAg positive also says to guard against blood contact
    expect(hbPattern(hb('11101')).advice.join('')).toContain('表面抗原阳性')
    expect(hbPattern(hb('01100')).advice.join('')).not.toContain('表面抗原阳性')
  })

  it('writes each result in words with its sign, in lab-sheet order', () => {
    expect(hbPattern(hb('10011')).markers.map((m) => `${m.abbr} ${m.resultText}`)).toEqual([
      'HBsAg 阳性（+）',
      '抗-HBs 阴性（-）',
      'HBeAg 阴性（-）',
      '抗-HBe 阳性（+）',
      '抗-HBc 阳性（+）',
    ])
  })

  it('reads the five results from an address and writes them back', () => {
    const q = hb('10101')
    expect(hbQueryString(q)).toBe('HBsAg=positive&HBsAb=negative&HBeAg=positive&HBeAb=negative&HBcAb=positive')
    expect(hbQueryOf({ ...q, $taroTimestamp: '1' })).toEqual(q)
    expect(hbQueryOf({ ...q, HBeAg: undefined })).toBeNull()
    expect(hbQueryOf({ ...q, HBeAg: '阳性' })).toBeNull()
    expect(hbQueryOf({})).toBeNull()
  })
})

/** The classic Punnett table with every genotype of a phenotype equally likely (AA:AO = DD:Dd = 1:1). */
const EQUAL_TABLE: [AboType, AboType, Partial<Record<AboType, number>>][] = [
  ['O', 'O', { O: 1 }],
  ['A', 'O', { A: 0.75, O: 0.25 }],
  ['B', 'O', { B: 0.75, O: 0.25 }],
  ['A', 'A', { A: 0.9375, O: 0.0625 }],
  ['A', 'B', { A: 0.1875, B: 0.1875, O: 0.0625, AB: 0.5625 }],
  ['AB', 'O', { A: 0.5, B: 0.5 }],
  ['AB', 'A', { A: 0.5, B: 0.125, AB: 0.375 }],
  ['AB', 'AB', { A: 0.25, B: 0.25, AB: 0.5 }],
]

const full = (share: Partial<Record<AboType, number>>) => Object.fromEntries(ABO_TYPES.map((t) => [t, share[t] ?? 0]))
const close = (actual: Record<string, number>, expected: Record<string, number>) => {
  for (const [k, v] of Object.entries(expected)) expect(actual[k]).toBeCloseTo(v, 10)
}

describe('宝宝血型: ABO by Mendelian inheritance', () => {
  it.each(EQUAL_TABLE)('equal weights: %s × %s', (father, mother, share) => {
    close(childAboChances(father, mother, EQUAL_MODEL), full(share))
    close(childAboChances(mother, father, EQUAL_MODEL), full(share))
  })

  it('the cases that need no assumption are the same under both models: O × O → O; AB × O → A, B; AB × AB', () => {
    for (const model of [CHINESE_MODEL, EQUAL_MODEL]) {
      expect(childAboChances('O', 'O', model)).toEqual({ A: 0, B: 0, O: 1, AB: 0 })
      expect(childAboChances('AB', 'O', model)).toEqual({ A: 0.5, B: 0.5, O: 0, AB: 0 })
      expect(childAboChances('AB', 'AB', model)).toEqual({ A: 0.25, B: 0.25, O: 0, AB: 0.5 })
    }
  })

  it('Chinese frequencies: a type-A parent passes O with chance r / (p + 2r), about 42 %', () => {
    const { A: p, B: q, O: r } = CHINESE_MODEL.abo
    expect(p + q + r).toBeCloseTo(1, 12)
    const passO = r / (p + 2 * r)
    expect(passO).toBeCloseTo(0.4235, 3)
    close(childAboChances('A', 'O'), { A: 1 - passO, O: passO, B: 0, AB: 0 })
    close(childAboChances('A', 'A'), { A: 1 - passO ** 2, O: passO ** 2, B: 0, AB: 0 })
    const passOfromB = r / (q + 2 * r)
    close(childAboChances('A', 'B'), { O: passO * passOfromB, AB: (1 - passO) * (1 - passOfromB), A: (1 - passO) * passOfromB, B: passO * (1 - passOfromB) })
  })

  it('every pair of parents: the chances add up to 1 and do not depend on which parent is which', () => {
    for (const model of [CHINESE_MODEL, EQUAL_MODEL])
      for (const f of ABO_TYPES)
        for (const m of ABO_TYPES) {
          const odds = childAboChances(f, m, model)
          expect(Object.values(odds).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12)
          close(childAboChances(m, f, model), odds)
        }
  })

  it('impossible types stay impossible: no O child of an AB parent, no AB child of an O parent', () => {
    for (const other of ABO_TYPES) {
      expect(childAboChances('AB', other).O).toBe(0)
      expect(childAboChances('O', other).AB).toBe(0)
    }
  })
})

describe('宝宝血型: Rh(D)', () => {
  it('Rh- × Rh- → Rh- 100 % under any model', () => {
    expect(childRhChances('negative', 'negative')).toEqual({ positive: 0, negative: 1 })
    expect(childRhChances('negative', 'negative', EQUAL_MODEL)).toEqual({ positive: 0, negative: 1 })
  })

  it('equal weights: Rh+ × Rh- → Rh- 25 %; Rh+ × Rh+ → Rh- 1/16', () => {
    close(childRhChances('positive', 'negative', EQUAL_MODEL), { positive: 0.75, negative: 0.25 })
    close(childRhChances('positive', 'positive', EQUAL_MODEL), { positive: 0.9375, negative: 0.0625 })
  })

  it('Chinese frequencies (d 0.056): an Rh+ parent passes d with chance d / (1 + d), about 5.3 %', () => {
    const passD = CHINESE_MODEL.d / (1 + CHINESE_MODEL.d)
    close(childRhChances('positive', 'negative'), { negative: passD, positive: 1 - passD })
    close(childRhChances('negative', 'positive'), { negative: passD, positive: 1 - passD })
    close(childRhChances('positive', 'positive'), { negative: passD ** 2, positive: 1 - passD ** 2 })
    expect(passD).toBeCloseTo(0.053, 3)
  })
})

describe('percentText', () => {
  it.each([
    [0, '不可能'],
    [1, '100%'],
    [0.5, '50%'],
    [0.25, '25%'],
    [0.0625, '约6%'],
    [0.8206, '约82%'],
    [0.0028, '约0.3%'],
    [0.0005, '<0.1%'],
    [0.9972, '>99%'],
  ])('%f → %s', (p, text) => {
    expect(percentText(p)).toBe(text)
  })
})

describe('babyBloodTypes', () => {
  it('lists every type in a fixed order, possible or not, with the assumption and the disclaimer', () => {
    const r = babyBloodTypes({ fatherAbo: 'O', fatherRh: 'negative', motherAbo: 'O', motherRh: 'negative' })
    expect(r.abo.map((c) => [c.label, c.percentText, c.possible])).toEqual([
      ['A型', '不可能', false],
      ['B型', '不可能', false],
      ['O型', '100%', true],
      ['AB型', '不可能', false],
    ])
    expect(r.rh.map((c) => [c.label, c.percentText])).toEqual([
      ['Rh阳性', '不可能'],
      ['Rh阴性', '100%'],
    ])
    expect(r.assumption).toContain('中国人群')
    expect(r.disclaimer).toBe('结果仅供参考，不能替代医生诊断')
    // nothing about 溶血 when the child cannot be Rh+ or A / B
    expect(r.notes).toHaveLength(1)
  })

  it('adds the Rh note for an Rh-negative mother whose child may be Rh+, and the ABO note for an O mother of a possible A or B child', () => {
    const rh = babyBloodTypes({ fatherAbo: 'O', fatherRh: 'positive', motherAbo: 'A', motherRh: 'negative' })
    expect(rh.notes.join('')).toContain('抗D免疫球蛋白')
    expect(rh.notes.join('')).not.toContain('ABO溶血')
    const abo = babyBloodTypes({ fatherAbo: 'A', fatherRh: 'negative', motherAbo: 'O', motherRh: 'positive' })
    expect(abo.notes.join('')).toContain('ABO溶血')
    expect(abo.notes.join('')).not.toContain('抗D')
  })
})

describe('filterCheckItems', () => {
  const item = (id: string, name: string, abbr: string) => ({ id, name, abbr, unit: 'U/L', reference: '1–2', qualitative: false })
  const LIST: CheckCategory[] = [
    { name: '肝功能', items: [item('alt', '丙氨酸氨基转移酶', 'ALT'), item('ast', '天门冬氨酸氨基转移酶', 'AST')] },
    { name: '血常规', items: [item('wbc', '白细胞计数', 'WBC')] },
  ]
  const ids = (c: CheckCategory[]) => c.flatMap((x) => x.items.map((i) => i.id))

  it('keeps all for an empty search; matches the name, the abbreviation in any case, or the category', () => {
    expect(filterCheckItems(LIST, '  ')).toBe(LIST)
    expect(ids(filterCheckItems(LIST, 'alt'))).toEqual(['alt'])
    expect(ids(filterCheckItems(LIST, '白细胞'))).toEqual(['wbc'])
    expect(ids(filterCheckItems(LIST, '肝功能'))).toEqual(['alt', 'ast'])
    expect(ids(filterCheckItems(LIST, '氨基转移酶'))).toEqual(['alt', 'ast'])
    expect(filterCheckItems(LIST, '甲状腺')).toEqual([])
  })
})
