/**
 * The sandbox HIS's registration and card part: its schedules and their places are the `schedules` and
 * `schedule_slots` tables (a place is taken while `registration_id` is set), and its cards are the `patient_cards`
 * rows, numbered per hospital. Only this file reads or writes those schedule tables for a patient's booking.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { FieldCipher } from '../../crypto'
import { rowsOf, type Db, type Tx } from '../../db'
import { departments, doctors, hospitals, patientCards, patients, scheduleSlots, schedules } from '../../db/schema'
import { hospitalCardNo } from '../../domain/patientRules'
import { notFound } from '../../errors'
import type { HisCardHolder, HisProvider, HisSchedule } from './his'

type RegistrationPart = Pick<HisProvider, 'schedules' | 'lockPlace' | 'confirmRegistration' | 'cancelRegistration' | 'fileCard' | 'findCard'>

interface ScheduleRow {
  id: number
  hospital_code: string
  dept_id: number
  dept_name: string
  doctor_id: number | null
  doctor_name: string | null
  visit_date: string
  segment: 'am' | 'pm'
  register_type: string
  fee_fen: number
  total_slots: number
  stopped: boolean
  ranges: { timeRange: string; remaining: number }[] | string
}

export function sandboxRegistration(db: Db, cipher: FieldCipher): RegistrationPart {
  /**
   * How the sandbox knows a person again: the blind index the app keeps of the identity number (or, for a newborn
   * without one, of guardian, name and birth date), the way a HIS looks a patient up by identity number.
   */
  const personIndexOf = (p: HisCardHolder): string | null => {
    if (p.idCard) return cipher.blindIndex(p.idCard)
    if (p.guardianIdCard) return cipher.blindIndex(`neonate:${p.guardianIdCard}:${p.name}:${p.birthday}`)
    return null
  }

  /** A card this person already has at the hospital (by any account that bound them), or null. */
  async function existingCard(q: Db | Tx, hospitalId: SQL, personIndex: string | null): Promise<string | null> {
    if (!personIndex) return null
    const [row] = rowsOf<{ card_no_enc: string }>(
      await q.execute(sql`
        select c.card_no_enc from ${patientCards} c join ${patients} p on p.id = c.patient_id
        where c.hospital_id = ${hospitalId} and p.person_index = ${personIndex}
        order by c.id limit 1`),
    )
    return row ? cipher.decrypt(row.card_no_enc) : null
  }

  return {
    async schedules(query) {
      const where: SQL[] = []
      if (query.hospitalCode !== null) where.push(sql`h.code = ${query.hospitalCode}`)
      if (query.deptId !== undefined) where.push(sql`s.dept_id = ${query.deptId}`)
      if (query.doctorId !== undefined) where.push(sql`s.doctor_id = ${query.doctorId}`)
      if (query.scheduleIds !== undefined) {
        if (query.scheduleIds.length === 0) return []
        where.push(sql`s.id in (${sql.join(query.scheduleIds.map((id) => sql`${id}`), sql`, `)})`)
      }
      if (query.from !== undefined) where.push(sql`s.visit_date >= ${query.from}`)
      if (query.to !== undefined) where.push(sql`s.visit_date <= ${query.to}`)
      if (where.length === 0) return []
      // one round trip: each schedule with its time ranges and the places left in each
      const rows = rowsOf<ScheduleRow>(
        await db.execute(sql`
          select s.id, h.code as hospital_code, s.dept_id, d.name as dept_name, s.doctor_id, doc.name as doctor_name,
            s.visit_date, s.segment, s.register_type, s.fee_fen, s.total_slots, s.stopped,
            coalesce((
              select json_agg(json_build_object('timeRange', t.time_range, 'remaining', t.remaining) order by t.first)
              from (
                select x.time_range, min(x.seq) as first, (count(*) filter (where x.registration_id is null))::int as remaining
                from ${scheduleSlots} x where x.schedule_id = s.id group by x.time_range
              ) t
            ), '[]'::json) as ranges
          from ${schedules} s
          join ${hospitals} h on h.id = s.hospital_id
          join ${departments} d on d.id = s.dept_id
          left join ${doctors} doc on doc.id = s.doctor_id
          where ${sql.join(where, sql` and `)}
          order by s.visit_date, s.segment, s.doctor_id is not null, doc.sort, s.id`),
      )
      return rows.map((r): HisSchedule => {
        const timeRanges = typeof r.ranges === 'string' ? (JSON.parse(r.ranges) as HisSchedule['timeRanges']) : r.ranges
        return {
          scheduleId: r.id,
          hospitalCode: r.hospital_code,
          deptId: r.dept_id,
          deptName: r.dept_name,
          doctorId: r.doctor_id,
          doctorName: r.doctor_name,
          visitDate: r.visit_date,
          segment: r.segment,
          registerType: r.register_type,
          feeFen: r.fee_fen,
          total: r.total_slots,
          remaining: timeRanges.reduce((n, t) => n + t.remaining, 0),
          stopped: r.stopped,
          timeRanges,
        }
      })
    },

    async lockPlace(tx, input) {
      // the lowest free place of the range, taken in one statement; SKIP LOCKED passes over a place another booking is
      // taking right now, and the outer condition keeps a place that was taken meanwhile from being taken twice. The
      // sandbox keeps no hold time of its own: the app's order closes with the hold and gives the place back.
      const [place] = rowsOf<{ id: number; seq: number; time_range: string }>(
        await tx.execute(sql`
          update ${scheduleSlots} set registration_id = ${input.bookingId}
          where id = (
            select id from ${scheduleSlots}
            where schedule_id = ${input.scheduleId} and time_range = ${input.timeRange} and registration_id is null
            order by seq limit 1 for update skip locked
          ) and registration_id is null
          returning id, seq, time_range`),
      )
      return place ? { placeId: place.id, seq: place.seq, timeRange: place.time_range } : null
    },

    async confirmRegistration() {
      // a sandbox place is the booking's from the lock on, until given back: a confirmation has nothing to write, and
      // the app confirms only a booking that still holds its place (in the same transaction)
    },

    async cancelRegistration(tx, input) {
      await tx.execute(sql`update ${scheduleSlots} set registration_id = null where id = ${input.placeId} and registration_id = ${input.bookingId}`)
    },

    async fileCard(tx, { hospitalCode, patient }) {
      // numbering at one hospital runs under a lock on its row, so two people never get the same number
      const [hospital] = rowsOf<{ id: number }>(await tx.execute(sql`select id from ${hospitals} where code = ${hospitalCode} for no key update`))
      if (!hospital) throw notFound('医院')
      const known = await existingCard(tx, sql`${hospital.id}`, personIndexOf(patient))
      if (known) return { cardNo: known, existed: true }
      // numbers run 1, 2, 3... per hospital; a person's second card row carries their first number, so the count is
      // always at least the highest number given
      const [issued] = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from ${patientCards} where hospital_id = ${hospital.id}`))
      return { cardNo: hospitalCardNo(hospitalCode, (issued?.n ?? 0) + 1), existed: false }
    },

    async findCard({ hospitalCode, patient }) {
      return existingCard(db, sql`(select id from ${hospitals} where code = ${hospitalCode})`, personIndexOf(patient))
    },
  }
}
