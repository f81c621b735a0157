/**
 * The internet hospital's demo doctors: some registration doctors of each hospital with the internet service
 * (10392, 10412, aixin) also consult online, with a service level, reply time, price of 图文问诊, served count, good rate
 * and whether they accept consultations now; two physician assistants per such hospital; the hospitals' city.
 * Deterministic (seeded from names, not ids), and each part skipped once done.
 */
import { and, asc, eq, inArray } from 'drizzle-orm'
import type { Db } from '../db'
import { departments, doctors, hospitals, onlineDoctorServices, onlineDoctors, physicianAssistants } from '../db/schema'
import { generator } from './register'

/** Online doctors per hospital, one or two per department in the hospital's order until the number is reached. */
const ONLINE_PER_HOSPITAL: Record<string, number> = { '10392': 8, '10412': 10, aixin: 5 }
const CITY: Record<string, string> = { '10392': '示范市', '10412': '示范市', '10388': '示范市', '10387': '示范市', aixin: '示范市' }
const ASSISTANTS: Record<string, string[]> = { '10392': ['林晓雯', '周思琪'], '10412': ['陈佳怡', '吴雨桐'], aixin: ['何心怡'] }

/** 图文问诊 prices by title, in fen: free consultations exist (义诊), experts cost up to ¥50. */
const PRICES: Record<string, number[]> = {
  主任医师: [3000, 4000, 5000],
  副主任医师: [1500, 2000, 3000],
  主治医师: [500, 800, 1000],
  医师: [0, 300, 500],
}
const LEVELS: Record<string, number[]> = { 主任医师: [4.5, 5], 副主任医师: [4, 4.5, 5], 主治医师: [3.5, 4, 4.5], 医师: [3, 3.5, 4] }
/** 2 minutes to 8 hours. */
const REPLY_SECONDS = [120, 300, 600, 900, 1800, 2700, 3600, 7200, 14400, 28800]

async function seedHospitalDoctors(db: Db, hospital: typeof hospitals.$inferSelect) {
  const [done] = await db.select({ id: onlineDoctors.doctorId }).from(onlineDoctors).where(eq(onlineDoctors.hospitalId, hospital.id)).limit(1)
  if (done) return
  const want = ONLINE_PER_HOSPITAL[hospital.code] ?? 0
  const rows = await db
    .select({ doctor: doctors })
    .from(doctors)
    .innerJoin(departments, eq(departments.id, doctors.deptId))
    .where(eq(doctors.hospitalId, hospital.id))
    .orderBy(asc(departments.sort), asc(departments.id), asc(doctors.sort), asc(doctors.id))
  // the department's first two doctors (the most senior), department after department
  const byDept = new Map<number, (typeof doctors.$inferSelect)[]>()
  for (const { doctor } of rows) byDept.set(doctor.deptId, [...(byDept.get(doctor.deptId) ?? []), doctor])
  const chosen: (typeof doctors.$inferSelect)[] = []
  for (const list of byDept.values()) {
    const rnd = generator(`online:${hospital.code}:${list[0]!.name}`)
    chosen.push(...list.slice(0, 1 + rnd.int(2)))
    if (chosen.length >= want) break
  }
  const picked = chosen.slice(0, want)
  if (picked.length === 0) return
  await db.transaction(async (tx) => {
    await tx.insert(onlineDoctors).values(
      picked.map((d, i) => {
        const rnd = generator(`online:${hospital.code}:${d.name}`)
        return {
          doctorId: d.id,
          hospitalId: hospital.id,
          level: rnd.pick(LEVELS[d.title] ?? [4]),
          avgReplySeconds: rnd.pick(REPLY_SECONDS),
          servedCount: 20 + rnd.int(d.title === '主任医师' ? 5000 : 1500),
          goodRate: 90 + rnd.int(11),
          // about one in four is not accepting consultations now
          online: i % 4 !== 3,
          sort: i,
        }
      }),
    )
    await tx.insert(onlineDoctorServices).values(
      picked.map((d) => ({ doctorId: d.id, type: 'text' as const, priceFen: generator(`price:${hospital.code}:${d.name}`).pick(PRICES[d.title] ?? [1000]) })),
    )
  })
}

/** The internet hospitals' online doctors, assistants and cities; runs at every start, each part once. */
export async function seedInternet(db: Db) {
  const rows = await db.select().from(hospitals).where(inArray(hospitals.code, Object.keys(CITY)))
  for (const hospital of rows) {
    if (!hospital.city && CITY[hospital.code]) await db.update(hospitals).set({ city: CITY[hospital.code]! }).where(and(eq(hospitals.id, hospital.id), eq(hospitals.city, '')))
    if (!hospital.isInternet) continue
    await seedHospitalDoctors(db, hospital)
    const [hasAssistants] = await db.select({ id: physicianAssistants.id }).from(physicianAssistants).where(eq(physicianAssistants.hospitalId, hospital.id)).limit(1)
    const names = ASSISTANTS[hospital.code] ?? []
    if (!hasAssistants && names.length) await db.insert(physicianAssistants).values(names.map((name, sort) => ({ hospitalId: hospital.id, name, sort })))
  }
}
