/**
 * The workbench accounts of the demo hospitals (README, demo people): one per online doctor and per physician
 * assistant, with the password from STAFF_DEMO_PASSWORD (config.ts). Logins are hospital work numbers: the hospital
 * code and the doctor's place among its online doctors (10392001, 10392002 ...), assistants with an A (10392A01),
 * pharmacists with a P (10392P01).
 * Runs at every start and creates only the accounts missing; a password set once is kept.
 */
import { asc, eq, inArray } from 'drizzle-orm'
import type { Db } from '../db'
import { hospitals, onlineDoctors, pharmacists, physicianAssistants, staffAccounts } from '../db/schema'
import { createStaffAccount, type StaffAccountInput } from '../domain/staff'

export const doctorLogin = (hospitalCode: string, place: number) => `${hospitalCode}${String(place).padStart(3, '0')}`
export const assistantLogin = (hospitalCode: string, place: number) => `${hospitalCode}A${String(place).padStart(2, '0')}`
export const pharmacistLogin = (hospitalCode: string, place: number) => `${hospitalCode}P${String(place).padStart(2, '0')}`

export async function seedStaff(db: Db, password: string | null) {
  if (!password) return
  const [docs, assistants, druggists, existing] = await Promise.all([
    db
      .select({ doctorId: onlineDoctors.doctorId, code: hospitals.code })
      .from(onlineDoctors)
      .innerJoin(hospitals, eq(hospitals.id, onlineDoctors.hospitalId))
      .orderBy(asc(hospitals.code), asc(onlineDoctors.sort), asc(onlineDoctors.doctorId)),
    db
      .select({ assistantId: physicianAssistants.id, code: hospitals.code })
      .from(physicianAssistants)
      .innerJoin(hospitals, eq(hospitals.id, physicianAssistants.hospitalId))
      .orderBy(asc(hospitals.code), asc(physicianAssistants.sort), asc(physicianAssistants.id)),
    db
      .select({ pharmacistId: pharmacists.id, code: hospitals.code })
      .from(pharmacists)
      .innerJoin(hospitals, eq(hospitals.id, pharmacists.hospitalId))
      .orderBy(asc(hospitals.code), asc(pharmacists.id)),
    db.select({ doctorId: staffAccounts.doctorId, assistantId: staffAccounts.assistantId, pharmacistId: staffAccounts.pharmacistId }).from(staffAccounts),
  ])
  const hasDoctor = new Set(existing.map((e) => e.doctorId))
  const hasAssistant = new Set(existing.map((e) => e.assistantId))
  const hasPharmacist = new Set(existing.map((e) => e.pharmacistId))
  const place = new Map<string, number>()
  const next = (key: string) => {
    const n = (place.get(key) ?? 0) + 1
    place.set(key, n)
    return n
  }
  const wanted: StaffAccountInput[] = []
  for (const d of docs) {
    const login = doctorLogin(d.code, next(`d${d.code}`))
    if (!hasDoctor.has(d.doctorId)) wanted.push({ kind: 'doctor', doctorId: d.doctorId, login, password })
  }
  for (const a of assistants) {
    const login = assistantLogin(a.code, next(`a${a.code}`))
    if (!hasAssistant.has(a.assistantId)) wanted.push({ kind: 'assistant', assistantId: a.assistantId, login, password })
  }
  for (const p of druggists) {
    const login = pharmacistLogin(p.code, next(`p${p.code}`))
    if (!hasPharmacist.has(p.pharmacistId)) wanted.push({ kind: 'pharmacist', pharmacistId: p.pharmacistId, login, password })
  }
  if (!wanted.length) return
  // a login taken by another account (a doctor added later out of order) is skipped, never moved
  const taken = new Set((await db.select({ login: staffAccounts.login }).from(staffAccounts).where(inArray(staffAccounts.login, wanted.map((w) => w.login)))).map((r) => r.login))
  // scrypt runs on libuv's thread pool: a few at a time
  const todo = wanted.filter((w) => !taken.has(w.login))
  for (let i = 0; i < todo.length; i += 4) await Promise.all(todo.slice(i, i + 4).map((w) => createStaffAccount(db, w)))
}
