/**
 * The sandbox HIS's reports (检验, 检查, 病理): the report templates its laboratory, radiology and pathology release
 * (the workbench console releases one for a patient's visit; the demo seed releases months of them), and the
 * provider's two report calls over the his_reports tables.
 */
import { randomInt } from 'node:crypto'
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm'
import type { Db } from '../../db'
import type { FieldCipher } from '../../crypto'
import { hisReportItems, hisReports } from '../../db/schema'
import { badInput } from '../../errors'
import { labFlag } from '@/utils/reportRules'
import { hospitalToday } from '@/utils/hospitalClock'
import type { HisLabItem, HisPatient, HisProvider, HisReport, HisReportKind, HisReportSummary } from './his'

/** One item a lab panel measures: its reference range and a typical value. */
export interface LabItemTemplate {
  code: string
  name: string
  unit: string
  low: number
  high: number
  /** A value within the range, and one the panel shows when released abnormal (null: stays normal). */
  normal: number
  abnormal: number | null
  digits: number
}

export interface ReportTemplate {
  key: string
  kind: HisReportKind
  title: string
  deptName: string
  specimen: string
  items?: LabItemTemplate[]
  modality?: string
  examPart?: string
  device?: string
  findings?: string
  impression?: string
  /** Imaging released abnormal: its own findings and impression. */
  abnormalFindings?: string
  abnormalImpression?: string
}

const item = (code: string, name: string, unit: string, low: number, high: number, normal: number, abnormal: number | null, digits = 1): LabItemTemplate => ({
  code,
  name,
  unit,
  low,
  high,
  normal,
  abnormal,
  digits,
})

/** What the sandbox's departments release; the console names them by key. */
export const REPORT_TEMPLATES: readonly ReportTemplate[] = [
  {
    key: 'cbc',
    kind: 'lab',
    title: '血常规（五分类）',
    deptName: '检验科',
    specimen: '静脉血',
    items: [
      item('WBC', '白细胞计数', '10^9/L', 3.5, 9.5, 6.2, 11.8, 2),
      item('NEUT%', '中性粒细胞百分比', '%', 40, 75, 58.3, 82.6),
      item('LYMPH%', '淋巴细胞百分比', '%', 20, 50, 31.5, 12.4),
      item('RBC', '红细胞计数', '10^12/L', 4.3, 5.8, 4.85, 4.62, 2),
      item('HGB', '血红蛋白', 'g/L', 130, 175, 146, 121, 0),
      item('PLT', '血小板计数', '10^9/L', 125, 350, 228, 236, 0),
    ],
  },
  {
    key: 'liver',
    kind: 'lab',
    title: '肝功能',
    deptName: '检验科',
    specimen: '血清',
    items: [
      item('ALT', '丙氨酸氨基转移酶', 'U/L', 9, 50, 32, 78, 0),
      item('AST', '天门冬氨酸氨基转移酶', 'U/L', 15, 40, 26, 52, 0),
      item('GGT', 'γ-谷氨酰转移酶', 'U/L', 10, 60, 35, 88, 0),
      item('TBIL', '总胆红素', 'μmol/L', 0, 26, 14.2, 15.1),
      item('ALB', '白蛋白', 'g/L', 40, 55, 45.6, 44.8),
    ],
  },
  {
    key: 'glucose',
    kind: 'lab',
    title: '血糖',
    deptName: '检验科',
    specimen: '静脉血',
    items: [item('GLU', '空腹血糖', 'mmol/L', 3.9, 6.1, 5.4, 7.6, 2), item('HBA1C', '糖化血红蛋白', '%', 4, 6, 5.6, 7.1)],
  },
  {
    key: 'lipid',
    kind: 'lab',
    title: '血脂四项',
    deptName: '检验科',
    specimen: '血清',
    items: [
      item('TC', '总胆固醇', 'mmol/L', 2.8, 5.2, 4.6, 6.3, 2),
      item('TG', '甘油三酯', 'mmol/L', 0.45, 1.7, 1.2, 2.4, 2),
      item('HDL-C', '高密度脂蛋白胆固醇', 'mmol/L', 1.04, 2.2, 1.35, 0.92, 2),
      item('LDL-C', '低密度脂蛋白胆固醇', 'mmol/L', 0, 3.4, 2.7, 4.1, 2),
    ],
  },
  {
    key: 'chest-ct',
    kind: 'imaging',
    title: '胸部CT平扫',
    deptName: '放射科',
    specimen: '',
    modality: 'CT',
    examPart: '胸部',
    device: 'Siemens SOMATOM go.Up 64排螺旋CT',
    findings: '胸廓对称，气管居中。双肺纹理清晰，肺野内未见明显实质性病变。双侧肺门不大，纵隔内未见肿大淋巴结。心影大小、形态未见异常。双侧胸腔未见积液。',
    impression: '胸部CT平扫未见明显异常。',
    abnormalFindings:
      '胸廓对称，气管居中。右肺上叶尖段见一磨玻璃密度结节，大小约6mm×5mm，边界清楚。余肺野未见实质性病变。纵隔内未见肿大淋巴结。双侧胸腔未见积液。',
    abnormalImpression: '右肺上叶磨玻璃结节（约6mm），建议6-12个月复查胸部CT。',
  },
  {
    key: 'abdomen-us',
    kind: 'imaging',
    title: '腹部彩色超声（肝胆胰脾）',
    deptName: '超声科',
    specimen: '',
    modality: 'US',
    examPart: '肝、胆、胰、脾',
    device: 'GE LOGIQ E9 彩色多普勒超声诊断仪',
    findings: '肝脏大小形态正常，包膜光整，实质回声均匀。胆囊大小正常，壁光滑，腔内未见异常回声。胰腺、脾脏大小形态正常，回声均匀。',
    impression: '肝、胆、胰、脾未见明显异常。',
    abnormalFindings: '肝脏大小正常，实质回声细密增强，后方回声衰减，肝内管道显示欠清。胆囊大小正常，腔内未见异常回声。胰腺、脾脏未见异常。',
    abnormalImpression: '轻度脂肪肝。',
  },
  {
    key: 'gastric-biopsy',
    kind: 'pathology',
    title: '胃镜活检病理',
    deptName: '病理科',
    specimen: '胃窦黏膜组织',
    findings: '送检灰白色碎组织3粒，直径0.2-0.3cm。镜下见胃窦黏膜慢性炎细胞浸润，固有腺体未见减少，局灶见中性粒细胞浸润，未见肠上皮化生及异型增生。',
    impression: '（胃窦）慢性非萎缩性胃炎，轻度活动性；幽门螺杆菌（+）。',
    abnormalFindings: '送检灰白色碎组织3粒，直径0.2-0.3cm。镜下见胃窦黏膜慢性炎细胞浸润，部分腺体肠上皮化生，局灶腺体轻度异型增生。',
    abnormalImpression: '（胃窦）慢性萎缩性胃炎伴肠上皮化生，局灶低级别上皮内瘤变，建议定期复查胃镜。',
  },
]

export const templateOf = (key: string) => REPORT_TEMPLATES.find((t) => t.key === key)

/** Releasing a report: a template for a patient, normal or abnormal, optionally with the lab's own values. */
export interface HisReleaseInput {
  hospitalCode: string
  patient: HisPatient
  template: string
  doctorName: string
  abnormal: boolean
  /** Lab item code -> value as written (wins over the template's values). */
  values?: Record<string, string>
  /** When the test was ordered (default an hour before release). */
  requestedAt?: Date
}

const PREFIX: Record<HisReportKind, string> = { lab: 'L', imaging: 'I', pathology: 'P' }
const REPORTERS: Record<HisReportKind, [string, string]> = { lab: ['周敏', '陈立华'], imaging: ['刘宏', '赵建新'], pathology: ['孙雅琴', '吴国平'] }

const fixed = (n: number, digits: number) => n.toFixed(digits)
const rangeText = (t: LabItemTemplate) => (t.low === 0 ? `<${fixed(t.high, t.digits)}` : `${fixed(t.low, t.digits)}-${fixed(t.high, t.digits)}`)

/** The sandbox's report calls and its release, over his_reports; `patientKey` is the sandbox HIS's own key of a patient. */
export function sandboxReports(db: Db, cipher: FieldCipher, patientKey: (hospitalCode: string, p: HisPatient) => string | null) {
  type Row = typeof hisReports.$inferSelect
  const summaryOf = (r: Row, abnormalCount: number): HisReportSummary => ({
    reportNo: r.reportNo,
    kind: r.kind,
    title: r.title,
    deptName: r.deptName,
    reportedAt: r.reportedAt.toISOString(),
    abnormalCount,
  })
  async function abnormalCounts(ids: number[]) {
    if (!ids.length) return new Map<number, number>()
    const rows = await db
      .select({ reportId: hisReportItems.reportId, n: count() })
      .from(hisReportItems)
      .where(and(inArray(hisReportItems.reportId, ids), inArray(hisReportItems.flag, ['H', 'L'])))
      .groupBy(hisReportItems.reportId)
    return new Map(rows.map((r) => [r.reportId, r.n]))
  }
  async function whole(rows: Row[]): Promise<HisReport[]> {
    if (!rows.length) return []
    const items = await db
      .select()
      .from(hisReportItems)
      .where(inArray(hisReportItems.reportId, rows.map((r) => r.id)))
      .orderBy(asc(hisReportItems.reportId), asc(hisReportItems.sort))
    return rows.map((r) => {
      const own: HisLabItem[] = items
        .filter((i) => i.reportId === r.id)
        .map((i) => ({ code: i.code, name: i.name, value: i.value, unit: i.unit, range: i.range, low: i.low, high: i.high, flag: i.flag }))
      return {
        ...summaryOf(r, own.filter((i) => i.flag === 'H' || i.flag === 'L').length),
        doctorName: r.doctorName,
        reporterName: r.reporterName,
        checkerName: r.checkerName,
        requestedAt: r.requestedAt.toISOString(),
        specimen: r.specimen,
        modality: r.modality,
        examPart: r.examPart,
        device: r.device,
        findings: r.findings,
        impression: r.impression,
        studyUid: r.studyUid,
        items: own,
      }
    })
  }

  const calls: Pick<HisProvider, 'reports' | 'reportsByNo'> = {
    async reports({ hospitalCode, patient, kind, page, size }) {
      const key = patientKey(hospitalCode, patient)
      if (!key) return { records: [], total: 0 }
      const where = and(eq(hisReports.hospitalCode, hospitalCode), eq(hisReports.patientKey, key), eq(hisReports.kind, kind))
      const [total] = await db.select({ n: count() }).from(hisReports).where(where)
      const rows = await db
        .select()
        .from(hisReports)
        .where(where)
        .orderBy(desc(hisReports.reportedAt), desc(hisReports.id))
        .limit(size)
        .offset((page - 1) * size)
      const counts = await abnormalCounts(rows.map((r) => r.id))
      return { records: rows.map((r) => summaryOf(r, counts.get(r.id) ?? 0)), total: total?.n ?? 0 }
    },
    async reportsByNo({ hospitalCode, patient, reportNos }) {
      const key = patientKey(hospitalCode, patient)
      if (!key || !reportNos.length) return []
      const rows = await db
        .select()
        .from(hisReports)
        .where(and(eq(hisReports.hospitalCode, hospitalCode), eq(hisReports.patientKey, key), inArray(hisReports.reportNo, reportNos)))
        .orderBy(desc(hisReports.reportedAt), desc(hisReports.id))
      return whole(rows)
    },
  }

  /** The laboratory, radiology or pathology releases a report for the patient (the console, the demo seed). */
  async function releaseReport(input: HisReleaseInput, now = new Date()): Promise<HisReport> {
    const template = templateOf(input.template)
    if (!template) throw badInput('报告类型不存在')
    const key = patientKey(input.hospitalCode, input.patient)
    if (!key) throw badInput('该就诊人没有证件号码或就诊卡号，医院系统无法识别')
    const reportNo = `${PREFIX[template.kind]}${hospitalToday(now).replace(/-/g, '')}${String(randomInt(1e10)).padStart(10, '0')}`
    const [reporter, checker] = REPORTERS[template.kind]
    const abnormal = input.abnormal
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(hisReports)
        .values({
          hospitalCode: input.hospitalCode,
          reportNo,
          patientKey: key,
          patientNameEnc: cipher.encrypt(input.patient.name),
          kind: template.kind,
          title: template.title,
          deptName: template.deptName,
          doctorName: input.doctorName,
          reporterName: reporter,
          checkerName: checker,
          specimen: template.specimen,
          modality: template.modality ?? '',
          examPart: template.examPart ?? '',
          device: template.device ?? '',
          findings: (abnormal ? template.abnormalFindings : template.findings) ?? '',
          impression: (abnormal ? template.abnormalImpression : template.impression) ?? '',
          studyUid: template.kind === 'imaging' ? `1.2.156.112605.${now.getTime()}.${randomInt(1e9)}` : '',
          requestedAt: input.requestedAt ?? new Date(now.getTime() - 3_600_000),
          reportedAt: now,
        })
        .returning({ id: hisReports.id })
      if (!template.items?.length) return
      await tx.insert(hisReportItems).values(
        template.items.map((t, sort) => {
          const written = input.values?.[t.code]
          const value = written ?? fixed(abnormal && t.abnormal !== null ? t.abnormal : t.normal, t.digits)
          return { reportId: row!.id, code: t.code, name: t.name, value, unit: t.unit, range: rangeText(t), low: t.low === 0 ? null : t.low, high: t.high, flag: labFlag(value, t.low === 0 ? null : t.low, t.high), sort }
        }),
      )
    })
    const [released] = await calls.reportsByNo({ hospitalCode: input.hospitalCode, patient: input.patient, reportNos: [reportNo] })
    return released!
  }

  return { ...calls, releaseReport }
}
