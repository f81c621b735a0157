/**
 * The health tools of the internet hospital (spec §1, §2 /internet/hepatitisTest, /internet/babyBlood,
 * /internet/inspectRead; §7 Tools and misc, `GET /dld-hospital/healthTools/...`): public reading aids, no personal data.
 * Every answer carries the same disclaimer: the tools do not replace a doctor.
 */

/** One marker's result as the patient reads it off the lab sheet. */
export type MarkerResult = 'positive' | 'negative'

/** The five hepatitis B markers (乙肝两对半), in the order a lab sheet lists them. */
export type HbMarker = 'HBsAg' | 'HBsAb' | 'HBeAg' | 'HBeAb' | 'HBcAb'

/** The query of `GET /dld-hospital/healthTools/hbSelfSurvey`: each marker positive or negative. */
export type HbSurveyQuery = Record<HbMarker, MarkerResult>

/**
 * What a pattern says, in a word: no immunity (易感), protected (有免疫力), an earlier infection or one on its way out
 * (需进一步检查), an infection now (乙肝病毒感染), or a combination that is rarely seen (少见模式).
 */
export type HbCategory = 'susceptible' | 'immune' | 'past' | 'infected' | 'rare'

export interface HbMarkerLine {
  key: HbMarker
  /** 乙肝表面抗原 … */
  name: string
  /** HBsAg, 抗-HBs … as lab sheets print them. */
  abbr: string
  result: MarkerResult
  /** 阳性（+） / 阴性（-）: the result in words, never by colour alone. */
  resultText: string
}

/** The answer of `GET /dld-hospital/healthTools/hbSelfSurvey`. */
export interface HbSurveyResult {
  markers: HbMarkerLine[]
  /** The pattern's name: 大三阳, 小三阳, 五项全阴 … or 少见模式. */
  title: string
  category: HbCategory
  /** The category in words: 乙肝病毒感染, 有免疫力 … */
  categoryText: string
  /** What the pattern usually means, in plain words. */
  meaning: string
  /** What to do next, one step a line. */
  advice: string[]
  rare: boolean
  disclaimer: string
}

export type AboType = 'A' | 'B' | 'O' | 'AB'
export type RhType = 'positive' | 'negative'

/** The query of `GET /dld-hospital/healthTools/babyBlood`: both parents' ABO and Rh(D) types. */
export interface BabyBloodQuery {
  fatherAbo: AboType
  fatherRh: RhType
  motherAbo: AboType
  motherRh: RhType
}

/** One blood type the child may have, with its likelihood. */
export interface BloodChance<T extends string> {
  type: T
  /** A型, Rh阳性 … */
  label: string
  /** 0 to 1. */
  probability: number
  /** The likelihood as shown: 100%, 约25%, 约0.3%, <0.1%, or 不可能. */
  percentText: string
  possible: boolean
}

/** The answer of `GET /dld-hospital/healthTools/babyBlood`: every ABO and Rh type, possible or not, in a fixed order. */
export interface BabyBloodResult {
  abo: BloodChance<AboType>[]
  rh: BloodChance<RhType>[]
  /** How the likelihoods were estimated (which genotypes the parents are assumed to have). */
  assumption: string
  /** What else to know for these parents (exceptions to the rules, haemolytic disease of the newborn). */
  notes: string[]
  disclaimer: string
}

/** One examination item of the list: a typical adult reference range, as printed on a lab sheet. */
export interface CheckItem {
  /** A short stable code: 'alt', 'hgb' … */
  id: string
  /** 丙氨酸氨基转移酶 … */
  name: string
  /** ALT … */
  abbr: string
  /** U/L, g/L …; empty for a qualitative item (尿蛋白: 阴性). */
  unit: string
  /** 男 9–50；女 7–40 … */
  reference: string
  /** Read as 阴性 / 阳性 (urine protein …) rather than as a number: its "high" is a positive result. */
  qualitative: boolean
}

export interface CheckCategory {
  /** 血常规, 肝功能 … */
  name: string
  items: CheckItem[]
}

/** The answer of `GET /dld-hospital/healthTools/checklistitems`. */
export interface CheckItemList {
  categories: CheckCategory[]
  /** Reference ranges differ between hospitals: the patient's own sheet decides. */
  note: string
  disclaimer: string
}

/** The answer of `GET /dld-hospital/healthTools/itemcontent?id=`: one item explained in plain words. */
export interface CheckItemContent extends CheckItem {
  category: string
  /** What it measures. */
  measures: string
  /** What a high (or, for a qualitative item, a positive) value may mean. */
  high: string
  /** What a low value may mean; empty for a qualitative item (negative is normal). */
  low: string
  /** What to do about a value outside the range. */
  advice: string
  note: string
  disclaimer: string
}
