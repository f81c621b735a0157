/**
 * The sandbox HIS's examination devices and nucleic-acid tests of a demo palm hospital (issue 18), and one paid
 * examination waiting for its appointment: 王小明's 上腹部CT at 10392, paid at the window (README, demo people).
 * Seeded once per hospital.
 */
import { and, count, eq } from 'drizzle-orm'
import type { Db } from '../db'
import type { FieldCipher } from '../crypto'
import { hisBills, hisExamDevices, hisNucleicKinds, type hospitals } from '../db/schema'
import { sandboxHis } from '../plugins/providers/hisSandbox'
import { DEMO_DEVICES, DEMO_NUCLEIC_KINDS } from '../plugins/providers/hisSandboxMedTech'
import { SANDBOX_HEALTH_CARD_HOLDERS } from '../plugins/providers/healthCard'
import { hospitalToday } from '../domain/register/rules'

interface CatalogueItem {
  code: string
  name: string
  spec: string
}

/** The examination paid at the window that waits for an appointment, per hospital: [item name, spec]. */
const DEMO_PAID_EXAMS: Record<string, [string, string][]> = { '10392': [['上腹部CT', '平扫']] }

export async function seedMedTech(db: Db, cipher: FieldCipher, hospital: typeof hospitals.$inferSelect, catalogue: CatalogueItem[], now: Date): Promise<void> {
  const [has] = await db.select({ n: count() }).from(hisExamDevices).where(eq(hisExamDevices.hospitalCode, hospital.code))
  if ((has?.n ?? 0) > 0) return
  await db.insert(hisExamDevices).values(DEMO_DEVICES.map((d, i) => ({ ...d, hospitalCode: hospital.code, sort: i + 1 }))).onConflictDoNothing()
  await db.insert(hisNucleicKinds).values(DEMO_NUCLEIC_KINDS.map((k, i) => ({ ...k, hospitalCode: hospital.code, sort: i + 1 }))).onConflictDoNothing()
  const exams = DEMO_PAID_EXAMS[hospital.code]
  if (!exams) return
  const wang = SANDBOX_HEALTH_CARD_HOLDERS[0]!
  const items = exams.map(([name, spec]) => {
    const found = catalogue.find((c) => c.name === name && c.spec === spec)
    if (!found) throw new Error(`seed: no catalogue item ${name} ${spec}`)
    return { code: found.code, quantity: 1 }
  })
  const visitDate = hospitalToday(now)
  const bills = await sandboxHis(db, cipher).issueOrders(
    {
      hospitalCode: hospital.code,
      patient: { cardNo: null, idCard: wang.idCard, name: wang.name },
      visitNo: `MZ${visitDate.replace(/-/g, '')}0901`,
      visitDate,
      deptName: '消化内科',
      doctorName: '门诊医生',
      items,
    },
    now,
  )
  for (const b of bills) {
    await db
      .update(hisBills)
      .set({ status: 'paid', orderNo: `WINDOW${b.billNo}`, paidAt: now })
      .where(and(eq(hisBills.hospitalCode, hospital.code), eq(hisBills.billNo, b.billNo)))
  }
}
