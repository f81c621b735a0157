/**
 * The doctor AI agent's rules (智能导诊, spec §1 Palm service, §2 /palm/ds/index): which of the hospital's departments
 * a complaint belongs to, red flags that send the patient to the emergency department, and the refusal of any
 * question about medicines or doses. The configured model (providers/ai.ts) is asked here and held to the same rules;
 * these built-in rules answer when there is no model, when it fails, and always for red flags and medicine questions.
 */
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm'
import { z } from 'zod'
import type { FastifyBaseLogger } from 'fastify'
import type { TriageAnswer, TriageDepartment, TriageSource } from '../../../types/api/triage'
import type { Db } from '../db'
import { departments, diseases, doctors } from '../db/schema'
import { badInput } from '../errors'
import { AiFailure, type AiProvider } from '../plugins/providers/ai'
import { hospitalByCode } from './hospital'
import { doctorAvatarUrl } from './register/catalogue'

// ---- fixed texts ----------------------------------------------------------------------------------------------------

export const DISCLAIMER = 'AI导诊仅供参考，不能替代医生的诊断和治疗'
export const MEDICINE_REFUSAL = '抱歉，我不能推荐药物或用药剂量。药物必须由医生面诊后开具处方，请不要自行用药。'
export const EMERGENCY_REPLY = '您描述的情况可能危及生命，请立即拨打120急救电话，或马上前往最近医院的急诊科就诊，不要等待预约挂号。'
export const NEED_DETAIL = '暂时无法根据您的描述推荐科室。请补充更多信息，例如哪里不舒服、持续了多久、有没有发热或疼痛等，我再为您推荐。'
export const UNKNOWN_HOSPITAL = '没有找到该医院，请重新选择医院'
export const EMPTY_TEXT = '请描述您哪里不舒服'
export const MAX_TEXT = 200
export const TEXT_TOO_LONG = `描述不能超过${MAX_TEXT}个字`

export const MAX_DEPARTMENTS = 3
export const DOCTORS_PER_DEPARTMENT = 3

// ---- what the rules work on -----------------------------------------------------------------------------------------

/** The hospital as the agent sees it: the departments patients book in (leaves of the tree) and its diseases. */
export interface TriageCatalogue {
  hospitalName: string
  departments: { id: number; name: string }[]
  diseases: { name: string; deptId: number }[]
}

/** An answer before the doctors are added: departments by id, each with why. */
export interface TriageSuggestion {
  reply: string
  emergency: boolean
  departments: { deptId: number; reason: string }[]
  source: TriageSource
}

// ---- the knowledge table --------------------------------------------------------------------------------------------

interface Rule {
  /** Words of a complaint as patients write them. */
  words: string[]
  /** The department's possible names, preferred first; the seed's names are among them. */
  depts: string[]
  /** What the department sees, for the reason shown to the patient. */
  scope: string
  /** Who the patient is (a child, a pregnancy) outweighs what hurts. */
  weight?: number
}

/** Common complaints and where they are seen; a hospital without any of a rule's departments skips the rule. */
const RULES: Rule[] = [
  {
    words: ['胸闷', '胸痛', '胸口痛', '心慌', '心悸', '心跳快', '心跳慢', '心律不齐', '早搏', '血压高', '高血压', '血压低'],
    depts: ['心血管内科', '心内科', '心脏内科'],
    scope: '心慌、胸闷、血压异常等心脏和血管问题',
  },
  {
    words: ['咳嗽', '咳痰', '发热', '发烧', '气喘', '喘息', '哮喘', '咯血', '痰中带血', '感冒', '流感'],
    depts: ['呼吸内科', '呼吸与危重症医学科', '呼吸科'],
    scope: '咳嗽、发热、气喘等呼吸系统问题',
  },
  {
    words: ['腹痛', '肚子痛', '肚子疼', '胃痛', '胃疼', '胃不舒服', '腹泻', '拉肚子', '便秘', '恶心', '呕吐', '反酸', '烧心', '腹胀', '便血', '黑便', '消化不良'],
    depts: ['消化内科', '消化科', '胃肠内科'],
    scope: '腹痛、腹泻、反酸等消化系统问题',
  },
  {
    words: ['头痛', '头疼', '头晕', '眩晕', '偏头痛', '手脚麻', '肢体麻木', '手抖', '记忆力下降'],
    depts: ['神经内科'],
    scope: '头痛、头晕、麻木等神经系统问题',
  },
  {
    words: ['皮疹', '瘙痒', '痒', '湿疹', '红疹', '风团', '荨麻疹', '痤疮', '长痘', '脱发'],
    depts: ['皮肤科', '皮肤性病科'],
    scope: '皮疹、瘙痒、痤疮等皮肤问题',
  },
  {
    words: ['尿频', '尿急', '尿痛', '血尿', '排尿困难', '尿不尽', '结石', '前列腺'],
    depts: ['泌尿外科', '泌尿科'],
    scope: '尿频、尿痛、结石等泌尿系统问题',
  },
  {
    words: ['骨折', '关节痛', '关节疼', '膝盖痛', '膝盖疼', '腰痛', '腰疼', '颈椎', '腰椎', '扭伤', '崴脚', '肩膀痛', '摔伤'],
    depts: ['骨科', '骨伤科', '中医骨伤科'],
    scope: '骨折、关节痛、颈腰椎等骨与关节问题',
  },
  {
    words: ['月经', '痛经', '白带', '阴道出血', '闭经', '更年期', '子宫', '卵巢'],
    depts: ['妇科', '妇产科', '中医妇科'],
    scope: '月经、白带异常等妇科问题',
    weight: 2,
  },
  {
    words: ['怀孕', '怀了', '孕期', '孕妇', '孕周', '早孕', '备孕', '产检', '妊娠', '胎动'],
    depts: ['产科', '妇产科'],
    scope: '孕期检查与妊娠相关问题',
    weight: 2,
  },
  {
    words: ['不孕', '不育', '试管婴儿'],
    depts: ['生殖医学科', '妇科', '妇产科'],
    scope: '不孕不育',
    weight: 3,
  },
  {
    words: ['小孩', '孩子', '儿童', '宝宝', '婴儿', '幼儿', '小儿', '儿子', '女儿'],
    depts: ['儿内科', '儿科', '小儿内科'],
    scope: '儿童的常见病、多发病',
    weight: 3,
  },
  {
    words: ['新生儿', '黄疸'],
    depts: ['新生儿科', '儿内科', '儿科'],
    scope: '新生儿黄疸等新生儿问题',
    weight: 3,
  },
  {
    words: ['眼睛', '眼', '视力', '看不清', '视物模糊', '近视'],
    depts: ['眼科'],
    scope: '视力下降、眼睛不适等眼部问题',
  },
  {
    words: ['牙疼', '牙痛', '牙龈', '牙', '口腔溃疡', '智齿', '嘴里溃疡'],
    depts: ['口腔科', '口腔医学科'],
    scope: '牙痛、牙龈、口腔溃疡等口腔问题',
  },
  {
    words: ['耳朵', '耳鸣', '耳', '鼻子', '鼻塞', '流鼻涕', '鼻', '咽喉', '喉咙', '嗓子', '咽痛', '扁桃体', '听力', '打鼾', '声音嘶哑'],
    depts: ['耳鼻咽喉头颈外科', '耳鼻喉科', '耳鼻咽喉科'],
    scope: '耳、鼻、咽喉的问题',
  },
  {
    words: ['血糖', '糖尿病', '甲状腺', '口渴', '多饮', '多尿', '消瘦', '肥胖', '痛风'],
    depts: ['内分泌科', '内分泌代谢科'],
    scope: '血糖、甲状腺等内分泌和代谢问题',
  },
  {
    words: ['浮肿', '水肿', '蛋白尿', '肌酐', '肾功能'],
    depts: ['肾内科', '肾脏内科'],
    scope: '水肿、蛋白尿、肾功能异常等肾脏问题',
  },
  {
    words: ['乳房', '乳腺', '疝气', '阑尾', '胆囊', '肿块', '包块', '痔疮', '肛门'],
    depts: ['普通外科', '普外科'],
    scope: '乳腺、甲状腺、胃肠肝胆及肿块等需外科诊治的问题',
  },
  {
    words: ['头部外伤', '脑外伤', '撞到头'],
    depts: ['神经外科'],
    scope: '颅脑外伤等需外科诊治的问题',
  },
  {
    words: ['吞咽困难', '食管'],
    depts: ['胸外科'],
    scope: '食管、肺部等需外科诊治的问题',
  },
  {
    words: ['失眠', '睡不着', '焦虑', '抑郁', '情绪低落', '心情不好', '压力大'],
    depts: ['精神心理科', '心理科', '精神科', '心理咨询科'],
    scope: '失眠、焦虑、情绪低落等心理问题',
  },
  {
    words: ['康复', '术后恢复', '复健'],
    depts: ['康复医学科', '康复科'],
    scope: '术后和疾病后的功能康复',
  },
  {
    words: ['针灸', '推拿', '面瘫'],
    depts: ['针灸推拿科'],
    scope: '针灸、推拿治疗颈肩腰腿痛及面瘫',
  },
  {
    words: ['中医', '调理', '体质'],
    depts: ['中医内科', '中医科', '治未病科'],
    scope: '中医辨证调理',
  },
]

/** When nothing matches, a general clinic sees anyone. */
const GENERAL_DEPTS = ['全科医学科', '全科', '全科医疗科', '普通内科', '综合内科']
const EMERGENCY_DEPTS = ['急诊科', '急诊医学科', '急诊']

/** Red flags: any one of these is an emergency. */
const RED_FLAGS = [
  '昏迷', '意识不清', '神志不清', '不省人事', '叫不醒', '晕厥', '晕倒', '昏倒',
  '大出血', '大量出血', '出血不止', '血流不止', '吐血', '呕血',
  '抽搐', '抽风', '惊厥',
  '自杀', '轻生', '不想活', '想死', '割腕', '服毒', '喝农药', '中毒', '窒息', '休克',
  '口角歪斜', '口眼歪斜', '半身不遂', '说话不清', '心跳停止', '没有呼吸', '溺水', '触电',
]
/** Chest pain is an emergency together with one of CHEST_WITH (a heart attack until shown otherwise). */
const CHEST = ['胸痛', '胸口痛', '胸口疼', '胸疼', '胸闷', '心绞痛']
const CHEST_WITH = ['呼吸困难', '喘不上气', '喘不过气', '憋气', '大汗', '冷汗', '出汗', '面色苍白']

/** A question about medicines or doses (spec: the agent never prescribes). */
const MEDICINE_WORDS = [
  '药', '剂量', '用量', '处方', '几片', '几粒', '毫克', '吃多少', '服用', '打针', '输液', '抗生素', '消炎',
  '布洛芬', '阿莫西林', '头孢', '青霉素', '阿司匹林', '对乙酰氨基酚', '胰岛素',
]

/** A dose in the patient's words ("吃了2片", "500mg"); "喝了500ml水" is not one. */
const DOSE_ASKED = /\d+(\.\d+)?\s*(mg|毫克|μg|微克|片|粒|丸)/i
/** A dose, in any text the agent would show: "500mg", "2片", "10 毫升" … */
export const DOSE_PATTERN = /\d+(\.\d+)?\s*(mg|毫克|μg|微克|g|克|片|粒|ml|毫升|丸|袋|支|iu|单位)/i
/** Advice to take or apply something: "服用…药", "吃点…片", "涂…膏" … */
const MEDICINE_ADVICE = /(服用|口服|吃点?|用点?|涂抹?|外用|注射|输液)[^，。,.；;！!？?\n]{0,8}(药|素|片|胶囊|颗粒|膏|液|丸|针)/
const DRUG_NAMES = /布洛芬|阿莫西林|头孢|青霉素|阿司匹林|对乙酰氨基酚|氨氯地平|二甲双胍|胰岛素|硝酸甘油|抗生素/
const CLAIMS_DOCTOR = /我是(一名|一位|您的)?(医生|大夫|医师)/

/** Words right before a complaint that deny it: 没有发热, 不咳嗽, 无胸痛. */
const NEGATIONS = ['没有', '没', '无', '不', '未', '否认']

// ---- matching -------------------------------------------------------------------------------------------------------

/** The patient's words without spaces, Latin letters in lower case. */
export const normaliseText = (text: string) => text.replace(/\s+/g, '').toLowerCase()

/** Where `word` first appears in `text` other than right after a negation, or -1. */
function findWord(text: string, word: string): number {
  for (let from = 0; ; ) {
    const i = text.indexOf(word, from)
    if (i < 0) return -1
    if (!NEGATIONS.some((n) => text.slice(Math.max(0, i - n.length), i) === n)) return i
    from = i + 1
  }
}

const anyWord = (text: string, words: readonly string[]) => words.some((w) => findWord(text, w) >= 0)

export function hasRedFlag(text: string): boolean {
  const t = normaliseText(text)
  return anyWord(t, RED_FLAGS) || (anyWord(t, CHEST) && anyWord(t, CHEST_WITH))
}

/** Any mention of a medicine, a dose or a prescription, negated or not: such questions are never answered. */
export function asksAboutMedicine(text: string): boolean {
  const t = normaliseText(text)
  return MEDICINE_WORDS.some((w) => t.includes(w)) || DOSE_ASKED.test(t)
}

/** Text the agent must not show: a dose, advice to take something, a drug's name, or a claim to be a doctor. */
export function mentionsMedicine(text: string): boolean {
  return DOSE_PATTERN.test(text) || MEDICINE_ADVICE.test(text) || DRUG_NAMES.test(text) || CLAIMS_DOCTOR.test(text)
}

type Dept = TriageCatalogue['departments'][number]

/** The first of `names` the hospital has among its bookable departments. */
function deptNamed(names: readonly string[], c: TriageCatalogue): Dept | null {
  for (const name of names) {
    const d = c.departments.find((x) => x.name === name)
    if (d) return d
  }
  return null
}

interface Hit {
  dept: Dept
  score: number
  /** Where in the text its first word was, to break ties by what the patient said first. */
  first: number
  words: string[]
  scopes: string[]
}

/** The hospital's departments the text points to, best first: rule and disease matches, weighted. */
export function rankDepartments(text: string, c: TriageCatalogue): Hit[] {
  const t = normaliseText(text)
  const hits = new Map<number, Hit>()
  const add = (dept: Dept, found: { word: string; at: number }[], weight: number, scope: string | null) => {
    const hit = hits.get(dept.id) ?? { dept, score: 0, first: Infinity, words: [], scopes: [] }
    hit.score += found.length * weight
    hit.first = Math.min(hit.first, ...found.map((f) => f.at))
    for (const f of found) if (!hit.words.includes(f.word)) hit.words.push(f.word)
    if (scope && !hit.scopes.includes(scope)) hit.scopes.push(scope)
    hits.set(dept.id, hit)
  }
  for (const rule of RULES) {
    const all = rule.words.map((word) => ({ word, at: findWord(t, word) })).filter((f) => f.at >= 0)
    // 眼 within 眼睛, 头痛 within 偏头痛: one complaint, said once
    const found = all.filter((f) => !all.some((g) => g.word !== f.word && g.word.includes(f.word)))
    if (found.length === 0) continue
    const dept = deptNamed(rule.depts, c)
    if (dept) add(dept, found, rule.weight ?? 1, rule.scope)
  }
  // the hospital's own diseases name their department; a disease is a more precise word than a complaint
  for (const disease of c.diseases) {
    const at = findWord(t, normaliseText(disease.name))
    const dept = c.departments.find((d) => d.id === disease.deptId)
    if (at >= 0 && dept) add(dept, [{ word: disease.name, at }], 2, null)
  }
  return [...hits.values()].sort((a, b) => b.score - a.score || a.first - b.first).slice(0, MAX_DEPARTMENTS)
}

const reasonOf = (hit: Hit) => `您提到“${hit.words.slice(0, 3).join('”“')}”${hit.scopes.length ? `，该科诊治${hit.scopes[0]}` : `，本院由该科诊治`}`

/** The fixed emergency answer: the emergency department when the hospital has one, nothing to book otherwise. */
export function emergencySuggestion(c: TriageCatalogue, source: TriageSource): TriageSuggestion {
  const er = deptNamed(EMERGENCY_DEPTS, c)
  return {
    reply: EMERGENCY_REPLY,
    emergency: true,
    departments: er ? [{ deptId: er.id, reason: '情况危急，请立即到急诊就诊' }] : [],
    source,
  }
}

/**
 * The built-in answer: red flags first, then a medicine question's refusal (with departments when symptoms were
 * given too), then the departments the complaint matches, else a general clinic, else a request for more detail.
 */
export function offlineSuggestion(text: string, c: TriageCatalogue): TriageSuggestion {
  const medicine = asksAboutMedicine(text)
  if (hasRedFlag(text)) {
    const e = emergencySuggestion(c, 'offline')
    return medicine ? { ...e, reply: `${e.reply}${MEDICINE_REFUSAL}` } : e
  }
  const hits = rankDepartments(text, c)
  const departments = hits.map((h) => ({ deptId: h.dept.id, reason: reasonOf(h) }))
  const names = hits.map((h) => h.dept.name).join('、')
  if (medicine) {
    const reply = hits.length
      ? `${MEDICINE_REFUSAL}根据您描述的症状，建议就诊${names}，由医生面诊后决定如何治疗。`
      : `${MEDICINE_REFUSAL}如有不适，请描述具体症状，我可以为您推荐就诊科室。`
    return { reply, emergency: false, departments, source: 'offline' }
  }
  if (hits.length) {
    const words = [...new Set(hits.flatMap((h) => h.words))].slice(0, 4)
    return {
      reply: `根据您描述的“${words.join('、')}”，建议您就诊${names}。点击科室可查看排班并预约挂号；如症状突然加重，请及时到急诊就医。`,
      emergency: false,
      departments,
      source: 'offline',
    }
  }
  const general = deptNamed(GENERAL_DEPTS, c)
  if (general) {
    return {
      reply: `根据您的描述暂时无法判断具体科室，建议先到${general.name}就诊，由医生进一步诊查。您也可以补充更多症状，我再为您推荐。`,
      emergency: false,
      departments: [{ deptId: general.id, reason: '暂时无法判断具体科室，可先由全科医生诊查' }],
      source: 'offline',
    }
  }
  return { reply: NEED_DETAIL, emergency: false, departments: [], source: 'offline' }
}

// ---- the endpoint ---------------------------------------------------------------------------------------------------

async function loadCatalogue(db: Db, hospital: { id: number; name: string }): Promise<TriageCatalogue> {
  const [deptRows, diseaseRows] = await Promise.all([
    db
      .select({ id: departments.id, name: departments.name })
      .from(departments)
      .where(and(eq(departments.hospitalId, hospital.id), isNotNull(departments.parentId)))
      .orderBy(asc(departments.sort), asc(departments.id)),
    db.select({ name: diseases.name, deptId: diseases.deptId }).from(diseases).where(eq(diseases.hospitalId, hospital.id)).orderBy(asc(diseases.id)),
  ])
  return { hospitalName: hospital.name, departments: deptRows, diseases: diseaseRows }
}

/** The suggestion's departments with up to DOCTORS_PER_DEPARTMENT of each one's doctors, most senior first. */
async function withDoctors(db: Db, hospitalId: number, c: TriageCatalogue, s: TriageSuggestion): Promise<TriageAnswer> {
  const ids = s.departments.map((d) => d.deptId)
  const rows = ids.length
    ? await db
        .select({ id: doctors.id, name: doctors.name, title: doctors.title, avatar: doctors.avatar, deptId: doctors.deptId })
        .from(doctors)
        .where(and(eq(doctors.hospitalId, hospitalId), inArray(doctors.deptId, ids)))
        .orderBy(asc(doctors.sort), asc(doctors.id))
    : []
  const result: TriageDepartment[] = s.departments.flatMap(({ deptId, reason }) => {
    const dept = c.departments.find((d) => d.id === deptId)
    if (!dept) return []
    return [
      {
        id: dept.id,
        deptName: dept.name,
        reason,
        doctors: rows
          .filter((r) => r.deptId === deptId)
          .slice(0, DOCTORS_PER_DEPARTMENT)
          .map((r) => ({ id: r.id, doctorName: r.name, title: r.title, avatar: r.avatar || doctorAvatarUrl(r.id) })),
      },
    ]
  })
  return { reply: s.reply, emergency: s.emergency, departments: result, disclaimer: DISCLAIMER, source: s.source }
}

// ---- the model ------------------------------------------------------------------------------------------------------

/** What the model is asked to answer (see systemPrompt). */
const modelAnswer = z.object({
  departments: z
    .array(z.object({ name: z.string().trim().min(1).max(50), reason: z.string().trim().max(200).optional() }))
    .max(10),
  emergency: z.boolean(),
  reply: z.string().trim().min(1).max(600),
})

/** The instructions: the hospital's departments to choose from, the rules, and JSON only. */
export function systemPrompt(c: TriageCatalogue): string {
  return [
    `你是${c.hospitalName}的智能导诊助手，只根据患者描述的症状推荐本院的就诊科室。你不是医生，不做诊断。`,
    `本院可预约的科室只有：${c.departments.map((d) => d.name).join('、')}。`,
    '规则：',
    `1. departments 只能从上面的科室中选择1至${MAX_DEPARTMENTS}个，最相关的在前，每个附一句不超过30字的理由 reason。`,
    '2. 绝不推荐或提及任何药品名称、用药剂量或治疗方案；不要自称医生。',
    '3. 如有危及生命的表现（如胸痛伴大汗或呼吸困难、昏迷、大出血、抽搐、自杀念头），emergency 为 true，reply 请患者立即前往急诊或拨打120。',
    '4. reply 是给患者的一段话，不超过150字，使用简体中文。',
    '只输出一个 JSON 对象，不要输出任何其他文字或代码块标记，格式为：',
    '{"departments":[{"name":"科室名称","reason":"理由"}],"emergency":false,"reply":"给患者的回复"}',
  ].join('\n')
}

/** The JSON object in a reply, even when the model wrapped it in a code fence or a sentence. */
function jsonObjectOf(content: string): unknown {
  const start = content.indexOf('{')
  const end = content.lastIndexOf('}')
  if (start < 0 || end <= start) throw new AiFailure('the reply holds no JSON object')
  try {
    return JSON.parse(content.slice(start, end + 1))
  } catch {
    // JSON.parse quotes the text it failed on
    throw new AiFailure('the reply is not valid JSON')
  }
}

/**
 * The model's answer, checked like the rules' own: departments the hospital does not have are dropped, a red flag
 * becomes the fixed emergency answer, and a reply that names a medicine or a dose, or that is not the JSON asked
 * for, or no department of the hospital, is refused (AiFailure).
 */
async function modelSuggestion(ai: AiProvider, text: string, c: TriageCatalogue): Promise<TriageSuggestion> {
  const answer = modelAnswer.safeParse(jsonObjectOf(await ai.chat(systemPrompt(c), text)))
  if (!answer.success) throw new AiFailure('the reply is not the JSON asked for')
  if (answer.data.emergency) return emergencySuggestion(c, 'model')
  const byName = new Map(c.departments.map((d) => [d.name, d]))
  const departments: TriageSuggestion['departments'] = []
  for (const d of answer.data.departments) {
    const dept = byName.get(d.name)
    if (!dept || departments.some((x) => x.deptId === dept.id)) continue
    departments.push({ deptId: dept.id, reason: d.reason || `建议就诊${dept.name}` })
    if (departments.length === MAX_DEPARTMENTS) break
  }
  if (departments.length === 0) throw new AiFailure('the reply names none of the hospital’s departments')
  if (mentionsMedicine([answer.data.reply, ...departments.map((d) => d.reason)].join('\n'))) throw new AiFailure('the reply mentions a medicine or a dose')
  return { reply: answer.data.reply, emergency: false, departments, source: 'model' }
}

/**
 * POST /dld-palm/api/ai/triage: red flags and medicine questions are answered by the rules at once (an emergency does
 * not wait for a model, and a medicine question never reaches one); anything else goes to the configured model, and
 * to the rules when there is none or its answer fails (logged without anything the patient or the model wrote).
 */
export async function triage(db: Db, ai: AiProvider, log: FastifyBaseLogger, input: { hospitalCode: string; text: string }): Promise<TriageAnswer> {
  const hospital = await hospitalByCode(db, input.hospitalCode)
  if (!hospital) throw badInput(UNKNOWN_HOSPITAL)
  const catalogue = await loadCatalogue(db, hospital)
  const text = input.text.trim()
  let suggestion: TriageSuggestion
  if (ai.kind === 'offline' || hasRedFlag(text) || asksAboutMedicine(text)) suggestion = offlineSuggestion(text, catalogue)
  else {
    try {
      suggestion = await modelSuggestion(ai, text, catalogue)
    } catch (err) {
      const reason = err instanceof AiFailure ? err.message : 'the reply could not be read'
      log.warn({ aiModel: ai.model, reason }, 'AI triage model failed; answered with the built-in rules')
      suggestion = offlineSuggestion(text, catalogue)
    }
  }
  return withDoctors(db, hospital.id, catalogue, suggestion)
}
