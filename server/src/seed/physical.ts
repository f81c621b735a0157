/**
 * The demo hospitals' physical-exam centre: a past exam of 张三丰 and of 李秀英 (the identity-card photos' people) at
 * 10392, finished with its report out, so that 体检报告 has something to read before anyone books.
 */
import { and, count, eq } from 'drizzle-orm'
import type { Db } from '../db'
import type { FieldCipher } from '../crypto'
import { hisPhysicalExams } from '../db/schema'
import { sandboxHis } from '../plugins/providers/hisSandbox'
import { addDays, hospitalToday } from '../domain/register/rules'

const DEMO_EXAMS = [
  { name: '张三丰', idCard: '11010519800512001X', sex: 1 as const, birthday: '1980-05-12', packageCode: 'TJ04', examNo: 'TDEMO0000000000001', daysAgo: 30 },
  { name: '李秀英', idCard: '440305199208170027', sex: 2 as const, birthday: '1992-08-17', packageCode: 'TJ06', examNo: 'TDEMO0000000000002', daysAgo: 60 },
]

export async function seedPhysical(db: Db, cipher: FieldCipher, hospitalCode: string, now = new Date()): Promise<void> {
  if (hospitalCode !== '10392') return
  const [has] = await db.select({ n: count() }).from(hisPhysicalExams).where(and(eq(hisPhysicalExams.hospitalCode, hospitalCode)))
  if ((has?.n ?? 0) > 0) return
  const his = sandboxHis(db, cipher)
  for (const e of DEMO_EXAMS) {
    const date = addDays(hospitalToday(now), -e.daysAgo)
    const finishedAt = new Date(`${addDays(date, 3)}T02:00:00Z`)
    await his.physicalSeedFinished(
      { hospitalCode, patient: { cardNo: null, idCard: e.idCard, name: e.name }, sex: e.sex, birthday: e.birthday, examNo: e.examNo, packageCode: e.packageCode, date },
      finishedAt,
    )
  }
}
