/**
 * A patient's reports as a FHIR R4 Bundle (type collection), for the patient to take elsewhere (PIPL art. 45): the
 * Patient (name, gender, birth date; no identity number), one Encounter per report (the visit that asked for it), a
 * DiagnosticReport per report, and an Observation per lab item with its value in UCUM units where the unit has a
 * code, its reference range and its H / L / N interpretation. Pure: the same reports give the same resources.
 */
import { createHash } from 'node:crypto'
import type { HisLabItem, HisReport } from '../plugins/providers/his'
import { numericValue, ucumOf } from '@/utils/reportRules'

export type FhirResource = { resourceType: string; id?: string } & Record<string, unknown>
export interface FhirBundle {
  resourceType: 'Bundle'
  id: string
  type: 'collection'
  timestamp: string
  entry: { fullUrl: string; resource: FhirResource }[]
}

export interface FhirInput {
  patient: { id: number; name: string; sex: 1 | 2; birthday: string }
  hospital: { code: string; name: string }
  reports: HisReport[]
  now: Date
}

const UCUM = 'http://unitsofmeasure.org'
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation'
const V2_0074 = 'http://terminology.hl7.org/CodeSystem/v2-0074'
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category'
const ACT_CODE = 'http://terminology.hl7.org/CodeSystem/v3-ActCode'
/** The hospital's own codes: its report numbers and its laboratory's item codes. */
const localSystem = (hospitalCode: string, what: 'report' | 'lab-item' | 'patient') => `urn:hospital-h5:${hospitalCode}:${what}`

/** A stable UUID (v4 layout) from text, so one report keeps its resource ids from one download to the next. */
export function stableUuid(text: string): string {
  const h = createHash('sha256').update(text).digest('hex')
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

const INTERPRETATION_TEXT = { H: '偏高', L: '偏低', N: '正常' } as const

function quantity(value: number, unit: string) {
  const code = ucumOf(unit)
  return code ? { value, unit, system: UCUM, code } : { value, unit }
}

/** One lab item as an Observation: valueQuantity for a number, valueString otherwise. */
export function observationOf(item: HisLabItem, ctx: { id: string; patientRef: string; encounterRef: string; report: HisReport; hospitalCode: string }): FhirResource {
  const n = numericValue(item.value)
  const range: Record<string, unknown> = {}
  if (item.low !== null) range.low = quantity(item.low, item.unit)
  if (item.high !== null) range.high = quantity(item.high, item.unit)
  if (item.range) range.text = item.range
  return {
    resourceType: 'Observation',
    id: ctx.id,
    status: 'final',
    category: [{ coding: [{ system: OBSERVATION_CATEGORY, code: 'laboratory', display: 'Laboratory' }] }],
    code: { coding: [{ system: localSystem(ctx.hospitalCode, 'lab-item'), code: item.code, display: item.name }], text: item.name },
    subject: { reference: ctx.patientRef },
    encounter: { reference: ctx.encounterRef },
    effectiveDateTime: ctx.report.requestedAt,
    issued: ctx.report.reportedAt,
    ...(n !== null ? { valueQuantity: quantity(n, item.unit) } : { valueString: item.value }),
    ...(item.flag ? { interpretation: [{ coding: [{ system: INTERPRETATION, code: item.flag }], text: INTERPRETATION_TEXT[item.flag] }] } : {}),
    ...(Object.keys(range).length ? { referenceRange: [range] } : {}),
  }
}

const CATEGORY = {
  lab: { code: 'LAB', display: 'Laboratory' },
  imaging: { code: 'RAD', display: 'Radiology' },
  pathology: { code: 'SP', display: 'Surgical Pathology' },
} as const

const utf8Base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64')

/** The reports of one patient as one Bundle. */
export function reportsBundle(input: FhirInput): FhirBundle {
  const { patient, hospital, reports, now } = input
  const seed = `${hospital.code}:${patient.id}`
  const patientId = stableUuid(`${seed}:patient`)
  const patientRef = `urn:uuid:${patientId}`
  const entry: FhirBundle['entry'] = [
    {
      fullUrl: patientRef,
      resource: {
        resourceType: 'Patient',
        id: patientId,
        identifier: [{ system: localSystem(hospital.code, 'patient'), value: String(patient.id) }],
        name: [{ text: patient.name }],
        gender: patient.sex === 1 ? 'male' : 'female',
        ...(/^\d{4}-\d{2}-\d{2}$/.test(patient.birthday) ? { birthDate: patient.birthday } : {}),
      },
    },
  ]
  for (const r of reports) {
    const encounterId = stableUuid(`${seed}:encounter:${r.reportNo}`)
    const encounterRef = `urn:uuid:${encounterId}`
    entry.push({
      fullUrl: encounterRef,
      resource: {
        resourceType: 'Encounter',
        id: encounterId,
        status: 'finished',
        class: { system: ACT_CODE, code: 'AMB', display: 'ambulatory' },
        subject: { reference: patientRef },
        period: { start: r.requestedAt },
        serviceProvider: { display: hospital.name },
        ...(r.doctorName ? { participant: [{ individual: { display: r.doctorName } }] } : {}),
      },
    })
    const observations = r.items.map((item, i) => {
      const id = stableUuid(`${seed}:observation:${r.reportNo}:${i}:${item.code}`)
      return { fullUrl: `urn:uuid:${id}`, resource: observationOf(item, { id, patientRef, encounterRef, report: r, hospitalCode: hospital.code }) }
    })
    const text = [r.examPart && `检查部位：${r.examPart}`, r.specimen && `标本：${r.specimen}`, r.findings && `所见：${r.findings}`, r.impression && `诊断：${r.impression}`]
      .filter(Boolean)
      .join('\n')
    const reportId = stableUuid(`${seed}:report:${r.reportNo}`)
    entry.push({
      fullUrl: `urn:uuid:${reportId}`,
      resource: {
        resourceType: 'DiagnosticReport',
        id: reportId,
        identifier: [{ system: localSystem(hospital.code, 'report'), value: r.reportNo }],
        status: 'final',
        category: [{ coding: [{ system: V2_0074, code: CATEGORY[r.kind].code, display: CATEGORY[r.kind].display }], text: r.deptName }],
        code: { text: r.title },
        subject: { reference: patientRef },
        encounter: { reference: encounterRef },
        effectiveDateTime: r.requestedAt,
        issued: r.reportedAt,
        performer: [{ display: r.reporterName }],
        resultsInterpreter: [{ display: r.checkerName }],
        ...(observations.length ? { result: observations.map((o) => ({ reference: o.fullUrl })) } : {}),
        ...(r.impression ? { conclusion: r.impression } : {}),
        ...(text ? { presentedForm: [{ contentType: 'text/plain; charset=utf-8', language: 'zh-CN', data: utf8Base64(text), title: r.title }] } : {}),
      },
    })
    entry.push(...observations)
  }
  return { resourceType: 'Bundle', id: stableUuid(`${seed}:bundle:${now.toISOString()}`), type: 'collection', timestamp: now.toISOString(), entry }
}
