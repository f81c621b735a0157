import type {
  AboType,
  BabyBloodQuery,
  BabyBloodResult,
  BloodChance,
  CheckCategory,
  HbCategory,
  HbMarker,
  HbSurveyQuery,
  HbSurveyResult,
  MarkerResult,
  RhType,
} from '../../types/api/healthTools'

/**
 * The rules of the health tools (spec §2 /internet/hepatitisTest, /internet/babyBlood; §7 healthTools), used by the
 * server's answers and by the pages' own words: pure, no Taro. Every tool page and answer carries the disclaimer.
 */
export const HEALTH_TOOL_DISCLAIMER = '结果仅供参考，不能替代医生诊断'

export const RESULT_WORDS: Record<MarkerResult, string> = { positive: '阳性（+）', negative: '阴性（-）' }

// ---------- 乙肝两对半 ----------

/** The five markers in the order lab sheets list them, with the names a patient finds there. */
export const HB_MARKERS: { key: HbMarker; name: string; abbr: string }[] = [
  { key: 'HBsAg', name: '乙肝表面抗原', abbr: 'HBsAg' },
  { key: 'HBsAb', name: '乙肝表面抗体', abbr: '抗-HBs' },
  { key: 'HBeAg', name: '乙肝e抗原', abbr: 'HBeAg' },
  { key: 'HBeAb', name: '乙肝e抗体', abbr: '抗-HBe' },
  { key: 'HBcAb', name: '乙肝核心抗体', abbr: '抗-HBc' },
]

export const HB_CATEGORY_TEXT: Record<HbCategory, string> = {
  susceptible: '没有免疫力',
  immune: '有免疫力',
  past: '需进一步检查',
  infected: '乙肝病毒感染',
  rare: '少见模式',
}

export const HB_RARE_TEXT = '少见模式，建议复查并咨询医生'

const INFECTED_ADVICE = [
  '请到感染科或肝病科就诊，检查乙肝病毒DNA（HBV DNA）、肝功能、甲胎蛋白和肝脏B超等，由医生判断是否需要抗病毒治疗。',
  '即使没有不舒服，也要按医生要求定期复查；不要自行服用“保肝药”或偏方，正在服用的抗病毒药不要自行停药。',
  '戒酒，避免过度劳累。',
  '乙肝主要通过血液、母婴和性接触传播，一起吃饭、工作、学习等日常接触一般不会传染。家人可检查乙肝两对半，没有免疫力的应接种乙肝疫苗。',
  '如果准备怀孕或已经怀孕，请告诉产科医生；宝宝出生后应在12小时内尽早接种乙肝疫苗和乙肝免疫球蛋白。',
]

const PAST_ADVICE = [
  '建议到感染科或肝病科就诊，检查乙肝病毒DNA（HBV DNA）和肝功能，明确体内是否仍有病毒。',
  '可按医生建议复查乙肝两对半，观察表面抗体（抗-HBs）是否出现；是否需要接种乙肝疫苗，请由医生根据检查结果决定。',
  '以后如需化疗、使用免疫抑制剂或长期使用激素，请提前告诉医生曾感染过乙肝病毒。',
]

const RECOVERED_ADVICE = [
  '一般不需要治疗，也不需要再接种乙肝疫苗。',
  '以后如需化疗、使用免疫抑制剂或长期使用激素，请提前告诉医生曾感染过乙肝病毒：极少数人在这些治疗中病毒会重新活跃。',
]

const RARE_ADVICE = [
  '这种组合在临床上不常见，可能与检测误差、不同检测方法、病毒变异或感染所处的阶段有关，不能仅凭这一结果下结论。',
  '建议到医院复查乙肝两对半，最好同时检查乙肝病毒DNA（HBV DNA）和肝功能，并带上检验单到感染科或肝病科咨询医生。',
]

interface HbPattern {
  title: string
  category: Exclude<HbCategory, 'rare'>
  meaning: string
  advice: string[]
}

/**
 * The well-known patterns of 乙肝两对半, keyed by the five results in HB_MARKERS order (1 positive, 0 negative). The
 * other 20 of the 32 combinations are rare: `hbPattern` answers them with HB_RARE_TEXT.
 */
export const HB_PATTERNS: Record<string, HbPattern> = {
  '00000': {
    title: '五项全阴',
    category: 'susceptible',
    meaning: '目前没有乙肝病毒感染的迹象，但也没有保护性的表面抗体（抗-HBs），对乙肝病毒没有免疫力，属于易感人群。',
    advice: [
      '建议接种乙肝疫苗，成人一般按第0、1、6个月共接种3针。',
      '接种完成后是否需要复查抗体，可咨询医生。',
      '不与他人共用牙刷、剃须刀等可能沾到血液的物品。',
    ],
  },
  '01000': {
    title: '表面抗体阳性',
    category: 'immune',
    meaning: '只有表面抗体（抗-HBs）阳性，通常是接种乙肝疫苗后产生了保护性抗体，也可能是以前感染过乙肝病毒并已痊愈。一般认为对乙肝病毒有免疫力。',
    advice: [
      '表面抗体是保护性抗体，不需要治疗。',
      '抗体水平会随时间下降；如检验单有抗-HBs定量结果且低于10 mIU/mL，可咨询医生是否需要加强接种。',
    ],
  },
  '01001': {
    title: '既往感染，已康复',
    category: 'immune',
    meaning: '表面抗体（抗-HBs）和核心抗体（抗-HBc）阳性，提示以前感染过乙肝病毒，现已康复，并产生了保护性抗体，一般对乙肝病毒有免疫力。',
    advice: RECOVERED_ADVICE,
  },
  '01011': {
    title: '既往感染，已康复',
    category: 'immune',
    meaning: '表面抗体（抗-HBs）、e抗体（抗-HBe）和核心抗体（抗-HBc）阳性，提示以前感染过乙肝病毒，现处于康复期，已产生保护性抗体，一般对乙肝病毒有免疫力。',
    advice: RECOVERED_ADVICE,
  },
  '00001': {
    title: '单纯核心抗体阳性',
    category: 'past',
    meaning:
      '只有核心抗体（抗-HBc）阳性。多见于以前感染过乙肝病毒、表面抗体已降到测不出；也可能处在急性感染恢复期的“窗口期”（表面抗原已消失，表面抗体还没出现）；少数为隐匿性乙肝病毒感染。',
    advice: PAST_ADVICE,
  },
  '00011': {
    title: 'e抗体、核心抗体阳性',
    category: 'past',
    meaning: 'e抗体（抗-HBe）和核心抗体（抗-HBc）阳性、表面抗原阴性。多提示以前感染过乙肝病毒，或处在急性感染恢复期的“窗口期”（表面抗原已消失，保护性的表面抗体还没出现）。',
    advice: PAST_ADVICE,
  },
  '10101': {
    title: '大三阳',
    category: 'infected',
    meaning: '表面抗原（HBsAg）、e抗原（HBeAg）和核心抗体（抗-HBc）阳性，俗称“大三阳”。提示感染了乙肝病毒，且病毒复制通常比较活跃，传染性较强。是否需要治疗，要结合病毒量和肝功能等检查由医生判断。',
    advice: INFECTED_ADVICE,
  },
  '10011': {
    title: '小三阳',
    category: 'infected',
    meaning: '表面抗原（HBsAg）、e抗体（抗-HBe）和核心抗体（抗-HBc）阳性，俗称“小三阳”。提示感染了乙肝病毒。多数人病毒复制较弱，但也有人病毒量仍较高、肝脏仍有炎症，“小三阳”不等于病情轻，需要进一步检查。',
    advice: INFECTED_ADVICE,
  },
  '10001': {
    title: '表面抗原、核心抗体阳性',
    category: 'infected',
    meaning: '表面抗原（HBsAg）和核心抗体（抗-HBc）阳性，提示感染了乙肝病毒，可能是急性感染，也可能是慢性感染。需要进一步检查病毒量和肝功能。',
    advice: INFECTED_ADVICE,
  },
  '10000': {
    title: '单纯表面抗原阳性',
    category: 'infected',
    meaning: '只有表面抗原（HBsAg）阳性，多见于急性乙肝病毒感染的早期，也可能是慢性感染；接种乙肝疫苗后的短时间内偶尔也会出现一过性弱阳性。需要复查并进一步检查。',
    advice: INFECTED_ADVICE,
  },
  '10100': {
    title: '急性感染早期',
    category: 'infected',
    meaning: '表面抗原（HBsAg）和e抗原（HBeAg）阳性、核心抗体阴性，多见于急性乙肝病毒感染的早期，病毒复制活跃，传染性强。',
    advice: INFECTED_ADVICE,
  },
  '10111': {
    title: '表面抗原、e抗原、e抗体、核心抗体阳性',
    category: 'infected',
    meaning: '表面抗原、e抗原、e抗体和核心抗体同时阳性，提示感染了乙肝病毒，可能正处在e抗原转为e抗体的过程中（急性感染趋向恢复，或慢性感染的转换期）。',
    advice: INFECTED_ADVICE,
  },
}

/** The pattern's key: the five results in HB_MARKERS order, 1 for positive. */
export const hbPatternKey = (q: HbSurveyQuery) => HB_MARKERS.map((m) => (q[m.key] === 'positive' ? '1' : '0')).join('')

/**
 * What a combination of the five markers means (the standard interpretation of 乙肝两对半): one of the well-known
 * patterns, or for any other of the 32 combinations 少见模式 with the advice to test again and see a doctor.
 */
export function hbPattern(q: HbSurveyQuery): HbSurveyResult {
  const markers = HB_MARKERS.map((m) => ({ ...m, result: q[m.key], resultText: RESULT_WORDS[q[m.key]] }))
  const known = HB_PATTERNS[hbPatternKey(q)]
  if (known) return { markers, ...known, categoryText: HB_CATEGORY_TEXT[known.category], rare: false, disclaimer: HEALTH_TOOL_DISCLAIMER }
  const advice = q.HBsAg === 'positive' ? [...RARE_ADVICE, '表面抗原阳性提示可能存在乙肝病毒感染，查清之前请避免他人接触您的血液，不共用牙刷、剃须刀。'] : RARE_ADVICE
  return { markers, title: '少见模式', category: 'rare', categoryText: HB_CATEGORY_TEXT.rare, meaning: `${HB_RARE_TEXT}。`, advice, rare: true, disclaimer: HEALTH_TOOL_DISCLAIMER }
}

const isResult = (v: string | undefined): v is MarkerResult => v === 'positive' || v === 'negative'

/** The five results of an address's query (the result page's), or null when one is missing or not positive / negative. */
export function hbQueryOf(params: Partial<Record<string, string>>): HbSurveyQuery | null {
  const q: Partial<HbSurveyQuery> = {}
  for (const { key } of HB_MARKERS) {
    const v = params[key]
    if (!isResult(v)) return null
    q[key] = v
  }
  return q as HbSurveyQuery
}

/** The query that carries the five results (HBsAg=positive&HBsAb=negative…), in HB_MARKERS order. */
export const hbQueryString = (q: HbSurveyQuery) => HB_MARKERS.map((m) => `${m.key}=${q[m.key]}`).join('&')

// ---------- 宝宝血型 ----------

export const ABO_TYPES: AboType[] = ['A', 'B', 'O', 'AB']
export const RH_TYPES: RhType[] = ['positive', 'negative']
export const ABO_LABEL: Record<AboType, string> = { A: 'A型', B: 'B型', O: 'O型', AB: 'AB型' }
export const RH_LABEL: Record<RhType, string> = { positive: 'Rh阳性', negative: 'Rh阴性' }

type AboAllele = 'A' | 'B' | 'O'

/**
 * Which genotypes a parent of a known phenotype is assumed to have: the gene frequencies of a population under
 * Hardy–Weinberg proportions, or every genotype of the phenotype equally likely (the textbook Punnett square).
 */
export interface GeneModel {
  kind: 'population' | 'equal'
  /** ABO allele frequencies A (p), B (q), O (r), summing to 1. */
  abo: Record<AboAllele, number>
  /** The frequency of the Rh(D)-negative allele d. */
  d: number
}

/**
 * The model the tool uses: Chinese population frequencies, so that a type-A parent is AO far more often than AA
 * (about 85 %: O is the commonest allele in China) and an Rh-positive parent carries d only about 1 time in 9.
 * - ABO: p 0.211, q 0.208, r 0.584 from 23 million people in all provinces (Sun Y et al., Heliyon 2022;8:e10568),
 *   scaled to sum to 1.
 * - Rh: d 0.056, i.e. about 0.32 % of Han Chinese Rh(D)-negative (Shao CP et al., Chin J Med Genet 2011;28:29-32).
 * Frequencies differ by region and ethnic group; the page says the likelihoods are estimates.
 */
export const CHINESE_MODEL: GeneModel = {
  kind: 'population',
  abo: { A: 0.211 / 1.003, B: 0.208 / 1.003, O: 0.584 / 1.003 },
  d: 0.056,
}

/** Each genotype of the phenotype equally likely (AA:AO = 1:1, DD:Dd = 1:1): the classic table, for comparison. */
export const EQUAL_MODEL: GeneModel = { kind: 'equal', abo: { A: 1 / 3, B: 1 / 3, O: 1 / 3 }, d: 0.5 }

type Gametes<T extends string> = Partial<Record<T, number>>

/**
 * The alleles a parent of this ABO type passes on, with their chances: half of each allele of each genotype the
 * parent may have, weighted by how likely that genotype is. Under Hardy–Weinberg AA : AO = p² : 2pr, so the chance
 * of passing O is r / (p + 2r); with equal weights it is 1/4.
 */
export function aboGametes(type: AboType, model: GeneModel): Gametes<AboAllele> {
  if (type === 'O') return { O: 1 }
  if (type === 'AB') return { A: 0.5, B: 0.5 }
  const own = model.abo[type]
  const r = model.abo.O
  const passO = model.kind === 'equal' ? 0.25 : r / (own + 2 * r)
  return { [type]: 1 - passO, O: passO }
}

/** Likewise for Rh(D): a negative parent is dd; a positive one DD or Dd, passing d with chance d / (1 + d) (equal: 1/4). */
export function rhGametes(type: RhType, model: GeneModel): Gametes<'D' | 'd'> {
  if (type === 'negative') return { d: 1 }
  const passD = model.kind === 'equal' ? 0.25 : model.d / (1 + model.d)
  return { D: 1 - passD, d: passD }
}

const aboOf = (a: AboAllele, b: AboAllele): AboType => {
  if (a === b) return a
  if (a === 'O') return b
  if (b === 'O') return a
  return 'AB'
}

/** The child's chance of each type: every pair of one allele from each parent. */
function combine<A extends string, T extends string>(father: Gametes<A>, mother: Gametes<A>, typeOf: (a: A, b: A) => T, types: T[]): Record<T, number> {
  const out = Object.fromEntries(types.map((t) => [t, 0])) as Record<T, number>
  for (const [a, pa] of Object.entries(father) as [A, number][])
    for (const [b, pb] of Object.entries(mother) as [A, number][]) out[typeOf(a, b)] += pa * pb
  return out
}

/** The child's ABO types with their chances (Mendelian inheritance over the parents' possible genotypes). */
export function childAboChances(father: AboType, mother: AboType, model: GeneModel = CHINESE_MODEL): Record<AboType, number> {
  return combine(aboGametes(father, model), aboGametes(mother, model), aboOf, ABO_TYPES)
}

/** The child's Rh(D) types with their chances: D is dominant. */
export function childRhChances(father: RhType, mother: RhType, model: GeneModel = CHINESE_MODEL): Record<RhType, number> {
  return combine(rhGametes(father, model), rhGametes(mother, model), (a, b) => (a === 'D' || b === 'D' ? 'positive' : 'negative'), RH_TYPES)
}

/** Below this a chance is rounding error, not a possibility. */
const NEVER = 1e-9

/**
 * A chance as the page shows it: 100%, 不可能, an exact share as it is (50%), else about a whole percent (约82%), one
 * decimal under 1 % (约0.3%), <0.1% below that, and >99% for a chance that is not certain but would round to 100 %.
 */
export function percentText(p: number): string {
  if (p < NEVER) return '不可能'
  if (p > 1 - NEVER) return '100%'
  const percent = p * 100
  // an exact share (AB × O: A 50 %) is said without 约
  if (Math.abs(percent - Math.round(percent)) < 1e-6) return `${Math.round(percent)}%`
  if (percent < 0.1) return '<0.1%'
  if (percent < 1) return `约${percent.toFixed(1)}%`
  if (percent > 99) return '>99%'
  return `约${Math.round(percent)}%`
}

const chances = <T extends string>(odds: Record<T, number>, types: T[], label: Record<T, string>): BloodChance<T>[] =>
  types.map((type) => ({ type, label: label[type], probability: odds[type], percentText: percentText(odds[type]), possible: odds[type] >= NEVER }))

export const BLOOD_ASSUMPTION =
  '概率为估算：按中国人群的血型基因频率（ABO血型中O基因最常见；约0.3%的人为Rh阴性），推算父母各自携带隐性O基因或Rh阴性基因的可能。父母的实际基因型不同，孩子的实际比例也会不同。'
export const BLOOD_EXCEPTION = '极少数情况（如孟买血型、顺式AB型、血型亚型或检测误差）不符合上述规律，血型不能作为判断亲子关系的依据。'
export const RH_PREGNANCY_NOTE = 'Rh阴性的妈妈怀Rh阳性的宝宝时，可能发生新生儿溶血。请在孕期告诉产科医生您是Rh阴性，按医生建议检查和预防（如注射抗D免疫球蛋白）。'
export const ABO_NEWBORN_NOTE = '妈妈为O型、宝宝为A型或B型时，少数新生儿可能出现ABO溶血，多数较轻；宝宝出生后如黄疸出现早或较重，请及时就医。'

/** The child's possible ABO and Rh types with their likelihoods, and what these parents should know. */
export function babyBloodTypes(q: BabyBloodQuery, model: GeneModel = CHINESE_MODEL): BabyBloodResult {
  const abo = childAboChances(q.fatherAbo, q.motherAbo, model)
  const rh = childRhChances(q.fatherRh, q.motherRh, model)
  const notes = [BLOOD_EXCEPTION]
  if (q.motherRh === 'negative' && rh.positive >= NEVER) notes.push(RH_PREGNANCY_NOTE)
  if (q.motherAbo === 'O' && abo.A + abo.B >= NEVER) notes.push(ABO_NEWBORN_NOTE)
  return {
    abo: chances(abo, ABO_TYPES, ABO_LABEL),
    rh: chances(rh, RH_TYPES, RH_LABEL),
    assumption: BLOOD_ASSUMPTION,
    notes,
    disclaimer: HEALTH_TOOL_DISCLAIMER,
  }
}

// ---------- 化验单解读 ----------

/**
 * The categories with the items a search matches: by name (白细胞), by abbreviation in any case (alt → ALT), or by
 * the category's name (肝功能: all of its items). Categories left empty are left out; an empty search keeps all.
 */
export function filterCheckItems(categories: CheckCategory[], search: string): CheckCategory[] {
  const k = search.trim().toLowerCase()
  if (!k) return categories
  return categories
    .map((c) => (c.name.includes(k) ? c : { ...c, items: c.items.filter((i) => i.name.includes(k) || i.abbr.toLowerCase().includes(k)) }))
    .filter((c) => c.items.length > 0)
}
