/**
 * Registration data of the demo hospitals: the clinic tree, doctors, diseases, and a rolling window of schedules with
 * numbered slots (some stopped, some fully booked by bookings made at the hospital's window or by phone).
 * Deterministic: the same hospital, doctor and day always give the same schedule.
 */
import { idCardCheckChar } from '@/utils/idCard'
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import { rowsOf, type Db } from '../db'
import type { FieldCipher } from '../crypto'
import { departments, diseases, doctors, hospitalConfigs, hospitals, patients, registrations, scheduleSlots, schedules, users } from '../db/schema'
import {
  BOOK_DAYS,
  CONFIG_FREE_FOR_ELDERLY,
  GENERAL_TYPE,
  addDays,
  windowRegNo,
  timeRangesOf,
  weekdayOf,
} from '../domain/register/rules'
import type { Segment } from '../../../types/api/register'

// ---- deterministic randomness -----------------------------------------------------------------------------------

/** FNV-1a: a stable 32-bit hash of a string. */
function hash(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/** mulberry32 seeded by FNV-1a: a small seeded generator, so reseeding gives the same demo data on every database. */
export function generator(seed: string) {
  let a = hash(seed)
  const next = () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]! }
}

// ---- the clinic tree --------------------------------------------------------------------------------------------

interface LeafSeed {
  name: string
  intro: string
  featured?: boolean
  specialities: string[]
}
interface GroupSeed {
  name: string
  intro: string
  featured?: boolean
  children: LeafSeed[]
}

const INTERNAL: GroupSeed = {
  name: '内科',
  intro: '内科系统常见病、慢性病的诊断与综合治疗。',
  children: [
    { name: '心血管内科', intro: '冠心病、高血压、心律失常的诊治与介入治疗。', featured: true, specialities: ['冠心病介入治疗', '高血压及难治性高血压', '心律失常射频消融', '心力衰竭综合管理', '结构性心脏病'] },
    { name: '呼吸与危重症医学科', intro: '慢阻肺、哮喘、肺部感染及肺结节随访。', featured: true, specialities: ['慢性阻塞性肺疾病', '支气管哮喘', '肺结节诊治与随访', '重症肺部感染', '睡眠呼吸暂停'] },
    { name: '消化内科', intro: '胃肠镜诊疗、消化道出血、肝胆胰疾病。', specialities: ['消化内镜诊疗', '慢性胃炎与幽门螺杆菌感染', '炎症性肠病', '肝硬化及并发症', '胰腺疾病'] },
    { name: '内分泌科', intro: '糖尿病、甲状腺疾病及骨质疏松的诊治。', specialities: ['糖尿病及并发症', '甲状腺疾病', '骨质疏松', '肥胖与代谢综合征', '垂体肾上腺疾病'] },
    { name: '神经内科', intro: '脑血管病、头痛、癫痫、帕金森病等神经系统疾病。', specialities: ['脑卒中防治', '头痛与眩晕', '帕金森病', '癫痫', '认知障碍'] },
    { name: '肾内科', intro: '慢性肾病、肾炎、透析与肾脏替代治疗。', specialities: ['慢性肾脏病', '肾小球肾炎', '血液透析', '糖尿病肾病'] },
  ],
}
const SURGERY: GroupSeed = {
  name: '外科',
  intro: '外科常见病、多发病的手术与微创治疗。',
  children: [
    { name: '普通外科', intro: '甲状腺、乳腺、胃肠、肝胆及疝的外科治疗。', specialities: ['甲状腺乳腺外科', '胃肠外科', '肝胆外科', '疝与腹壁外科', '腹腔镜微创手术'] },
    { name: '骨科', intro: '创伤骨科、关节外科、脊柱外科。', specialities: ['人工关节置换', '脊柱微创', '运动损伤与关节镜', '创伤骨折', '腰椎间盘突出症'] },
    { name: '泌尿外科', intro: '泌尿系结石、前列腺疾病及泌尿系肿瘤。', specialities: ['泌尿系结石', '前列腺增生', '泌尿系肿瘤', '男科疾病'] },
    { name: '神经外科', intro: '颅脑外伤、脑肿瘤及脑血管病的手术治疗。', specialities: ['颅脑肿瘤', '脑血管病介入', '颅脑损伤', '功能神经外科'] },
    { name: '胸外科', intro: '肺癌、食管疾病及胸部创伤的外科治疗。', specialities: ['肺癌微创手术', '食管疾病', '纵隔肿瘤', '胸部创伤'] },
  ],
}
const OBSTETRICS: GroupSeed = {
  name: '妇产科',
  intro: '孕产期保健、妇科肿瘤及微创手术。',
  children: [
    { name: '妇科', intro: '月经病、妇科炎症、子宫肌瘤及妇科肿瘤。', specialities: ['子宫肌瘤', '宫颈疾病', '妇科内分泌', '妇科微创手术'] },
    { name: '产科', intro: '孕期检查、高危妊娠管理与分娩。', specialities: ['产前检查', '高危妊娠', '妊娠期糖尿病', '产后康复'] },
    { name: '生殖医学科', intro: '不孕不育诊治与辅助生殖技术。', specialities: ['不孕症', '辅助生殖', '复发性流产'] },
  ],
}
const PAEDIATRICS: GroupSeed = {
  name: '儿科',
  intro: '儿童常见病、多发病及生长发育评估。',
  featured: true,
  children: [
    { name: '儿内科', intro: '儿童发热、咳嗽、腹泻等常见病多发病。', specialities: ['小儿呼吸系统疾病', '小儿消化系统疾病', '小儿发热', '儿童哮喘'] },
    { name: '儿童保健科', intro: '生长发育评估、营养指导与预防接种咨询。', specialities: ['生长发育评估', '儿童营养', '儿童心理行为'] },
    { name: '新生儿科', intro: '新生儿黄疸、早产儿随访及新生儿疾病。', specialities: ['新生儿黄疸', '早产儿随访', '新生儿感染'] },
    { name: '小儿外科', intro: '小儿疝气、包茎、先天性畸形等外科疾病。', specialities: ['小儿疝气', '先天性畸形', '小儿泌尿外科'] },
  ],
}
const SENSES: GroupSeed = {
  name: '五官科',
  intro: '眼、耳鼻咽喉及口腔疾病的诊疗。',
  children: [
    { name: '眼科', intro: '白内障、青光眼、屈光不正及眼底病。', specialities: ['白内障', '青光眼', '眼底病', '近视防控'] },
    { name: '耳鼻咽喉头颈外科', intro: '鼻炎鼻窦炎、咽喉疾病、听力障碍。', specialities: ['过敏性鼻炎', '慢性鼻窦炎', '听力障碍', '咽喉疾病'] },
    { name: '口腔科', intro: '牙体牙髓、牙周病、口腔修复与正畸。', specialities: ['牙体牙髓病', '牙周病', '口腔修复', '口腔正畸'] },
  ],
}
const TCM: GroupSeed = {
  name: '中医科',
  intro: '中医内科、针灸推拿等中医特色诊疗。',
  children: [
    { name: '中医内科', intro: '辨证论治调理内科慢性病。', specialities: ['脾胃病调理', '失眠', '慢性咳嗽', '膏方调理'] },
    { name: '针灸推拿科', intro: '针灸、推拿治疗颈肩腰腿痛及面瘫。', specialities: ['颈肩腰腿痛', '面瘫', '中风后康复'] },
    { name: '治未病科', intro: '体质辨识、亚健康调理与冬病夏治。', specialities: ['体质辨识', '亚健康调理', '冬病夏治'] },
  ],
}
const SPECIALIST: GroupSeed = {
  name: '专科门诊',
  intro: '皮肤、心理及康复等专科诊疗。',
  children: [
    { name: '皮肤科', intro: '湿疹、痤疮、银屑病等皮肤病。', specialities: ['湿疹皮炎', '痤疮', '银屑病', '荨麻疹'] },
    { name: '精神心理科', intro: '焦虑、抑郁、失眠等心理问题。', specialities: ['焦虑抑郁', '睡眠障碍', '青少年心理'] },
    { name: '康复医学科', intro: '骨科术后、神经系统疾病康复。', specialities: ['骨科术后康复', '神经康复', '疼痛康复'] },
  ],
}

const pickLeaves = (g: GroupSeed, names: string[]): GroupSeed => ({ ...g, children: g.children.filter((c) => names.includes(c.name)) })

/**
 * Each demo hospital's tree: the general hospital has it all, the TCM hospital more TCM, the maternity hospital mothers
 * and children, the internet hospitals less.
 */
export const DEPT_TREES: Record<string, GroupSeed[]> = {
  '10392': [INTERNAL, SURGERY, OBSTETRICS, PAEDIATRICS, SENSES, TCM, SPECIALIST],
  '10388': [
    pickLeaves(INTERNAL, ['心血管内科', '呼吸与危重症医学科', '消化内科', '内分泌科', '神经内科']),
    pickLeaves(SURGERY, ['骨科', '普通外科']),
    pickLeaves(OBSTETRICS, ['妇科', '产科']),
    pickLeaves(PAEDIATRICS, ['儿内科', '儿童保健科']),
    {
      ...TCM,
      children: [
        ...TCM.children,
        { name: '中医骨伤科', intro: '正骨手法、小夹板固定治疗骨折与筋伤。', specialities: ['正骨手法', '颈椎病', '腰腿痛'] },
        { name: '中医妇科', intro: '中医调理月经病、不孕及更年期综合征。', specialities: ['月经不调', '更年期综合征', '中医助孕'] },
      ],
    },
    pickLeaves(SPECIALIST, ['皮肤科']),
  ],
  '10387': [OBSTETRICS, PAEDIATRICS, pickLeaves(INTERNAL, ['内分泌科'])],
  aixin: [pickLeaves(INTERNAL, ['心血管内科', '内分泌科']), pickLeaves(PAEDIATRICS, ['儿内科']), pickLeaves(TCM, ['中医内科'])],
  '10412': [
    pickLeaves(INTERNAL, ['心血管内科', '呼吸与危重症医学科', '消化内科', '内分泌科']),
    pickLeaves(PAEDIATRICS, ['儿内科', '儿童保健科']),
    pickLeaves(OBSTETRICS, ['妇科', '产科']),
    pickLeaves(TCM, ['中医内科']),
    pickLeaves(SPECIALIST, ['皮肤科', '精神心理科']),
  ],
}

/** Diseases patients search for, and the department that treats them (left out where a hospital lacks it). */
const DISEASES: [string, string][] = [
  ['高血压', '心血管内科'], ['冠心病', '心血管内科'], ['心律失常', '心血管内科'], ['心力衰竭', '心血管内科'],
  ['支气管哮喘', '呼吸与危重症医学科'], ['慢性阻塞性肺疾病', '呼吸与危重症医学科'], ['肺炎', '呼吸与危重症医学科'], ['肺结节', '呼吸与危重症医学科'],
  ['胃炎', '消化内科'], ['胃溃疡', '消化内科'], ['脂肪肝', '消化内科'], ['肠易激综合征', '消化内科'],
  ['糖尿病', '内分泌科'], ['甲状腺结节', '内分泌科'], ['骨质疏松', '内分泌科'], ['痛风', '内分泌科'],
  ['脑梗死', '神经内科'], ['偏头痛', '神经内科'], ['眩晕', '神经内科'], ['帕金森病', '神经内科'],
  ['慢性肾炎', '肾内科'], ['肾结石', '泌尿外科'], ['前列腺增生', '泌尿外科'],
  ['阑尾炎', '普通外科'], ['胆囊结石', '普通外科'], ['腹股沟疝', '普通外科'], ['乳腺结节', '普通外科'],
  ['腰椎间盘突出', '骨科'], ['骨折', '骨科'], ['膝骨关节炎', '骨科'], ['颈椎病', '骨科'],
  ['子宫肌瘤', '妇科'], ['月经不调', '妇科'], ['妊娠期糖尿病', '产科'], ['不孕症', '生殖医学科'],
  ['小儿发热', '儿内科'], ['小儿腹泻', '儿内科'], ['手足口病', '儿内科'], ['小儿咳嗽', '儿内科'], ['新生儿黄疸', '新生儿科'],
  ['白内障', '眼科'], ['青光眼', '眼科'], ['近视', '眼科'], ['过敏性鼻炎', '耳鼻咽喉头颈外科'], ['中耳炎', '耳鼻咽喉头颈外科'],
  ['龋齿', '口腔科'], ['牙周炎', '口腔科'], ['湿疹', '皮肤科'], ['痤疮', '皮肤科'], ['荨麻疹', '皮肤科'],
  ['失眠', '精神心理科'], ['抑郁症', '精神心理科'], ['焦虑症', '精神心理科'],
  ['脾胃虚弱', '中医内科'], ['慢性咳嗽', '中医内科'], ['面瘫', '针灸推拿科'], ['肩周炎', '针灸推拿科'],
]

// ---- doctors ----------------------------------------------------------------------------------------------------

const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦方白邹孟熊秦邱江尹薛段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴'
const GIVEN_MALE = ['建国', '志强', '海涛', '文斌', '伟', '军', '明', '宏伟', '振华', '国庆', '晓东', '永刚', '德明', '俊杰', '浩', '立新', '子健', '凯', '学文', '正阳', '家豪', '鹏', '建华', '卫东']
const GIVEN_FEMALE = ['丽华', '秀英', '静', '敏', '晓红', '雪梅', '婷', '慧', '红梅', '春燕', '玉兰', '丹', '晓琳', '雅琴', '思雨', '佳怡', '文娟', '颖', '欣然', '淑珍', '美玲', '洁']
const TITLES = ['主任医师', '副主任医师', '主治医师', '医师'] as const
type Title = (typeof TITLES)[number]
const YEARS: Record<Title, [number, number]> = { 主任医师: [25, 35], 副主任医师: [15, 24], 主治医师: [8, 14], 医师: [3, 7] }

function doctorsFor(hospitalCode: string, leaf: LeafSeed, taken: Set<string>) {
  const rnd = generator(`${hospitalCode}:${leaf.name}`)
  const n = 2 + rnd.int(4) // 2–5 per department
  // one chief physician, then a mix, most senior first
  const titles: Title[] = ['主任医师', ...Array.from({ length: n - 1 }, () => rnd.pick(TITLES.slice(1)))]
  titles.sort((a, b) => TITLES.indexOf(a) - TITLES.indexOf(b))
  return titles.map((title, i) => {
    let name = ''
    do {
      name = rnd.pick(Array.from(SURNAMES)) + rnd.pick(rnd.next() < 0.5 ? GIVEN_MALE : GIVEN_FEMALE)
    } while (taken.has(name))
    taken.add(name)
    const first = rnd.int(leaf.specialities.length)
    const second = (first + 1 + rnd.int(leaf.specialities.length - 1)) % leaf.specialities.length
    const speciality = [leaf.specialities[first]!, leaf.specialities[second]!].join('、')
    const [lo, hi] = YEARS[title]
    const years = lo + rnd.int(hi - lo + 1)
    return {
      name,
      title,
      speciality,
      intro: `${title}，从事${leaf.name}临床工作${years}年，擅长${speciality}等疾病的诊治。${title === '主任医师' ? '科室学科带头人，' : ''}坚持以患者为中心，耐心细致。`,
      sort: i,
    }
  })
}

// ---- window and phone bookings --------------------------------------------------------------------------------

/** The account that stands for bookings made at the hospital's window or by phone (never signs in). */
export const OFFLINE_BOOKINGS_ROLE = 'offline-bookings'
/** Not a mobile number (no SMS code can be asked for it), so nobody can sign in as this account. */
const OFFLINE_MOBILE = '00000000000'
/** People booked through the window; one person takes one slot per department, day and segment. */
const OFFLINE_PEOPLE = 40

function idCardFor(rnd: ReturnType<typeof generator>, birthday: string, male: boolean) {
  const order = String(rnd.int(50) * 2 + (male ? 1 : 0) + 100).slice(-3)
  const first17 = `330106${birthday.replace(/-/g, '')}${order}`
  return first17 + idCardCheckChar(first17)
}

async function ensureOfflineAccount(db: Db, cipher: FieldCipher) {
  const [existing] = await db.select({ id: users.id }).from(users).where(sql`${OFFLINE_BOOKINGS_ROLE} = any(${users.roles})`).limit(1)
  if (existing) return
  await db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ nickname: '窗口及电话预约', mobileEnc: cipher.encrypt(OFFLINE_MOBILE), mobileIndex: cipher.blindIndex(OFFLINE_MOBILE), roles: [OFFLINE_BOOKINGS_ROLE] })
      .returning()
    const rnd = generator('offline-bookings')
    const rows = Array.from({ length: OFFLINE_PEOPLE }, (_, i) => {
      const male = i % 2 === 0
      const birthday = `${1940 + rnd.int(70)}-${String(1 + rnd.int(12)).padStart(2, '0')}-${String(1 + rnd.int(28)).padStart(2, '0')}`
      const idCard = idCardFor(rnd, birthday, male)
      const name = rnd.pick(Array.from(SURNAMES)) + rnd.pick(male ? GIVEN_MALE : GIVEN_FEMALE)
      const mobile = `13${String(100_000_000 + rnd.int(900_000_000))}`
      return {
        userId: user!.id,
        nameEnc: cipher.encrypt(name),
        idCardEnc: cipher.encrypt(idCard),
        personIndex: cipher.blindIndex(idCard),
        mobileEnc: cipher.encrypt(mobile),
        sex: (male ? 1 : 2) as 1 | 2,
        birthday,
        relation: '其他',
        source: 'idCard' as const,
      }
    })
    await tx.insert(patients).values(rows).onConflictDoNothing()
  })
}

// ---- seeding a hospital -------------------------------------------------------------------------------------------

/**
 * The registration catalogue of one demo hospital, once (skipped when it has doctors). Departments already there are
 * kept by name, so a database seeded before the tree existed keeps its ids and featured flags.
 */
async function seedHospitalCatalogue(db: Db, hospital: typeof hospitals.$inferSelect, tree: GroupSeed[]) {
  const [hasDoctors] = await db.select({ id: doctors.id }).from(doctors).where(eq(doctors.hospitalId, hospital.id)).limit(1)
  if (hasDoctors) return
  await db.transaction(async (tx) => {
    const existing = await tx.select().from(departments).where(eq(departments.hospitalId, hospital.id))
    const byName = new Map(existing.map((d) => [d.name, d.id]))
    // groups first, then departments under them: a few statements in all (seeding runs at every test's start)
    const place = async (level: { name: string; intro: string; featured?: boolean; parentId: number | null; sort: number }[]) => {
      for (const d of level.filter((d) => byName.has(d.name))) {
        await tx.update(departments).set({ parentId: d.parentId, sort: d.sort }).where(eq(departments.id, byName.get(d.name)!))
      }
      const fresh = level.filter((d) => !byName.has(d.name))
      if (fresh.length === 0) return
      const rows = await tx
        .insert(departments)
        .values(fresh.map((d) => ({ hospitalId: hospital.id, parentId: d.parentId, name: d.name, intro: d.intro, featured: !!d.featured, sort: d.sort })))
        .returning({ id: departments.id, name: departments.name })
      for (const r of rows) byName.set(r.name, r.id)
    }
    const sorted = tree.map((group, g) => ({ group, sort: g * 100, children: group.children.map((leaf, i) => ({ leaf, sort: g * 100 + i + 1 })) }))
    await place(sorted.map(({ group, sort }) => ({ ...group, parentId: null, sort })))
    await place(sorted.flatMap(({ group, children }) => children.map(({ leaf, sort }) => ({ ...leaf, parentId: byName.get(group.name)!, sort }))))
    const taken = new Set<string>()
    const leaves = tree.flatMap((g) => g.children)
    // no photo: the avatar is the portrait the server draws from the name (doctorAvatarUrl)
    await tx
      .insert(doctors)
      .values(leaves.flatMap((leaf) => doctorsFor(hospital.code, leaf, taken).map((d) => ({ ...d, hospitalId: hospital.id, deptId: byName.get(leaf.name)! }))))
    const names = new Set(leaves.map((l) => l.name))
    const diseaseRows = DISEASES.filter(([, dept]) => names.has(dept)).map(([name, dept]) => ({ hospitalId: hospital.id, name, deptId: byName.get(dept)! }))
    if (diseaseRows.length) await tx.insert(diseases).values(diseaseRows)
  })
}

/**
 * Registration data for the demo hospitals that exist: the tree, doctors, diseases, the window-booking account, and
 * the elderly activity at 10392. Runs at every start; each part is skipped once done.
 */
export async function seedRegistration(db: Db, cipher: FieldCipher) {
  const rows = await db.select().from(hospitals).where(inArray(hospitals.code, Object.keys(DEPT_TREES)))
  for (const hospital of rows) await seedHospitalCatalogue(db, hospital, DEPT_TREES[hospital.code]!)
  const general = rows.find((h) => h.code === '10392')
  if (general) {
    await db
      .insert(hospitalConfigs)
      .values({ hospitalId: general.id, key: CONFIG_FREE_FOR_ELDERLY, value: 'true' })
      .onConflictDoNothing({ target: [hospitalConfigs.hospitalId, hospitalConfigs.key] })
  }
  await ensureOfflineAccount(db, cipher)
}

// ---- the rolling window of schedules ----------------------------------------------------------------------------

type DoctorRow = typeof doctors.$inferSelect

/** Fee, register type and slots per half hour of a doctor (or, with null, of a department's general clinic). */
function clinicOf(doctor: DoctorRow | null) {
  if (!doctor) return { registerType: GENERAL_TYPE, feeFen: 1000, perRange: { am: 1, pm: 1 } }
  const rnd = generator(`fee:${doctor.id}`)
  switch (doctor.title) {
    case '主任医师':
      return { registerType: '专家号', feeFen: rnd.pick([5000, 6000, 8000, 10000]), perRange: { am: 1, pm: 1 } }
    case '副主任医师':
      return { registerType: '专家号', feeFen: rnd.pick([3000, 3500, 4000, 5000]), perRange: { am: 1, pm: 1 } }
    case '主治医师':
      return { registerType: GENERAL_TYPE, feeFen: rnd.pick([1500, 2000, 2500]), perRange: { am: 2, pm: 2 } }
    default:
      return { registerType: GENERAL_TYPE, feeFen: rnd.pick([1000, 1200, 1500]), perRange: { am: 2, pm: 1 } }
  }
}

const HALF_DAYS_A_WEEK: Record<string, number> = { 主任医师: 2, 副主任医师: 3, 主治医师: 4, 医师: 5 }

/** The half-days (weekday Monday–Saturday, segment) a doctor sees patients, the same every week. */
function weeklyPattern(doctor: DoctorRow): Set<string> {
  const rnd = generator(`week:${doctor.id}`)
  const all = [1, 2, 3, 4, 5, 6].flatMap((d) => [`${d}am`, `${d}pm`])
  const chosen = new Set<string>()
  while (chosen.size < (HALF_DAYS_A_WEEK[doctor.title] ?? 3)) chosen.add(rnd.pick(all))
  return chosen
}

interface PlannedSchedule {
  hospitalId: number
  deptId: number
  doctorId: number | null
  visitDate: string
  segment: Segment
  registerType: string
  feeFen: number
  totalSlots: number
  stopped: boolean
  /** Slots booked through the window: all of them for a full schedule. */
  booked: 'full' | number
}

function plan(hospitalId: number, deptIds: number[], doctorRows: DoctorRow[], dates: string[]): PlannedSchedule[] {
  const out: PlannedSchedule[] = []
  const patterns = new Map(doctorRows.map((d) => [d.id, weeklyPattern(d)]))
  for (const [day, visitDate] of dates.entries()) {
    for (const segment of ['am', 'pm'] as const) {
      const owners: [number, DoctorRow | null][] = [
        ...deptIds.map((id): [number, null] => [id, null]),
        // a doctor works their weekly half-days, except about one in ten (leave, conferences, ward duty)
        ...doctorRows
          .filter((d) => patterns.get(d.id)!.has(`${weekdayOf(visitDate)}${segment}`) && hash(`off:${d.id}:${visitDate}`) % 10 !== 0)
          .map((d): [number, DoctorRow] => [d.deptId, d]),
      ]
      for (const [deptId, doctor] of owners) {
        const clinic = clinicOf(doctor)
        const key = hash(`${deptId}:${doctor?.id ?? 0}:${visitDate}:${segment}`)
        const stopped = key % 15 === 0 // about one in fifteen called off (停诊)
        // popular experts are fully booked; the nearest days fill up first
        const full = !stopped && doctor !== null && doctor.title !== '医师' && (key >>> 4) % 6 === 0
        const booked = full ? 'full' : stopped || day > 1 ? 0 : (key >>> 8) % (4 - day)
        out.push({
          hospitalId,
          deptId,
          doctorId: doctor?.id ?? null,
          visitDate,
          segment,
          registerType: clinic.registerType,
          feeFen: clinic.feeFen,
          // the same number of slots in each half hour
          totalSlots: clinic.perRange[segment] * timeRangesOf(segment).length,
          stopped,
          booked,
        })
      }
    }
  }
  return out
}


/**
 * Creates the schedules of the next BOOK_DAYS days from `today` (YYYY-MM-DD, Shanghai) for every doctor of a hospital
 * with doctors, and a general clinic per department, with their slots; schedules already there are left alone
 * (insert … on conflict do nothing on the schedule's natural key, NULLS NOT DISTINCT), so it can run at every start
 * and every day, and two servers running it at once do not double it.
 * Fully booked schedules are booked for real, by the window-booking account. Rows are made set-wise in SQL: the
 * window is tens of thousands of slots, and every test database is seeded.
 */
export async function ensureSchedules(db: Db, today: string, now = new Date()): Promise<number> {
  const dates = Array.from({ length: BOOK_DAYS }, (_, i) => addDays(today, i))
  const [offline] = await db.select({ id: users.id }).from(users).where(sql`${OFFLINE_BOOKINGS_ROLE} = any(${users.roles})`).limit(1)
  const people = offline
    ? await db.select({ id: patients.id }).from(patients).where(eq(patients.userId, offline.id)).orderBy(patients.id)
    : []
  const ranges = JSON.stringify({ am: timeRangesOf('am'), pm: timeRangesOf('pm') })
  const hospitalIds = (await db.selectDistinct({ id: doctors.hospitalId }).from(doctors)).map((r) => r.id)
  let created = 0
  for (const hospitalId of hospitalIds) {
    const deptIds = (
      await db.select({ id: departments.id }).from(departments).where(and(eq(departments.hospitalId, hospitalId), isNotNull(departments.parentId)))
    ).map((r) => r.id)
    const doctorRows = await db.select().from(doctors).where(eq(doctors.hospitalId, hospitalId))
    const planned = plan(hospitalId, deptIds, doctorRows, dates)
    created += await db.transaction(async (tx) => {
      const inserted = rowsOf<{ id: number; dept_id: number; doctor_id: number | null; visit_date: string; segment: Segment }>(
        await tx.execute(sql`
          insert into ${schedules} (hospital_id, dept_id, doctor_id, visit_date, segment, register_type, fee_fen, total_slots, stopped)
          select p."hospitalId", p."deptId", p."doctorId", p."visitDate", p.segment, p."registerType", p."feeFen", p."totalSlots", p.stopped
          from json_to_recordset(${JSON.stringify(planned)}::json) as p("hospitalId" int, "deptId" int, "doctorId" int, "visitDate" text,
            segment text, "registerType" text, "feeFen" int, "totalSlots" int, stopped boolean)
          on conflict on constraint schedules_key do nothing
          returning id, dept_id, doctor_id, visit_date, segment`),
      )
      if (inserted.length === 0) return 0
      const newIds = sql`(select value::int from json_array_elements_text(${JSON.stringify(inserted.map((r) => r.id))}::json))`
      // slots 1..n of each new schedule, an equal number to each half hour of its segment
      await tx.execute(sql`
        insert into ${scheduleSlots} (schedule_id, seq, time_range)
        select s.id, g.i + 1, (${ranges}::jsonb -> s.segment) ->> (g.i / (s.total_slots / jsonb_array_length(${ranges}::jsonb -> s.segment)))
        from ${schedules} s cross join lateral generate_series(0, s.total_slots - 1) as g(i)
        where s.id in ${newIds}`)
      if (!offline || people.length === 0) return inserted.length
      // window bookings: each person at most once per department, day and segment (the rule patients book under)
      const plannedByKey = new Map(planned.map((p) => [`${p.deptId}:${p.doctorId}:${p.visitDate}:${p.segment}`, p]))
      const usedPeople = new Map<string, number>()
      const bookings: { regNo: string; scheduleId: number; seq: number; patientId: number; createdAt: string }[] = []
      for (const row of inserted) {
        const p = plannedByKey.get(`${row.dept_id}:${row.doctor_id}:${row.visit_date}:${row.segment}`)!
        const wanted = p.booked === 'full' ? p.totalSlots : Math.min(p.booked, p.totalSlots)
        const segmentKey = `${p.deptId}:${p.visitDate}:${p.segment}`
        const used = usedPeople.get(segmentKey) ?? 0
        if (wanted === 0 || used + wanted > people.length) continue
        usedPeople.set(segmentKey, used + wanted)
        for (let seq = 1; seq <= wanted; seq++) {
          bookings.push({
            regNo: windowRegNo(now, row.id, seq),
            scheduleId: row.id,
            seq,
            patientId: people[used + seq - 1]!.id,
            // made some time in the last week
            createdAt: new Date(now.getTime() - (hash(`at:${row.id}:${seq}`) % (7 * 86_400)) * 1000).toISOString(),
          })
        }
      }
      if (bookings.length === 0) return inserted.length
      await tx.execute(sql`
        insert into ${registrations} (reg_no, user_id, patient_id, hospital_id, dept_id, doctor_id, schedule_id, slot_id, visit_date, segment,
          seq, time_range, fee_fen, status, idempotency_key, created_at, register_type)
        select b."regNo", ${offline.id}, b."patientId", s.hospital_id, s.dept_id, s.doctor_id, s.id, x.id, s.visit_date, s.segment,
          x.seq, x.time_range, s.fee_fen, 'booked', 'window-' || s.id || '-' || x.seq, b."createdAt", s.register_type
        from json_to_recordset(${JSON.stringify(bookings)}::json) as b("regNo" text, "scheduleId" int, seq int, "patientId" int, "createdAt" timestamptz)
        join ${schedules} s on s.id = b."scheduleId"
        join ${scheduleSlots} x on x.schedule_id = s.id and x.seq = b.seq`)
      await tx.execute(sql`
        update ${scheduleSlots} x set registration_id = r.id
        from ${registrations} r
        where r.slot_id = x.id and r.schedule_id in ${newIds} and r.user_id = ${offline.id} and x.registration_id is null`)
      return inserted.length
    })
  }
  return created
}
