/**
 * The demo people's reports in the sandbox HIS (README, demo people): months of lab panels with a trend to read
 * (王小明's liver enzymes and blood sugar rising, 孙建国's blood sugar), a chest CT and an abdominal ultrasound, and a
 * gastric biopsy. Seeded once per demo palm hospital.
 */
import { count, eq } from 'drizzle-orm'
import type { Db } from '../db'
import type { FieldCipher } from '../crypto'
import { hisReports } from '../db/schema'
import { sandboxHis } from '../plugins/providers/hisSandbox'
import { SANDBOX_HEALTH_CARD_HOLDERS } from '../plugins/providers/healthCard'
import { SANDBOX_INSURED } from '../plugins/providers/insurance'

const person = (name: string, idCard: string) => ({ name, idCard })
const zhang = person('张三丰', '11010519800512001X')
const li = person('李秀英', '440305199208170027')
const wang = SANDBOX_HEALTH_CARD_HOLDERS[0]!
const sun = SANDBOX_INSURED[0]!

interface DemoReport {
  who: { name: string; idCard: string }
  template: string
  daysAgo: number
  abnormal?: boolean
  values?: Record<string, string>
  doctor: string
}

const DEMO_REPORTS: DemoReport[] = [
  { who: wang, template: 'cbc', daysAgo: 150, doctor: '李建华' },
  { who: wang, template: 'cbc', daysAgo: 90, doctor: '李建华', values: { WBC: '7.10', 'NEUT%': '61.2' } },
  { who: wang, template: 'cbc', daysAgo: 40, doctor: '李建华', values: { WBC: '8.65', 'NEUT%': '72.4' } },
  { who: wang, template: 'liver', daysAgo: 120, doctor: '李建华', values: { ALT: '38', AST: '29', GGT: '45' } },
  { who: wang, template: 'liver', daysAgo: 60, doctor: '李建华', values: { ALT: '56', AST: '37', GGT: '63' } },
  { who: wang, template: 'liver', daysAgo: 12, abnormal: true, doctor: '李建华' },
  { who: wang, template: 'glucose', daysAgo: 150, doctor: '李建华', values: { GLU: '5.62', HBA1C: '5.8' } },
  { who: wang, template: 'glucose', daysAgo: 75, doctor: '李建华', values: { GLU: '6.38', HBA1C: '6.3' } },
  { who: wang, template: 'glucose', daysAgo: 12, abnormal: true, doctor: '李建华' },
  { who: wang, template: 'lipid', daysAgo: 90, doctor: '李建华' },
  { who: wang, template: 'lipid', daysAgo: 12, abnormal: true, doctor: '李建华' },
  { who: wang, template: 'chest-ct', daysAgo: 30, abnormal: true, doctor: '李建华' },
  { who: wang, template: 'abdomen-us', daysAgo: 12, abnormal: true, doctor: '李建华' },
  { who: wang, template: 'gastric-biopsy', daysAgo: 20, doctor: '王静' },
  { who: zhang, template: 'cbc', daysAgo: 60, doctor: '陈明' },
  { who: zhang, template: 'cbc', daysAgo: 2, abnormal: true, doctor: '陈明' },
  { who: zhang, template: 'chest-ct', daysAgo: 2, doctor: '陈明' },
  { who: li, template: 'cbc', daysAgo: 30, doctor: '赵丽' },
  { who: li, template: 'abdomen-us', daysAgo: 5, doctor: '赵丽' },
  { who: sun, template: 'glucose', daysAgo: 180, doctor: '周强', values: { GLU: '6.9', HBA1C: '6.8' } },
  { who: sun, template: 'glucose', daysAgo: 90, doctor: '周强', values: { GLU: '8.12', HBA1C: '7.6' } },
  { who: sun, template: 'glucose', daysAgo: 7, doctor: '周强', values: { GLU: '7.05', HBA1C: '7.0' } },
  { who: sun, template: 'liver', daysAgo: 7, doctor: '周强' },
]

/** The demo people's reports at a demo palm hospital that has none yet. */
export async function seedReports(db: Db, cipher: FieldCipher, hospitalCode: string, now = new Date()): Promise<void> {
  const [has] = await db.select({ n: count() }).from(hisReports).where(eq(hisReports.hospitalCode, hospitalCode))
  if ((has?.n ?? 0) > 0) return
  const his = sandboxHis(db, cipher)
  for (const r of DEMO_REPORTS) {
    const at = new Date(now.getTime() - r.daysAgo * 86_400_000)
    await his.releaseReport(
      { hospitalCode, patient: { cardNo: null, idCard: r.who.idCard, name: r.who.name }, template: r.template, doctorName: r.doctor, abnormal: r.abnormal ?? false, values: r.values },
      at,
    )
  }
}
