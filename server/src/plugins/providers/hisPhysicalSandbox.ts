/**
 * The physical-exam centre of a sandbox hospital (体检中心), in our own tables (his_physical_*): a handful of real-world
 * packages, days with a capacity (Monday to Saturday), places held and paid, and a console where staff check a patient
 * in and finish the exam, which writes the report (sealed at rest) and releases it with its PDF.
 */
import { and, asc, desc, eq, gte, lte, sql } from 'drizzle-orm'
import type { FieldCipher } from '../../crypto'
import type { Db, Tx } from '../../db'
import { hisPhysicalDays, hisPhysicalExams } from '../../db/schema'
import { badInput } from '../../errors'
import { hospitalToday } from '@/utils/hospitalClock'
import { maskName } from '@/utils/mask'
import { ageOn } from '@/utils/selfService'
import { PHYSICAL_DEFAULT_CAPACITY, isCentreOpen } from '@/utils/physicalRules'
import type { HisPatient } from './his'
import type { HisPhysicalExam, HisPhysicalExams, HisPhysicalHold, HisPhysicalPackage, HisPhysicalReport } from './hisPhysical'
import { physicalReportPdf } from './physicalPdf'

export const DAY_FULL = '该日体检名额已约满，请选择其他日期'
export const DAY_CLOSED = '体检中心该日不接受预约'
export const HOLD_RELEASED = '体检预约已失效，费用将原路退回'
export const ALREADY_CHECKED_IN = '已到检登记，不能取消'
export const UNKNOWN_PACKAGE = '体检套餐不存在'

const item = (dept: string, name: string, meaning: string) => ({ dept, name, meaning })
const GENERAL = item('一般检查', '身高、体重、血压、体重指数', '体格发育与血压')
const INTERNAL = item('内科', '内科检查', '心、肺、肝、脾听诊触诊')
const SURGERY = item('外科', '外科检查', '皮肤、淋巴结、甲状腺、脊柱四肢')
const EYE = item('眼科', '视力、色觉、眼底', '视力与眼底病变')
const ENT = item('耳鼻喉科', '耳鼻喉检查', '听力、鼻腔、咽喉')
const BLOOD = item('检验科', '血常规（五分类）', '贫血、感染、血小板')
const URINE = item('检验科', '尿常规', '泌尿系统感染、肾脏')
const LIVER = item('检验科', '肝功能（ALT、AST、总胆红素）', '肝脏功能')
const KIDNEY = item('检验科', '肾功能（肌酐、尿素、尿酸）', '肾脏功能与痛风风险')
const LIPID = item('检验科', '血脂四项', '动脉硬化风险')
const GLUCOSE = item('检验科', '空腹血糖', '糖尿病筛查')
const ECG = item('心电图室', '十二导联心电图', '心律失常、心肌缺血')
const CHEST = item('放射科', '胸部正位片（DR）', '肺部与心影')
const ABDOMEN = item('超声科', '腹部彩超（肝胆胰脾肾）', '脂肪肝、结石、占位')
const THYROID = item('超声科', '甲状腺彩超', '甲状腺结节')
const CT = item('放射科', '胸部低剂量CT', '肺结节早筛')
const TUMOR = item('检验科', '肿瘤标志物（AFP、CEA）', '肝癌、消化道肿瘤筛查')
const PSA = item('检验科', '前列腺特异性抗原（PSA）', '前列腺疾病筛查')
const PROSTATE = item('超声科', '前列腺彩超', '前列腺增生')
const CAROTID = item('超声科', '颈动脉彩超', '动脉斑块')
const BONE = item('放射科', '骨密度测定', '骨质疏松')
const GYN = item('妇科', '妇科检查', '外阴、阴道、宫颈')
const TCT = item('检验科', '宫颈液基细胞学（TCT）', '宫颈癌筛查')
const HPV = item('检验科', 'HPV分型检测', '宫颈癌高危因素')
const BREAST = item('超声科', '乳腺彩超', '乳腺结节')
const PELVIC = item('超声科', '子宫附件彩超', '子宫肌瘤、卵巢囊肿')

const FASTING = '体检前一天清淡饮食，晚10点后禁食禁水；当日早晨空腹到检，带身份证'

/** The sandbox centre's packages (every sandbox hospital offers the same). */
export const PHYSICAL_PACKAGES: readonly HisPhysicalPackage[] = [
  {
    code: 'TJ01',
    name: '入职体检',
    sex: 0,
    minAge: 16,
    maxAge: 65,
    priceFen: 15000,
    suits: '新入职员工、单位要求的常规健康证明',
    notice: `${FASTING}；报告可用于入职`,
    items: [GENERAL, INTERNAL, SURGERY, EYE, BLOOD, URINE, LIVER, CHEST],
  },
  {
    code: 'TJ02',
    name: '基础体检（男）',
    sex: 1,
    minAge: 18,
    maxAge: 80,
    priceFen: 38000,
    suits: '18岁以上男性每年一次的基础检查',
    notice: FASTING,
    items: [GENERAL, INTERNAL, SURGERY, EYE, ENT, BLOOD, URINE, LIVER, KIDNEY, LIPID, GLUCOSE, ECG, CHEST, ABDOMEN],
  },
  {
    code: 'TJ03',
    name: '基础体检（女）',
    sex: 2,
    minAge: 18,
    maxAge: 80,
    priceFen: 42000,
    suits: '18岁以上女性每年一次的基础检查',
    notice: `${FASTING}；月经期间不做妇科检查和尿常规，请避开经期预约`,
    items: [GENERAL, INTERNAL, SURGERY, EYE, ENT, BLOOD, URINE, LIVER, KIDNEY, LIPID, GLUCOSE, ECG, CHEST, ABDOMEN, GYN],
  },
  {
    code: 'TJ04',
    name: '中老年体检',
    sex: 0,
    minAge: 45,
    maxAge: 90,
    priceFen: 128000,
    suits: '45岁以上，关注心脑血管、肿瘤早筛和骨质疏松',
    notice: `${FASTING}；慢性病患者降压药可少量温水送服，降糖药待抽血后再服`,
    items: [GENERAL, INTERNAL, SURGERY, EYE, ENT, BLOOD, URINE, LIVER, KIDNEY, LIPID, GLUCOSE, TUMOR, ECG, CT, ABDOMEN, THYROID, CAROTID, BONE],
  },
  {
    code: 'TJ05',
    name: '男性专项体检',
    sex: 1,
    minAge: 40,
    maxAge: 90,
    priceFen: 68000,
    suits: '40岁以上男性，增加前列腺与肿瘤标志物',
    notice: `${FASTING}；前列腺彩超需适度憋尿`,
    items: [GENERAL, INTERNAL, SURGERY, BLOOD, URINE, LIVER, KIDNEY, LIPID, GLUCOSE, PSA, TUMOR, ECG, ABDOMEN, PROSTATE],
  },
  {
    code: 'TJ06',
    name: '女性专项体检',
    sex: 2,
    minAge: 25,
    maxAge: 70,
    priceFen: 88000,
    suits: '25岁以上女性，乳腺与宫颈癌筛查',
    notice: `${FASTING}；请避开经期，检查前三天不要阴道用药或冲洗；子宫附件彩超需憋尿`,
    items: [GENERAL, INTERNAL, SURGERY, BLOOD, URINE, LIVER, LIPID, GLUCOSE, GYN, TCT, HPV, BREAST, PELVIC, THYROID],
  },
]

/** What each department finds on a healthy patient, and once in a while something to follow up. */
const NORMAL: Record<string, string> = {
  一般检查: '身高、体重、血压在正常范围',
  内科: '心肺听诊未见异常，肝脾肋下未触及',
  外科: '皮肤、浅表淋巴结、甲状腺、脊柱四肢未见异常',
  眼科: '双眼视力正常，色觉正常，眼底未见异常',
  耳鼻喉科: '外耳道通畅，鼻腔、咽喉未见异常',
  检验科: '结果在参考范围内',
  心电图室: '窦性心律，正常心电图',
  放射科: '未见明显异常',
  超声科: '未见明显异常',
  妇科: '外阴、阴道、宫颈未见明显异常',
}
const FOLLOW_UP: Record<string, { result: string; summary: string; advice: string }> = {
  '血脂四项': { result: '总胆固醇 6.12 mmol/L ↑（参考 <5.18），低密度脂蛋白 3.92 mmol/L ↑（参考 <3.37）', summary: '血脂偏高', advice: '低脂饮食，每周运动150分钟以上，3个月后复查血脂' },
  '腹部彩超（肝胆胰脾肾）': { result: '肝实质回声细密增强，提示轻度脂肪肝', summary: '轻度脂肪肝', advice: '控制体重与饮酒，半年后复查腹部彩超' },
  '甲状腺彩超': { result: '甲状腺右叶见4×3 mm低回声结节，边界清，TI-RADS 3类', summary: '甲状腺结节（TI-RADS 3类）', advice: '甲状腺结节建议6至12个月复查甲状腺彩超' },
  '乳腺彩超': { result: '左乳10点钟方向见5×4 mm低回声结节，BI-RADS 3类', summary: '乳腺结节（BI-RADS 3类）', advice: '乳腺结节建议6个月复查乳腺彩超' },
}
const DOCTORS: Record<string, string> = {
  一般检查: '护士 李敏',
  内科: '王建华',
  外科: '张立新',
  眼科: '刘晓燕',
  耳鼻喉科: '陈红',
  检验科: '检验科 周洁',
  心电图室: '赵磊',
  放射科: '孙志强',
  超声科: '吴静',
  妇科: '郑丽',
}
export const CHIEF_DOCTOR = '主检医师 杨国栋'

/** The report of a finished exam: what each item found, the summary of what needs attention, the chief doctor's word. */
export function writeReport(
  exam: { examNo: string; packageCode: string; packageName: string; examDate: string; sex: 1 | 2; birthday: string; patientName: string },
  reportedAt: Date,
): HisPhysicalReport {
  const pkg = PHYSICAL_PACKAGES.find((p) => p.code === exam.packageCode)
  const items = pkg?.items ?? []
  // which items need a follow-up is fixed by the exam's number: the same exam always has the same report
  const seed = [...exam.examNo].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7)
  const findings = items.map((it, i) => {
    const follow = FOLLOW_UP[it.name]
    const abnormal = !!follow && (seed >> i) % 2 === 1
    return { dept: it.dept, item: it.name, result: abnormal ? follow.result : (NORMAL[it.dept] ?? '未见异常'), abnormal, doctor: DOCTORS[it.dept] ?? '' }
  })
  const flagged = findings.filter((f) => f.abnormal).map((f) => FOLLOW_UP[f.item]!)
  return {
    examNo: exam.examNo,
    packageName: exam.packageName,
    examDate: exam.examDate,
    reportedAt: reportedAt.toISOString(),
    patientName: exam.patientName,
    sex: exam.sex,
    age: ageOn(exam.birthday, exam.examDate),
    summary: flagged.length ? flagged.map((f, i) => `${i + 1}. ${f.summary}`) : ['本次体检所查项目未见明显异常'],
    findings,
    conclusion: flagged.length
      ? `本次体检发现${flagged.map((f) => f.summary).join('、')}，其余所查项目未见明显异常。请按建议复查，如有不适及时就诊。`
      : '本次体检所查项目未见明显异常，请保持健康的生活方式，建议每年体检一次。',
    advice: flagged.length ? flagged.map((f) => f.advice) : ['均衡饮食，规律作息，适量运动'],
    chiefDoctor: CHIEF_DOCTOR,
  }
}

export interface PhysicalConsoleRow {
  examNo: string
  patientName: string
  packageName: string
  examDate: string
  status: HisPhysicalExam['status']
}

/** What staff do at the centre's desk (the workbench console). */
export interface PhysicalConsole {
  /** The day's exams, held places left out (they are not the centre's until paid). */
  physicalDay(hospitalCode: string, date: string): Promise<PhysicalConsoleRow[]>
  /** Null when the hospital has no exam of that number. */
  physicalCheckIn(hospitalCode: string, examNo: string, now?: Date): Promise<PhysicalConsoleRow | null>
  /** Finishes the exam: its report is written and released. Null like physicalCheckIn. */
  physicalFinish(hospitalCode: string, examNo: string, now?: Date): Promise<PhysicalConsoleRow | null>
  /** A demo server's past exam, done at the desk long ago (no place taken): finished, its report out. Again: nothing. */
  physicalSeedFinished(input: Omit<HisPhysicalHold, 'date'> & { date: string }, finishedAt: Date): Promise<void>
}

type ExamRow = typeof hisPhysicalExams.$inferSelect

const toExam = (r: ExamRow): HisPhysicalExam => ({
  examNo: r.examNo,
  packageCode: r.packageCode,
  packageName: r.packageName,
  examDate: r.examDate,
  status: r.status,
  reportedAt: r.finishedAt && r.reportEnc ? r.finishedAt.toISOString() : null,
})

export function sandboxPhysical(db: Db, cipher: FieldCipher, patientKey: (hospitalCode: string, p: HisPatient) => string | null): HisPhysicalExams & PhysicalConsole {
  const toRow = (r: ExamRow): PhysicalConsoleRow => ({
    examNo: r.examNo,
    patientName: maskName(cipher.decrypt(r.patientNameEnc)),
    packageName: r.packageName,
    examDate: r.examDate,
    status: r.status,
  })

  async function ownReport(hospitalCode: string, patient: HisPatient, examNo: string): Promise<HisPhysicalReport | null> {
    const key = patientKey(hospitalCode, patient)
    if (!key) return null
    const [row] = await db
      .select()
      .from(hisPhysicalExams)
      .where(and(eq(hisPhysicalExams.hospitalCode, hospitalCode), eq(hisPhysicalExams.examNo, examNo), eq(hisPhysicalExams.patientKey, key)))
    if (!row?.reportEnc || row.status !== 'finished') return null
    return JSON.parse(cipher.decrypt(row.reportEnc)) as HisPhysicalReport
  }

  async function lockExam(tx: Tx, hospitalCode: string, examNo: string): Promise<ExamRow | undefined> {
    const [row] = await tx
      .select()
      .from(hisPhysicalExams)
      .where(and(eq(hisPhysicalExams.hospitalCode, hospitalCode), eq(hisPhysicalExams.examNo, examNo)))
      .for('update')
    return row
  }

  return {
    async physicalPackages() {
      return PHYSICAL_PACKAGES.map((p) => ({ ...p, items: [...p.items] }))
    },

    async physicalDays({ hospitalCode, from, to }) {
      const rows = await db
        .select()
        .from(hisPhysicalDays)
        .where(and(eq(hisPhysicalDays.hospitalCode, hospitalCode), gte(hisPhysicalDays.examDate, from), lte(hisPhysicalDays.examDate, to)))
      const byDate = new Map(rows.map((r) => [r.examDate, r]))
      const days = []
      for (let d = from; d <= to; d = new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)) {
        const open = isCentreOpen(d)
        const row = byDate.get(d)
        days.push({ date: d, capacity: open ? (row?.capacity ?? PHYSICAL_DEFAULT_CAPACITY) : 0, booked: row?.booked ?? 0, open })
        if (days.length > 62) break
      }
      return days
    },

    async physicalHold(tx, input) {
      const [again] = await tx
        .select()
        .from(hisPhysicalExams)
        .where(and(eq(hisPhysicalExams.hospitalCode, input.hospitalCode), eq(hisPhysicalExams.examNo, input.examNo)))
      if (again) return toExam(again)
      const pkg = PHYSICAL_PACKAGES.find((p) => p.code === input.packageCode)
      if (!pkg) throw badInput(UNKNOWN_PACKAGE)
      const key = patientKey(input.hospitalCode, input.patient)
      if (!key) throw badInput('该就诊人没有证件号码或就诊卡号，医院系统无法识别')
      if (!isCentreOpen(input.date)) throw badInput(DAY_CLOSED)
      await tx.insert(hisPhysicalDays).values({ hospitalCode: input.hospitalCode, examDate: input.date, capacity: PHYSICAL_DEFAULT_CAPACITY }).onConflictDoNothing()
      // the one place a place is taken: conditional on one being left, so concurrent holds never pass the capacity
      const [taken] = await tx
        .update(hisPhysicalDays)
        .set({ booked: sql`${hisPhysicalDays.booked} + 1` })
        .where(and(eq(hisPhysicalDays.hospitalCode, input.hospitalCode), eq(hisPhysicalDays.examDate, input.date), sql`${hisPhysicalDays.booked} < ${hisPhysicalDays.capacity}`))
        .returning({ id: hisPhysicalDays.id })
      if (!taken) throw badInput(DAY_FULL)
      const [row] = await tx
        .insert(hisPhysicalExams)
        .values({
          hospitalCode: input.hospitalCode,
          examNo: input.examNo,
          patientKey: key,
          patientNameEnc: cipher.encrypt(input.patient.name),
          sex: input.sex,
          birthday: input.birthday,
          packageCode: pkg.code,
          packageName: pkg.name,
          examDate: input.date,
          status: 'held',
        })
        .returning()
      return toExam(row!)
    },

    async physicalPaid(tx, input) {
      const row = await lockExam(tx, input.hospitalCode, input.examNo)
      if (!row || row.status === 'released') throw badInput(HOLD_RELEASED)
      if (row.status !== 'held') return toExam(row)
      const [paid] = await tx
        .update(hisPhysicalExams)
        .set({ status: 'paid', orderNo: input.orderNo, paidAt: input.paidAt })
        .where(eq(hisPhysicalExams.id, row.id))
        .returning()
      return toExam(paid!)
    },

    async physicalRelease(tx, input) {
      const row = await lockExam(tx, input.hospitalCode, input.examNo)
      if (!row || row.status === 'released') return
      if (row.status === 'checkedIn' || row.status === 'finished') throw badInput(ALREADY_CHECKED_IN)
      await tx.update(hisPhysicalExams).set({ status: 'released' }).where(eq(hisPhysicalExams.id, row.id))
      await tx
        .update(hisPhysicalDays)
        .set({ booked: sql`${hisPhysicalDays.booked} - 1` })
        .where(and(eq(hisPhysicalDays.hospitalCode, row.hospitalCode), eq(hisPhysicalDays.examDate, row.examDate), sql`${hisPhysicalDays.booked} > 0`))
    },

    async physicalExams({ hospitalCode, patient }) {
      const key = patientKey(hospitalCode, patient)
      if (!key) return []
      const rows = await db
        .select()
        .from(hisPhysicalExams)
        .where(and(eq(hisPhysicalExams.hospitalCode, hospitalCode), eq(hisPhysicalExams.patientKey, key)))
        .orderBy(desc(hisPhysicalExams.examDate), desc(hisPhysicalExams.id))
        .limit(100)
      return rows.map(toExam)
    },

    physicalReport: ({ hospitalCode, patient, examNo }) => ownReport(hospitalCode, patient, examNo),

    async physicalReportPdf({ hospitalCode, patient, examNo }) {
      const report = await ownReport(hospitalCode, patient, examNo)
      return report ? physicalReportPdf(report) : null
    },

    async physicalDay(hospitalCode, date) {
      const rows = await db
        .select()
        .from(hisPhysicalExams)
        .where(and(eq(hisPhysicalExams.hospitalCode, hospitalCode), eq(hisPhysicalExams.examDate, date), sql`${hisPhysicalExams.status} in ('paid', 'checkedIn', 'finished')`))
        .orderBy(asc(hisPhysicalExams.id))
      return rows.map(toRow)
    },

    async physicalCheckIn(hospitalCode, examNo, now = new Date()) {
      return db.transaction(async (tx) => {
        const row = await lockExam(tx, hospitalCode, examNo)
        if (!row) return null
        if (row.status === 'held' || row.status === 'released') throw badInput('该体检预约未支付或已取消')
        if (row.examDate !== hospitalToday(now)) throw badInput('只能为当日的体检登记到检')
        if (row.status !== 'paid') return toRow(row)
        const [done] = await tx.update(hisPhysicalExams).set({ status: 'checkedIn', checkedInAt: now }).where(eq(hisPhysicalExams.id, row.id)).returning()
        return toRow(done!)
      })
    },

    async physicalFinish(hospitalCode, examNo, now = new Date()) {
      return db.transaction(async (tx) => {
        const row = await lockExam(tx, hospitalCode, examNo)
        if (!row) return null
        if (row.status === 'finished') return toRow(row)
        if (row.status !== 'checkedIn') throw badInput('请先登记到检')
        const report = writeReport({ ...row, patientName: cipher.decrypt(row.patientNameEnc) }, now)
        const [done] = await tx
          .update(hisPhysicalExams)
          .set({ status: 'finished', finishedAt: now, reportEnc: cipher.encrypt(JSON.stringify(report)) })
          .where(eq(hisPhysicalExams.id, row.id))
          .returning()
        return toRow(done!)
      })
    },

    async physicalSeedFinished(input, finishedAt) {
      const pkg = PHYSICAL_PACKAGES.find((p) => p.code === input.packageCode)
      const key = patientKey(input.hospitalCode, input.patient)
      if (!pkg || !key) return
      const exam = { examNo: input.examNo, packageCode: pkg.code, packageName: pkg.name, examDate: input.date, sex: input.sex, birthday: input.birthday, patientName: input.patient.name }
      await db
        .insert(hisPhysicalExams)
        .values({
          hospitalCode: input.hospitalCode,
          examNo: input.examNo,
          patientKey: key,
          patientNameEnc: cipher.encrypt(input.patient.name),
          sex: input.sex,
          birthday: input.birthday,
          packageCode: pkg.code,
          packageName: pkg.name,
          examDate: input.date,
          status: 'finished',
          checkedInAt: finishedAt,
          finishedAt,
          reportEnc: cipher.encrypt(JSON.stringify(writeReport(exam, finishedAt))),
        })
        .onConflictDoNothing()
    },
  }
}
