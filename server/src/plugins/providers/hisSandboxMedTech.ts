/**
 * The sandbox HIS's examination appointments (医技预约) and nucleic-acid tests (核酸检测), issue 18: devices with a
 * daily timetable whose slots are made on first use, bookings that hold a place by a conditional update, and tests
 * registered when paid, sampled and released at the workbench console. Part of sandboxHis (hisSandbox.ts).
 */
import { randomInt } from 'node:crypto'
import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm'
import type { FieldCipher } from '../../crypto'
import { uniqueViolation, type Db, type Tx } from '../../db'
import { hisBills, hisExamAppointments, hisExamDevices, hisExamSlots, hisNucleicKinds, hisNucleicTests } from '../../db/schema'
import { badInput, notFound } from '../../errors'
import { hospitalClock, hospitalToday } from '@/utils/hospitalClock'
import { maskName } from '@/utils/mask'
import type { HisBill, HisExamAppointment, HisExamDeviceDay, HisExamOrder, HisNucleicTest, HisPatient, HisProvider } from './his'

/** The places whose examinations take an appointment, with what every patient does before any of them. */
export const APPOINTMENT_PLACES: Readonly<Record<string, string[]>> = {
  放射科CT室: ['去除检查部位的金属物品（项链、耳环、皮带、钥匙、带金属的内衣等）', '请携带既往影像资料，孕妇或可能怀孕者请提前告知医生'],
  放射科磁共振室: ['去除所有金属物品，手机、银行卡等磁性物品请勿带入检查室', '体内有心脏起搏器、金属植入物、节育环者请提前告知医生', '检查时间较长，请保持不动'],
  超声科: [],
  内镜中心: ['检查前空腹8小时（禁食禁水）', '无痛检查须有家属陪同，检查后24小时内不得驾车或高空作业'],
}

export const SLOT_FULL = '该时段已约满，请选择其他时段'
export const SLOT_PAST = '该时段已过，请选择其他时段'
export const SLOT_OTHER_PLACE = '该时段不属于本项检查的设备，请重新选择'
export const NOT_BOOKABLE = '该检查无需预约或已完成检查'
export const APPOINTMENT_CANCELLED = '该预约已取消'
export const ALREADY_SAMPLED = '已采样的核酸检测不能取消'
export const NUCLEIC_CANCELLED = '该核酸检测已取消，费用将原路退回'
/** How many days ahead the devices may be booked. */
export const BOOKING_DAYS = 7

/** What to do before an examination, from its place and its items (空腹, 憋尿, 去除金属物品 ...). */
export function preparationOf(place: string, itemNames: string[]): string[] {
  const notes = [...(APPOINTMENT_PLACES[place] ?? [])]
  const all = itemNames.join('、')
  if (place === '超声科') {
    if (/肝胆|胰|脾|上腹/.test(all)) notes.push('检查前空腹8小时（禁食禁水），前一天晚餐清淡')
    if (/泌尿|经腹|前列腺|膀胱|早孕/.test(all)) notes.push('检查前1小时饮水500～800毫升并憋尿，膀胱充盈后再检查')
    if (/经阴道/.test(all)) notes.push('检查前排空膀胱')
    if (!notes.length) notes.push('无需空腹，穿着宽松衣物便于检查')
  }
  if ((place === '放射科CT室' || place === '放射科磁共振室') && /上腹|全腹|腹部/.test(all)) notes.push('腹部检查前空腹8小时')
  if ((place === '放射科CT室' || place === '放射科磁共振室') && /增强/.test(all)) {
    notes.push('增强检查前空腹4小时，有碘或造影剂过敏史、肾功能不全者请提前告知医生', '检查后多饮水，在候诊区观察30分钟无不适再离开')
  }
  if (place === '内镜中心' && /结肠/.test(all)) notes.push('检查前一天低渣饮食，按医嘱服用泻药清洁肠道')
  return notes
}

/** The demo devices of each appointment place: name, location, slots, places per slot, weekdays. */
export const DEMO_DEVICES: { place: string; name: string; location: string; times: string; perSlot: number; weekdays: string }[] = [
  { place: '放射科CT室', name: 'CT1号机（64排）', location: '医技楼1楼 CT1室', times: halfHours('08:00', '11:30', '14:00', '17:00'), perSlot: 5, weekdays: '1234567' },
  { place: '放射科CT室', name: 'CT2号机（128排）', location: '医技楼1楼 CT2室', times: halfHours('08:00', '11:30', '14:00', '17:00'), perSlot: 4, weekdays: '123456' },
  { place: '放射科磁共振室', name: '磁共振1号机（3.0T）', location: '医技楼1楼 MR室', times: halfHours('08:00', '12:00', '13:30', '17:30'), perSlot: 2, weekdays: '1234567' },
  { place: '超声科', name: '超声1诊室', location: '医技楼2楼 超声1室', times: halfHours('08:00', '11:30', '14:00', '17:00'), perSlot: 6, weekdays: '123456' },
  { place: '超声科', name: '超声2诊室', location: '医技楼2楼 超声2室', times: halfHours('08:00', '11:30', '14:00', '17:00'), perSlot: 6, weekdays: '12345' },
  { place: '内镜中心', name: '胃肠镜1室', location: '医技楼3楼 内镜中心', times: halfHours('08:00', '11:30'), perSlot: 3, weekdays: '12345' },
]

/** 'HH:MM-HH:MM' half hours from each start to each end, comma-separated. */
function halfHours(...bounds: string[]): string {
  const out: string[] = []
  const min = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5))
  const fmt = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
  for (let i = 0; i + 1 < bounds.length; i += 2) for (let m = min(bounds[i]!); m < min(bounds[i + 1]!); m += 30) out.push(`${fmt(m)}-${fmt(m + 30)}`)
  return out.join(',')
}

/** The nucleic-acid tests of a demo hospital. */
export const DEMO_NUCLEIC_KINDS = [
  { code: 'HS01', name: '新冠病毒核酸检测（单检）', priceFen: 1600, description: '一人一管，约24小时内出报告', place: '门诊楼北侧核酸采样点' },
  { code: 'HS10', name: '新冠病毒核酸检测（10人混检）', priceFen: 350, description: '十人一管，约24小时内出报告；混检阳性将通知复检', place: '门诊楼北侧核酸采样点' },
]

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)
/** ISO weekday (1 = Monday) of a date. */
const weekday = (date: string) => ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1

type DeviceRow = typeof hisExamDevices.$inferSelect
type AppointmentRow = typeof hisExamAppointments.$inferSelect

export interface ExamBookingView {
  appointmentNo: string
  billNo: string
  title: string
  patientName: string
  startTime: string
  endTime: string
  status: 'booked' | 'cancelled'
}

export interface NucleicConsoleTest extends HisNucleicTest {
  patientName: string
}

/** What the workbench console does with devices and nucleic tests. */
export interface SandboxMedTechConsole {
  examDevices(hospitalCode: string): Promise<{ deviceId: number; place: string; deviceName: string; location: string }[]>
  /** A device's appointments of a day, by time; null when the hospital has no such device. */
  deviceBookings(hospitalCode: string, deviceId: number, date: string): Promise<ExamBookingView[] | null>
  nucleicConsole(hospitalCode: string): Promise<NucleicConsoleTest[]>
  sampleNucleic(hospitalCode: string, sampleNo: string, now?: Date): Promise<NucleicConsoleTest>
  releaseNucleic(hospitalCode: string, sampleNo: string, result: '阴性' | '阳性', now?: Date): Promise<NucleicConsoleTest>
}

type MedTechProvider = Pick<
  HisProvider,
  'paidExams' | 'examAppointments' | 'examDates' | 'examSlots' | 'bookExam' | 'cancelExam' | 'nucleicKinds' | 'nucleicOrder' | 'nucleicSettle' | 'nucleicCancel' | 'nucleicTests'
>

export function sandboxMedTech(
  db: Db,
  cipher: FieldCipher,
  patientKey: (hospitalCode: string, p: HisPatient) => string | null,
  toBills: (q: Db | Tx, rows: (typeof hisBills.$inferSelect)[]) => Promise<HisBill[]>,
): MedTechProvider & SandboxMedTechConsole {
  async function devicesAt(q: Db | Tx, hospitalCode: string, place: string): Promise<DeviceRow[]> {
    return q
      .select()
      .from(hisExamDevices)
      .where(and(eq(hisExamDevices.hospitalCode, hospitalCode), eq(hisExamDevices.place, place)))
      .orderBy(asc(hisExamDevices.sort), asc(hisExamDevices.id))
  }

  /** A device's slots of a day exist once asked for (the timetable makes them; places already taken stay). */
  async function ensureSlots(q: Db | Tx, devices: DeviceRow[], date: string): Promise<void> {
    const rows = devices
      .filter((d) => d.weekdays.includes(String(weekday(date))))
      .flatMap((d) => d.times.split(',').map((range) => ({ deviceId: d.id, date, startTime: range.slice(0, 5), endTime: range.slice(6, 11), capacity: d.perSlot })))
    if (rows.length) await q.insert(hisExamSlots).values(rows).onConflictDoNothing()
  }

  async function appointmentViews(q: Db | Tx, rows: AppointmentRow[]): Promise<HisExamAppointment[]> {
    if (!rows.length) return []
    const slots = await q
      .select({ slot: hisExamSlots, device: hisExamDevices })
      .from(hisExamSlots)
      .innerJoin(hisExamDevices, eq(hisExamDevices.id, hisExamSlots.deviceId))
      .where(inArray(hisExamSlots.id, [...new Set(rows.map((r) => r.slotId))]))
    return rows.map((r) => {
      const { slot, device } = slots.find((s) => s.slot.id === r.slotId)!
      return {
        appointmentNo: r.appointmentNo,
        billNo: r.billNo,
        place: device.place,
        slotId: slot.id,
        deviceId: device.id,
        deviceName: device.name,
        location: device.location,
        date: slot.date,
        startTime: slot.startTime,
        endTime: slot.endTime,
        status: r.status,
        rescheduled: r.rescheduled,
        createdAt: r.createdAt.toISOString(),
      }
    })
  }

  /** Slots not started yet (at the hospital's wall clock). */
  const notStarted = (date: string, startTime: string, now: Date) => {
    const clock = hospitalClock(now)
    return date > clock.date || (date === clock.date && startTime > clock.time.slice(0, 5))
  }

  async function testRow(q: Db | Tx, hospitalCode: string, orderNo: string, lock = false) {
    const query = q
      .select()
      .from(hisNucleicTests)
      .where(and(eq(hisNucleicTests.hospitalCode, hospitalCode), eq(hisNucleicTests.orderNo, orderNo)))
    const [row] = lock ? await query.for('update') : await query
    return row ?? null
  }

  const testView = (r: typeof hisNucleicTests.$inferSelect): HisNucleicTest => ({
    sampleNo: r.sampleNo,
    orderNo: r.orderNo,
    kindCode: r.kindCode,
    kindName: r.kindName,
    amountFen: r.amountFen,
    status: r.status as HisNucleicTest['status'],
    result: r.result ?? null,
    registeredAt: r.registeredAt.toISOString(),
    sampledAt: r.sampledAt ? r.sampledAt.toISOString() : null,
    reportedAt: r.reportedAt ? r.reportedAt.toISOString() : null,
  })
  const consoleView = (r: typeof hisNucleicTests.$inferSelect): NucleicConsoleTest => ({ ...testView(r), patientName: maskName(cipher.decrypt(r.patientNameEnc)) })

  return {
    async paidExams({ hospitalCode, patient }) {
      const key = patientKey(hospitalCode, patient)
      if (!key) return []
      const rows = await db
        .select()
        .from(hisBills)
        .where(
          and(
            eq(hisBills.hospitalCode, hospitalCode),
            eq(hisBills.patientKey, key),
            eq(hisBills.status, 'paid'),
            eq(hisBills.category, 'exam'),
            inArray(hisBills.place, Object.keys(APPOINTMENT_PLACES)),
            isNull(hisBills.performedAt),
          ),
        )
        .orderBy(desc(hisBills.orderedAt), desc(hisBills.id))
        .limit(100)
      const bills = await toBills(db, rows)
      const locations = await db
        .select({ place: hisExamDevices.place, location: hisExamDevices.location })
        .from(hisExamDevices)
        .where(eq(hisExamDevices.hospitalCode, hospitalCode))
        .orderBy(asc(hisExamDevices.sort))
      return bills.map(
        (bill): HisExamOrder => ({
          bill,
          location: locations.find((l) => l.place === bill.place)?.location ?? '',
          preparation: preparationOf(bill.place, bill.items.map((i) => `${i.name}${i.spec}`)),
        }),
      )
    },

    async examAppointments({ hospitalCode, patient }) {
      const key = patientKey(hospitalCode, patient)
      if (!key) return []
      const rows = await db
        .select()
        .from(hisExamAppointments)
        .where(and(eq(hisExamAppointments.hospitalCode, hospitalCode), eq(hisExamAppointments.patientKey, key)))
        .orderBy(desc(hisExamAppointments.updatedAt), desc(hisExamAppointments.id))
        .limit(100)
      return appointmentViews(db, rows)
    },

    async examDates({ hospitalCode, place, from, days }) {
      const devices = await devicesAt(db, hospitalCode, place)
      if (!devices.length) return []
      const dates = Array.from({ length: Math.min(days, 60) }, (_, i) => addDays(from, i))
      for (const date of dates) await ensureSlots(db, devices, date)
      const now = new Date()
      const slots = await db
        .select()
        .from(hisExamSlots)
        .where(and(inArray(hisExamSlots.deviceId, devices.map((d) => d.id)), inArray(hisExamSlots.date, dates)))
      return dates
        .filter((date) => devices.some((d) => d.weekdays.includes(String(weekday(date)))))
        .map((date) => ({
          date,
          remaining: slots.filter((s) => s.date === date && notStarted(s.date, s.startTime, now)).reduce((sum, s) => sum + s.capacity - s.booked, 0),
        }))
    },

    async examSlots({ hospitalCode, place, date }) {
      const devices = await devicesAt(db, hospitalCode, place)
      if (!devices.length) return []
      await ensureSlots(db, devices, date)
      const now = new Date()
      const slots = await db
        .select()
        .from(hisExamSlots)
        .where(and(inArray(hisExamSlots.deviceId, devices.map((d) => d.id)), eq(hisExamSlots.date, date)))
        .orderBy(asc(hisExamSlots.startTime))
      return devices
        .map(
          (d): HisExamDeviceDay => ({
            deviceId: d.id,
            deviceName: d.name,
            location: d.location,
            slots: slots
              .filter((s) => s.deviceId === d.id && notStarted(s.date, s.startTime, now))
              .map((s) => ({ slotId: s.id, startTime: s.startTime, endTime: s.endTime, capacity: s.capacity, remaining: s.capacity - s.booked })),
          }),
        )
        .filter((d) => d.slots.length > 0)
    },

    async bookExam({ hospitalCode, patient, billNo, slotId, requestNo }) {
      const key = patientKey(hospitalCode, patient)
      if (!key) throw badInput(NOT_BOOKABLE)
      const now = new Date()
      const answerAgain = async () => {
        const [again] = await db
          .select()
          .from(hisExamAppointments)
          .where(and(eq(hisExamAppointments.hospitalCode, hospitalCode), eq(hisExamAppointments.requestNo, requestNo), eq(hisExamAppointments.patientKey, key)))
        return again ? (await appointmentViews(db, [again]))[0]! : null
      }
      const before = await answerAgain()
      if (before) return before
      try {
        return await db.transaction(async (tx) => {
          const [bill] = await tx
            .select()
            .from(hisBills)
            .where(and(eq(hisBills.hospitalCode, hospitalCode), eq(hisBills.billNo, billNo), eq(hisBills.patientKey, key)))
            .for('update')
          if (!bill || bill.status !== 'paid' || bill.performedAt || !(bill.place in APPOINTMENT_PLACES)) throw badInput(NOT_BOOKABLE)
          const [target] = await tx
            .select({ slot: hisExamSlots, device: hisExamDevices })
            .from(hisExamSlots)
            .innerJoin(hisExamDevices, eq(hisExamDevices.id, hisExamSlots.deviceId))
            .where(and(eq(hisExamSlots.id, slotId), eq(hisExamDevices.hospitalCode, hospitalCode)))
          if (!target || target.device.place !== bill.place) throw badInput(SLOT_OTHER_PLACE)
          if (!notStarted(target.slot.date, target.slot.startTime, now)) throw badInput(SLOT_PAST)
          const [live] = await tx
            .select()
            .from(hisExamAppointments)
            .where(and(eq(hisExamAppointments.hospitalCode, hospitalCode), eq(hisExamAppointments.billNo, billNo), eq(hisExamAppointments.status, 'booked')))
            .for('update')
          if (live?.slotId === slotId) return (await appointmentViews(tx, [live]))[0]!
          // the place is taken only while one is left: the conditional update is the capacity check
          const [taken] = await tx
            .update(hisExamSlots)
            .set({ booked: sql`${hisExamSlots.booked} + 1` })
            .where(and(eq(hisExamSlots.id, slotId), sql`${hisExamSlots.booked} < ${hisExamSlots.capacity}`))
            .returning({ id: hisExamSlots.id })
          if (!taken) throw badInput(SLOT_FULL)
          let row: AppointmentRow
          if (live) {
            // a reschedule: the old place is freed in the same transaction that took the new one
            await tx
              .update(hisExamSlots)
              .set({ booked: sql`${hisExamSlots.booked} - 1` })
              .where(eq(hisExamSlots.id, live.slotId))
            ;[row] = await tx
              .update(hisExamAppointments)
              .set({ slotId, requestNo, rescheduled: live.rescheduled + 1, updatedAt: now })
              .where(eq(hisExamAppointments.id, live.id))
              .returning() as [AppointmentRow]
          } else {
            ;[row] = await tx
              .insert(hisExamAppointments)
              .values({
                hospitalCode,
                appointmentNo: `YJ${hospitalToday(now).replace(/-/g, '')}${String(randomInt(1e8)).padStart(8, '0')}`,
                billNo,
                patientKey: key,
                patientNameEnc: cipher.encrypt(patient.name),
                slotId,
                status: 'booked',
                requestNo,
                createdAt: now,
                updatedAt: now,
              })
              .returning() as [AppointmentRow]
          }
          return (await appointmentViews(tx, [row]))[0]!
        })
      } catch (err) {
        // two copies of one request racing: the second answers the first's appointment
        if (uniqueViolation(err) === 'his_exam_appointments_live_key') {
          const raced = await answerAgain()
          if (raced) return raced
          throw badInput('该检查已有预约，请刷新后重试')
        }
        throw err
      }
    },

    async cancelExam({ hospitalCode, patient, appointmentNo }) {
      const key = patientKey(hospitalCode, patient)
      return db.transaction(async (tx) => {
        const [row] = key
          ? await tx
              .select()
              .from(hisExamAppointments)
              .where(and(eq(hisExamAppointments.hospitalCode, hospitalCode), eq(hisExamAppointments.appointmentNo, appointmentNo), eq(hisExamAppointments.patientKey, key)))
              .for('update')
          : []
        if (!row) throw notFound('预约')
        if (row.status === 'cancelled') return (await appointmentViews(tx, [row]))[0]!
        await tx
          .update(hisExamSlots)
          .set({ booked: sql`${hisExamSlots.booked} - 1` })
          .where(eq(hisExamSlots.id, row.slotId))
        const [done] = await tx.update(hisExamAppointments).set({ status: 'cancelled', updatedAt: new Date() }).where(eq(hisExamAppointments.id, row.id)).returning()
        return (await appointmentViews(tx, [done!]))[0]!
      })
    },

    async nucleicKinds({ hospitalCode }) {
      const rows = await db.select().from(hisNucleicKinds).where(eq(hisNucleicKinds.hospitalCode, hospitalCode)).orderBy(asc(hisNucleicKinds.sort))
      return rows.map((r) => ({ code: r.code, name: r.name, priceFen: r.priceFen, description: r.description, place: r.place }))
    },

    async nucleicOrder(tx, { hospitalCode, patient, kindCode, orderNo }) {
      const again = await testRow(tx, hospitalCode, orderNo)
      if (again) return testView(again)
      const key = patientKey(hospitalCode, patient)
      if (!key) throw badInput('该就诊人没有证件号码或就诊卡号，医院系统无法识别')
      const [kind] = await tx
        .select()
        .from(hisNucleicKinds)
        .where(and(eq(hisNucleicKinds.hospitalCode, hospitalCode), eq(hisNucleicKinds.code, kindCode)))
      if (!kind) throw badInput('核酸检测项目不存在')
      const now = new Date()
      const [row] = await tx
        .insert(hisNucleicTests)
        .values({
          hospitalCode,
          sampleNo: `HS${hospitalToday(now).replace(/-/g, '')}${String(randomInt(1e10)).padStart(10, '0')}`,
          orderNo,
          patientKey: key,
          patientNameEnc: cipher.encrypt(patient.name),
          kindCode: kind.code,
          kindName: kind.name,
          amountFen: kind.priceFen,
          status: 'unpaid',
          registeredAt: now,
        })
        .returning()
      return testView(row!)
    },

    async nucleicSettle(tx, { hospitalCode, orderNo, amountFen }) {
      const row = await testRow(tx, hospitalCode, orderNo, true)
      if (!row) throw badInput('核酸检测不存在，费用将原路退回')
      if (row.status === 'cancelled') throw badInput(NUCLEIC_CANCELLED)
      if (row.status !== 'unpaid') return testView(row)
      if (row.amountFen !== amountFen) throw badInput('支付金额与核酸检测价格不符，费用将原路退回')
      const [done] = await tx.update(hisNucleicTests).set({ status: 'registered', registeredAt: new Date() }).where(eq(hisNucleicTests.id, row.id)).returning()
      return testView(done!)
    },

    async nucleicCancel(tx, { hospitalCode, orderNo }) {
      const row = await testRow(tx, hospitalCode, orderNo, true)
      if (!row) throw notFound('核酸检测')
      if (row.status === 'cancelled') return testView(row)
      if (row.status === 'sampled' || row.status === 'reported') throw badInput(ALREADY_SAMPLED)
      const [done] = await tx.update(hisNucleicTests).set({ status: 'cancelled' }).where(eq(hisNucleicTests.id, row.id)).returning()
      return testView(done!)
    },

    async nucleicTests({ hospitalCode, orderNos }) {
      if (!orderNos.length) return []
      const rows = await db
        .select()
        .from(hisNucleicTests)
        .where(and(eq(hisNucleicTests.hospitalCode, hospitalCode), inArray(hisNucleicTests.orderNo, orderNos)))
      return rows.map(testView)
    },

    // ---- the console -------------------------------------------------------------------------------------------

    async examDevices(hospitalCode) {
      const rows = await db.select().from(hisExamDevices).where(eq(hisExamDevices.hospitalCode, hospitalCode)).orderBy(asc(hisExamDevices.sort))
      return rows.map((d) => ({ deviceId: d.id, place: d.place, deviceName: d.name, location: d.location }))
    },

    async deviceBookings(hospitalCode, deviceId, date) {
      const [device] = await db
        .select()
        .from(hisExamDevices)
        .where(and(eq(hisExamDevices.id, deviceId), eq(hisExamDevices.hospitalCode, hospitalCode)))
      if (!device) return null
      const rows = await db
        .select({ a: hisExamAppointments, slot: hisExamSlots, title: hisBills.title })
        .from(hisExamAppointments)
        .innerJoin(hisExamSlots, eq(hisExamSlots.id, hisExamAppointments.slotId))
        .leftJoin(hisBills, and(eq(hisBills.hospitalCode, hisExamAppointments.hospitalCode), eq(hisBills.billNo, hisExamAppointments.billNo)))
        .where(and(eq(hisExamSlots.deviceId, deviceId), eq(hisExamSlots.date, date), eq(hisExamAppointments.status, 'booked')))
        .orderBy(asc(hisExamSlots.startTime), asc(hisExamAppointments.id))
      return rows.map(({ a, slot, title }) => ({
        appointmentNo: a.appointmentNo,
        billNo: a.billNo,
        title: title ?? '',
        patientName: maskName(cipher.decrypt(a.patientNameEnc)),
        startTime: slot.startTime,
        endTime: slot.endTime,
        status: a.status,
      }))
    },

    async nucleicConsole(hospitalCode) {
      const rows = await db
        .select()
        .from(hisNucleicTests)
        .where(and(eq(hisNucleicTests.hospitalCode, hospitalCode), inArray(hisNucleicTests.status, ['registered', 'sampled', 'reported']), gt(hisNucleicTests.registeredAt, new Date(Date.now() - 14 * 86_400_000))))
        .orderBy(desc(hisNucleicTests.registeredAt))
        .limit(200)
      return rows.map(consoleView)
    },

    async sampleNucleic(hospitalCode, sampleNo, now = new Date()) {
      const [row] = await db
        .update(hisNucleicTests)
        .set({ status: 'sampled', sampledAt: now })
        .where(and(eq(hisNucleicTests.hospitalCode, hospitalCode), eq(hisNucleicTests.sampleNo, sampleNo), eq(hisNucleicTests.status, 'registered')))
        .returning()
      if (row) return consoleView(row)
      const [other] = await db.select().from(hisNucleicTests).where(and(eq(hisNucleicTests.hospitalCode, hospitalCode), eq(hisNucleicTests.sampleNo, sampleNo)))
      if (!other) throw notFound('采样条码')
      if (other.status === 'sampled' || other.status === 'reported') return consoleView(other)
      throw badInput(other.status === 'cancelled' ? '该核酸检测已取消' : '该核酸检测尚未缴费')
    },

    async releaseNucleic(hospitalCode, sampleNo, result, now = new Date()) {
      const [row] = await db
        .update(hisNucleicTests)
        .set({ status: 'reported', result, reportedAt: now })
        .where(and(eq(hisNucleicTests.hospitalCode, hospitalCode), eq(hisNucleicTests.sampleNo, sampleNo), eq(hisNucleicTests.status, 'sampled')))
        .returning()
      if (row) return consoleView(row)
      const [other] = await db.select().from(hisNucleicTests).where(and(eq(hisNucleicTests.hospitalCode, hospitalCode), eq(hisNucleicTests.sampleNo, sampleNo)))
      if (!other) throw notFound('采样条码')
      if (other.status === 'reported') throw badInput('该核酸检测已出报告')
      throw badInput('该核酸检测尚未采样')
    },
  }
}
