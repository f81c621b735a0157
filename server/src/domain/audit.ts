/**
 * The audit log of health data and money (audit_log): every read and change of a patient's data through a call that
 * declares `audit` (route.ts), by the patient, a doctor at the workbench or an administrator, and every chat history
 * read. Rows are only ever added. Administrators search it by patient and by actor; a patient sees who at the hospital
 * opened their records (访问记录).
 */
import { and, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm'
import type { AccessRecord, AuditEntry } from '../../../types/api/audit'
import type { Page } from '../../../types/api/hospital'
import type { Db, Tx } from '../db'
import { auditLog, doctors, inquiries, patients, physicianAssistants, staffAccounts } from '../db/schema'

/** What kind of data a call touches; the patient's 访问记录 names it in Chinese. */
export const AUDIT_SUBJECTS = {
  patient: '就诊人信息',
  escort: '陪护人信息',
  medical_record: '病历',
  consultation: '问诊记录',
  chat: '聊天记录',
  registration: '挂号记录',
  payment: '支付记录',
  insurance: '医保信息',
  account: '账号信息',
  report: '检查检验报告',
  physical: '体检记录',
  medtech: '医技预约',
  nucleic: '核酸检测',
  prescription: '处方',
} as const
export type AuditSubject = keyof typeof AUDIT_SUBJECTS

export interface Actor {
  kind: 'patient' | 'staff' | 'admin'
  id: number
}

export interface AuditEvent {
  actor: Actor
  action: 'read' | 'change'
  subject: AuditSubject
  route: string
  /** The patients whose data it was (none: the account's own, in `userId`). */
  patientIds: number[]
  userId?: number | null
  address: string
  requestId: string
}

/** Appends one row per patient touched (one row when none is named). */
export async function recordAudit(db: Tx, e: AuditEvent): Promise<void> {
  const base = { actorKind: e.actor.kind, actorId: e.actor.id, action: e.action, subject: e.subject, route: e.route, userId: e.userId ?? null, address: e.address, requestId: e.requestId }
  const ids = [...new Set(e.patientIds)]
  await db.insert(auditLog).values(ids.length ? ids.map((patientId) => ({ ...base, patientId })) : [{ ...base, patientId: null }])
}

/**
 * The patients an answer is about: every `patientId` in it (an object, a list, or a page's `list`), looked for three
 * levels deep; in a patient answer an object without one is a patient itself, and its `id` counts (a hospital card
 * or a record-info answer names its patient as `patientId`).
 */
export function patientIdsIn(subject: AuditSubject, data: unknown): number[] {
  const ids: number[] = []
  const walk = (value: unknown, depth: number) => {
    if (depth > 3 || !value || typeof value !== 'object') return
    if (Array.isArray(value)) return value.forEach((v) => walk(v, depth + 1))
    const o = value as Record<string, unknown>
    const own = subject === 'patient' && o.patientId === undefined ? o.id : o.patientId
    if (typeof own === 'number') ids.push(own)
    for (const v of Object.values(o)) if (v && typeof v === 'object') walk(v, depth + 1)
  }
  walk(data, 0)
  return ids
}

/** The patients of consultations, for the workbench's answers, which name the patient only masked. */
export async function inquiryPatients(db: Db, inquiryIds: number[]): Promise<number[]> {
  if (!inquiryIds.length) return []
  const rows = await db.select({ patientId: inquiries.patientId }).from(inquiries).where(inArray(inquiries.id, inquiryIds))
  return rows.map((r) => r.patientId)
}

export const AUDIT_PAGE_SIZE = 20
/** The most rows of 访问记录 one page may ask for. */
export const ACCESS_PAGE_MAX = 50

/** GET /dld-palm/admin/audit: an administrator's search by patient and/or actor, newest first. */
export async function searchAudit(
  db: Db,
  q: { patientId?: number; actorKind?: Actor['kind']; actorId?: number; page: number },
): Promise<{ total: number; list: AuditEntry[] }> {
  const where: SQL[] = []
  if (q.patientId) where.push(eq(auditLog.patientId, q.patientId))
  if (q.actorKind) where.push(eq(auditLog.actorKind, q.actorKind))
  if (q.actorId) where.push(eq(auditLog.actorId, q.actorId))
  const condition = where.length ? and(...where) : undefined
  const [count] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(auditLog).where(condition)
  const rows = await db
    .select()
    .from(auditLog)
    .where(condition)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE)
    .offset((q.page - 1) * AUDIT_PAGE_SIZE)
  return {
    total: count?.n ?? 0,
    list: rows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      actorKind: r.actorKind,
      actorId: r.actorId,
      action: r.action,
      subject: r.subject,
      route: r.route,
      patientId: r.patientId,
      userId: r.userId,
      address: r.address,
      requestId: r.requestId,
    })),
  }
}

/**
 * The patient's 访问记录: who at the hospital (a doctor or an assistant at the workbench, an administrator) read or
 * changed the data of the account's patients or the account's own chat, newest first. The patient's own reads are
 * not listed: they are the patient's.
 */
export async function accessRecords(db: Db, userId: number, q: { page: number; size: number }): Promise<Page<AccessRecord>> {
  const mine = db.select({ id: patients.id }).from(patients).where(eq(patients.userId, userId))
  const condition = and(inArray(auditLog.actorKind, ['staff', 'admin']), or(inArray(auditLog.patientId, mine), eq(auditLog.userId, userId)))
  const [count] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(auditLog).where(condition)
  const rows = await db
    .select({
      id: auditLog.id,
      at: auditLog.at,
      actorKind: auditLog.actorKind,
      action: auditLog.action,
      subject: auditLog.subject,
      doctorName: doctors.name,
      assistantName: physicianAssistants.name,
    })
    .from(auditLog)
    .leftJoin(staffAccounts, and(eq(auditLog.actorKind, 'staff'), eq(staffAccounts.id, auditLog.actorId)))
    .leftJoin(doctors, eq(doctors.id, staffAccounts.doctorId))
    .leftJoin(physicianAssistants, eq(physicianAssistants.id, staffAccounts.assistantId))
    .where(condition)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(q.size)
    .offset((q.page - 1) * q.size)
  return {
    total: count?.n ?? 0,
    page: q.page,
    size: q.size,
    records: rows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      who: r.actorKind === 'admin' ? '医院管理员' : r.doctorName ? `${r.doctorName}医生` : r.assistantName ? `${r.assistantName}（医生助理）` : '医院工作人员',
      what: `${r.action === 'read' ? '查看了' : '修改了'}${AUDIT_SUBJECTS[r.subject as AuditSubject] ?? '信息'}`,
    })),
  }
}
