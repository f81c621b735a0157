/**
 * The audit log of health data and money (server/src/domain/audit.ts): `GET /dld-palm/admin/audit` for administrators,
 * and the patient's own 访问记录 (`GET /dld-user/user/access-log`): who at the hospital opened their records. Both
 * are this server's own additions; the spec lists neither.
 */

/** One row as an administrator searches it. */
export interface AuditEntry {
  id: number
  at: string
  actorKind: 'patient' | 'staff' | 'admin'
  actorId: number
  action: 'read' | 'change'
  subject: string
  route: string
  patientId: number | null
  userId: number | null
  address: string
  requestId: string
}

/** One row of a patient's 访问记录. */
export interface AccessRecord {
  id: number
  at: string
  /** e.g. 姚秀英医生, 林晓雯（医生助理）, 医院管理员 */
  who: string
  /** e.g. 查看了病历 */
  what: string
}
