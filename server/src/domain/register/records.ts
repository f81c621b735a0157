/** The records (spec §2 Order pages, register): a registration as its patient sees it, the list and the detail. */
import { and, desc, eq, sql, type SQL } from 'drizzle-orm'
import type { Registration, RegistrationStatus } from '../../../../types/api/register'
import type { Page } from '../../../../types/api/hospital'
import type { Db, Tx } from '../../db'
import { open, type FieldCipher } from '../../crypto'
import { departments, doctors, hospitals, orders, patientCards, patients, registrations } from '../../db/schema'
import { forbidden, notFound } from '../../errors'
import { maskCardNo, maskName } from '@/utils/mask'
import { refundedFenByOrder, refundText, toPayOrder, type OrderRow } from '../payment'
import { requireHospitalByCode } from '../hospital'
import { GENERAL_CLINIC_NAME } from './schedule'
import { settingsOf, type RegisterSettings } from './settings'
import { MAX_PAGE_SIZE, SEGMENTS, cancelDeadline, weekOf } from './rules'

type RegistrationRow = typeof registrations.$inferSelect


const viewColumns = {
  reg: registrations,
  hospitalCode: hospitals.code,
  hospitalName: hospitals.name,
  deptName: departments.name,
  doctorName: doctors.name,
  doctorTitle: doctors.title,
  patientNameEnc: patients.nameEnc,
  cardNoEnc: patientCards.cardNoEnc,
  order: orders,
}

function viewQuery(db: Db | Tx) {
  return db
    .select(viewColumns)
    .from(registrations)
    .innerJoin(hospitals, eq(hospitals.id, registrations.hospitalId))
    .innerJoin(departments, eq(departments.id, registrations.deptId))
    .innerJoin(patients, eq(patients.id, registrations.patientId))
    .leftJoin(doctors, eq(doctors.id, registrations.doctorId))
    .leftJoin(patientCards, and(eq(patientCards.patientId, registrations.patientId), eq(patientCards.hospitalId, registrations.hospitalId)))
    .leftJoin(orders, eq(orders.id, registrations.orderId))
}
type ViewRow = Awaited<ReturnType<ReturnType<typeof viewQuery>['execute']>>[number]

/** 待支付 / 预约成功 / 已取消 / 已过期; a paid booking that was cancelled reads 退款中 until its money is back, then 已退款. */
function statusText(status: RegistrationStatus, order: OrderRow | null): string {
  switch (status) {
    case 'holding':
      return '待支付'
    case 'booked':
      return '预约成功'
    case 'expired':
      return '已过期'
    case 'cancelled':
      // the refund starts with the cancellation; a paid order under a cancelled booking means the provider refused it
      return refundText(order) ?? '已取消'
  }
}

/** Whether the patient may still cancel: a hold always; a booking until the hospital's deadline before the visit. */
function isCancellable(reg: RegistrationRow, settings: RegisterSettings, now: Date): boolean {
  if (reg.status === 'holding') return true
  if (reg.status === 'booked') return now.getTime() < cancelDeadline(reg.visitDate, settings.cancelTime).getTime()
  return false
}

/** What a registration's view is made of: its row, the names around it (plain) and its order. */
export interface ViewParts {
  reg: RegistrationRow
  hospitalCode: string
  hospitalName: string
  deptName: string
  doctorName: string | null
  doctorTitle: string | null
  patientName: string | null
  cardNo: string | null
  order: OrderRow | null
}

/** A registration as its patient sees it, from its parts (no database: a booking builds it from what it wrote). */
export function toView({ reg, order, ...r }: ViewParts, settings: RegisterSettings, refundedFen: number, now: Date): Registration {
  return {
    id: reg.id,
    regNo: reg.regNo,
    status: reg.status,
    statusText: statusText(reg.status, order),
    hospitalCode: r.hospitalCode,
    hospitalName: r.hospitalName,
    deptName: r.deptName,
    doctorName: r.doctorName ?? GENERAL_CLINIC_NAME,
    title: r.doctorTitle ?? '',
    registerType: reg.registerType,
    visitDate: reg.visitDate,
    week: weekOf(reg.visitDate),
    segment: reg.segment,
    segmentText: SEGMENTS[reg.segment].text,
    timeRange: reg.timeRange,
    seq: reg.seq,
    feeFen: reg.feeFen,
    patientId: reg.patientId,
    // spec §9: names and numbers masked
    patientName: maskName(r.patientName),
    hisMedCardNo: maskCardNo(r.cardNo),
    holdExpiresAt: reg.status === 'holding' && reg.holdExpiresAt ? reg.holdExpiresAt.toISOString() : null,
    cancellable: isCancellable(reg, settings, now),
    insurance: reg.insurance,
    order: order ? toPayOrder(order, refundedFen) : null,
    createdAt: reg.createdAt.toISOString(),
  }
}

async function toViews(db: Db | Tx, cipher: FieldCipher, rows: ViewRow[], now: Date): Promise<Registration[]> {
  const settings = await settingsOf(db, [...new Set(rows.map((r) => r.reg.hospitalId))])
  const refunded = await refundedFenByOrder(db, rows.flatMap((r) => (r.order ? [r.order.id] : [])))
  return rows.map(({ patientNameEnc, cardNoEnc, ...r }) =>
    toView(
      { ...r, patientName: open(cipher, patientNameEnc), cardNo: open(cipher, cardNoEnc) },
      settings.get(r.reg.hospitalId)!,
      r.order ? (refunded.get(r.order.id) ?? 0) : 0,
      now,
    ),
  )
}

export async function viewOf(db: Db | Tx, cipher: FieldCipher, id: number, now: Date): Promise<Registration> {
  const rows = await viewQuery(db).where(eq(registrations.id, id))
  const [view] = await toViews(db, cipher, rows, now)
  if (!view) throw notFound('预约')
  return view
}

/** The caller's registration, or 2999 with nothing revealed (someone else's and a missing one look the same). */
export async function requireOwnRegistration(db: Db | Tx, userId: number, id: number): Promise<RegistrationRow> {
  const [row] = await db
    .select()
    .from(registrations)
    .where(and(eq(registrations.id, id), eq(registrations.userId, userId)))
    .limit(1)
  if (!row) throw forbidden()
  return row
}

/** GET /register/detail. */
export async function registrationDetail(db: Db, cipher: FieldCipher, userId: number, id: number, now: Date): Promise<Registration> {
  await requireOwnRegistration(db, userId, id)
  return viewOf(db, cipher, id, now)
}

/** GET /register/list: the caller's registrations, newest first. */
export async function listRegistrations(
  db: Db,
  cipher: FieldCipher,
  userId: number,
  query: { hospitalCode?: string; status?: RegistrationStatus; page: number; size: number },
  now: Date,
): Promise<Page<Registration>> {
  const size = Math.min(query.size, MAX_PAGE_SIZE)
  const hospital = query.hospitalCode ? await requireHospitalByCode(db, query.hospitalCode) : null
  const where: (SQL | undefined)[] = [
    eq(registrations.userId, userId),
    hospital ? eq(registrations.hospitalId, hospital.id) : undefined,
    query.status ? eq(registrations.status, query.status) : undefined,
  ]
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(registrations)
    .where(and(...where))
  const rows = await viewQuery(db)
    .where(and(...where))
    .orderBy(desc(registrations.createdAt), desc(registrations.id))
    .limit(size)
    .offset((query.page - 1) * size)
  return { records: await toViews(db, cipher, rows, now), total: total?.n ?? 0, page: query.page, size }
}
