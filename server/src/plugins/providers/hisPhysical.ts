/**
 * The physical-exam part of the HIS (体检系统): packages, days with their capacity, places held and paid, exams
 * checked in and finished, and the reports (structured, and the PDF the centre issues). Part of HisProvider (his.ts);
 * its HTTP contract is documented there.
 */
import { z } from 'zod'
import type { PayChannel } from '../../../../types/api/payment'
import type { PhysicalItem, PackageSex } from '../../../../types/api/physical'
import type { Tx } from '../../db'
import type { HisPatient } from './his'

export interface HisPhysicalPackage {
  code: string
  name: string
  sex: PackageSex
  minAge: number
  maxAge: number
  priceFen: number
  suits: string
  notice: string
  items: PhysicalItem[]
}

export interface HisPhysicalDay {
  date: string
  capacity: number
  booked: number
  open: boolean
}

export type HisPhysicalStatus = 'held' | 'paid' | 'released' | 'checkedIn' | 'finished'

export interface HisPhysicalExam {
  examNo: string
  packageCode: string
  packageName: string
  examDate: string
  status: HisPhysicalStatus
  /** ISO time the report was released; null before. */
  reportedAt: string | null
}

export interface HisPhysicalReport {
  examNo: string
  packageName: string
  examDate: string
  reportedAt: string
  patientName: string
  /** 1 male, 2 female */
  sex: 1 | 2
  age: number
  summary: string[]
  findings: { dept: string; item: string; result: string; abnormal: boolean; doctor: string }[]
  conclusion: string
  advice: string[]
  chiefDoctor: string
}

export interface HisPhysicalHold {
  hospitalCode: string
  patient: HisPatient
  /** 1 male, 2 female, and the birth date (YYYY-MM-DD): the centre's report header names them. */
  sex: 1 | 2
  birthday: string
  /** The app's number for the exam (unguessable): the same number again answers the place first held. */
  examNo: string
  packageCode: string
  date: string
}

export interface HisPhysicalPaid {
  hospitalCode: string
  examNo: string
  orderNo: string
  amountFen: number
  paidAt: Date
  channel: PayChannel
  tradeNo: string
}

/** What the physical-exam centre answers (a member of HisProvider). */
export interface HisPhysicalExams {
  physicalPackages(input: { hospitalCode: string }): Promise<HisPhysicalPackage[]>
  physicalDays(input: { hospitalCode: string; from: string; to: string }): Promise<HisPhysicalDay[]>
  /** Holds a place on the day, inside the transaction that makes the appointment; a full or closed day is refused (AppError). */
  physicalHold(tx: Tx, input: HisPhysicalHold): Promise<HisPhysicalExam>
  /** The exam is paid (inside the transaction that records the payment); refused when the hold was released. */
  physicalPaid(tx: Tx, input: HisPhysicalPaid): Promise<HisPhysicalExam>
  /** Gives the place back (an unpaid hold closed, or a paid exam cancelled before its day); refused once checked in. */
  physicalRelease(tx: Tx, input: { hospitalCode: string; examNo: string; reason: string }): Promise<void>
  /** The patient's exams at the hospital, any status, newest day first (at most 100). */
  physicalExams(input: { hospitalCode: string; patient: HisPatient }): Promise<HisPhysicalExam[]>
  /** One released report of the patient's own exam; null when the exam is not theirs or its report is not out. */
  physicalReport(input: { hospitalCode: string; patient: HisPatient; examNo: string }): Promise<HisPhysicalReport | null>
  /** The report as the centre issues it (a PDF); null like physicalReport. */
  physicalReportPdf(input: { hospitalCode: string; patient: HisPatient; examNo: string }): Promise<Uint8Array | null>
}

// ---- the HTTP contract's answers ----------------------------------------------------------------------------------

const text = (max: number) => z.string().max(max)
const ymd = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)
const status = z.enum(['held', 'paid', 'released', 'checkedIn', 'finished'])
const exam = z.object({
  examNo: z.string().min(1).max(64),
  packageCode: text(64),
  packageName: text(64),
  examDate: ymd,
  status,
  reportedAt: z.string().refine((v) => !Number.isNaN(Date.parse(v))).nullable(),
})
const pkg = z.object({
  code: z.string().min(1).max(64),
  name: text(64),
  sex: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  minAge: z.number().int().min(0).max(150),
  maxAge: z.number().int().min(0).max(150),
  priceFen: z.number().int().min(1).max(100_000_000),
  suits: text(200),
  notice: text(500),
  items: z.array(z.object({ dept: text(32), name: text(64), meaning: text(200) })).max(200),
})
export const physicalAnswers = {
  packages: z.object({ packages: z.array(pkg).max(100) }),
  days: z.object({ days: z.array(z.object({ date: ymd, capacity: z.number().int().min(0), booked: z.number().int().min(0), open: z.boolean() })).max(62) }),
  exam: z.object({ exam }),
  exams: z.object({ exams: z.array(exam).max(100) }),
  report: z.object({
    report: z.object({
      examNo: z.string().min(1).max(64),
      packageName: text(64),
      examDate: ymd,
      reportedAt: z.string().refine((v) => !Number.isNaN(Date.parse(v))),
      patientName: text(64),
      sex: z.union([z.literal(1), z.literal(2)]),
      age: z.number().int().min(0).max(150),
      summary: z.array(text(500)).max(50),
      findings: z.array(z.object({ dept: text(32), item: text(64), result: text(500), abnormal: z.boolean(), doctor: text(32) })).max(300),
      conclusion: text(2000),
      advice: z.array(text(500)).max(50),
      chiefDoctor: text(32),
    }),
  }),
  pdf: z.object({ pdfBase64: z.string().max(30_000_000) }),
  none: z.object({}).passthrough(),
}

/** `%PDF-` */
const isPdf = (b: Uint8Array) => b.length > 5 && b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46 && b[4] === 0x2d

type Call = <T>(path: string, body: Record<string, unknown>, shape: z.ZodType<T>) => Promise<T>
/** `call` with a refusal (code != 0) answered as null: the HIS says "not this patient's" that way. */
type CallOrNull = <T>(path: string, body: Record<string, unknown>, shape: z.ZodType<T>) => Promise<T | null>

/** The physical-exam calls of httpHis (contract on HisProvider in his.ts). */
export function httpPhysical(call: Call, callOrNull: CallOrNull): HisPhysicalExams {
  return {
    async physicalPackages({ hospitalCode }) {
      return (await call('/physical/packages', { hospitalCode }, physicalAnswers.packages)).packages
    },
    async physicalDays({ hospitalCode, from, to }) {
      return (await call('/physical/days', { hospitalCode, from, to }, physicalAnswers.days)).days
    },
    async physicalHold(_tx, input) {
      return (await call('/physical/hold', { ...input }, physicalAnswers.exam)).exam
    },
    async physicalPaid(_tx, input) {
      return (await call('/physical/paid', { ...input, paidAt: input.paidAt.toISOString() }, physicalAnswers.exam)).exam
    },
    async physicalRelease(_tx, input) {
      await call('/physical/release', { ...input }, physicalAnswers.none)
    },
    async physicalExams({ hospitalCode, patient }) {
      return (await call('/physical/exams', { hospitalCode, patient }, physicalAnswers.exams)).exams
    },
    async physicalReport({ hospitalCode, patient, examNo }) {
      return (await callOrNull('/physical/report', { hospitalCode, patient, examNo }, physicalAnswers.report))?.report ?? null
    },
    async physicalReportPdf({ hospitalCode, patient, examNo }) {
      const answer = await callOrNull('/physical/report/pdf', { hospitalCode, patient, examNo }, physicalAnswers.pdf)
      if (!answer) return null
      const bytes = new Uint8Array(Buffer.from(answer.pdfBase64, 'base64'))
      if (!isPdf(bytes)) throw new Error('HIS answered /physical/report/pdf with something that is not a PDF')
      return bytes
    },
  }
}
