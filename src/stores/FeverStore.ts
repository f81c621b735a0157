import { makeAutoObservable } from 'mobx'
import * as api from '@/services/inquiry'
import { listOnlineDepts } from '@/services/internet'
import { InquiryForm } from './InquiryForm'
import { Loadable } from './base/Loadable'
import type { PatientStore } from './PatientStore'
import type { Inquiry } from '../../types/api/inquiry'
import type { OnlineDept } from '../../types/api/internet'
import { pageStore } from './base/pageStore'
import { usePatientStore } from './PatientStore'

/** The screening's temperature line (℃). */
export const FEVER_LINE = 37.3
export const FEVER_QUESTION = `近期体温是否≥${FEVER_LINE}℃？`
export const FEVER_SYMPTOMS = ['咳嗽', '乏力', '咽痛', '腹泻', '嗅觉味觉减退'] as const
export const EXPOSURE_QUESTION = '近14天内是否有外地旅居史，或接触过发热、呼吸道症状患者？'
/** Signs that cannot wait for an online reply. */
export const RED_FLAGS = ['呼吸困难或气促', '胸痛胸闷', '意识模糊或嗜睡', '口唇发紫', '抽搐'] as const
export const RED_FLAG_ADVICE = '您选择的情况可能危及生命，请立即前往发热门诊或拨打120，不要等待线上回复。'
export const RED_FLAG_BLOCKER = '存在危急情况，请立即线下就医'
export const NO_FEVER_ANSWER = '请回答体温是否≥37.3℃'
export const NO_EXPOSURE_ANSWER = '请回答是否有旅居史或接触史'
/** What the patient adds in their own words; the screening answers go before it, within the server's 500. */
export const FEVER_NOTE_MAX = 300

export type FeverSymptom = (typeof FEVER_SYMPTOMS)[number]
export type RedFlag = (typeof RED_FLAGS)[number]

const yesNo = (v: boolean) => (v ? '是' : '否')

/** The department names that take a fever patient, the fever clinic first. */
const FEVER_DEPT_WORDS = ['发热', '呼吸']

/**
 * The department a fever patient's quick inquiry goes to: the hospital's fever clinic, else its respiratory
 * department, preferring one with a doctor accepting consultations now; null (the whole hospital) when it has neither
 * or none of them has a doctor online.
 */
export function feverDept(depts: OnlineDept[]): OnlineDept | null {
  for (const word of FEVER_DEPT_WORDS) {
    const found = depts.find((d) => d.deptName.includes(word) && d.onlineCount > 0)
    if (found) return found
  }
  return null
}

/**
 * 发热门诊 (spec §2 /internet/heat/index): a short screening (temperature, symptoms, travel or contact, danger signs),
 * advice to go now when a danger sign is chosen, and 快速问诊 (POST /inquiry/quickInquiry) with the fever or
 * respiratory department (or the hospital), the patient and the answers as the description; paid like 图文问诊.
 */
export class FeverStore {
  /** null until answered. */
  fever: boolean | null = null
  symptoms: FeverSymptom[] = []
  exposure: boolean | null = null
  redFlags: RedFlag[] = []
  readonly form: InquiryForm
  readonly depts = new Loadable((hospitalCode: string) => listOnlineDepts(hospitalCode))

  constructor(
    private readonly hospitalCode: () => string | undefined = () => undefined,
    patients: Pick<PatientStore, 'current'> | null = null,
  ) {
    this.form = new InquiryForm(patients, FEVER_NOTE_MAX)
    makeAutoObservable<FeverStore, 'hospitalCode'>(this, { form: false, depts: false, hospitalCode: false })
  }

  get hospital(): string | undefined {
    return this.hospitalCode()
  }

  /** Opens the page: a new screening and attempt, and the hospital's departments to find the fever clinic among. */
  async open() {
    this.fever = null
    this.symptoms = []
    this.exposure = null
    this.redFlags = []
    this.form.reset()
    await this.loadDepts()
  }

  async loadDepts() {
    const code = this.hospitalCode()
    if (!code) return
    await this.depts.load(code).catch(() => undefined)
  }

  /** The department the inquiry goes to; null: any of the hospital's doctors. */
  get dept(): OnlineDept | null {
    return feverDept(this.depts.value ?? [])
  }

  get hasRedFlag() {
    return this.redFlags.length > 0
  }

  setFever(on: boolean) {
    if (!this.form.created) this.fever = on
  }

  setExposure(on: boolean) {
    if (!this.form.created) this.exposure = on
  }

  toggleSymptom(s: FeverSymptom) {
    if (this.form.created) return
    this.symptoms = this.symptoms.includes(s) ? this.symptoms.filter((x) => x !== s) : FEVER_SYMPTOMS.filter((x) => x === s || this.symptoms.includes(x))
  }

  toggleRedFlag(f: RedFlag) {
    if (this.form.created) return
    this.redFlags = this.redFlags.includes(f) ? this.redFlags.filter((x) => x !== f) : RED_FLAGS.filter((x) => x === f || this.redFlags.includes(x))
  }

  /** The screening as the doctor reads it, then what the patient added. */
  get description(): string {
    const lines = [
      '【发热门诊预检】',
      `体温≥${FEVER_LINE}℃：${this.fever === null ? '未填写' : yesNo(this.fever)}`,
      `症状：${this.symptoms.length ? this.symptoms.join('、') : '无'}`,
      `近14天旅居史或接触史：${this.exposure === null ? '未填写' : yesNo(this.exposure)}`,
    ]
    const note = this.form.description.trim()
    if (note) lines.push(`补充说明：${note}`)
    return lines.join('\n')
  }

  /** Why 快速问诊 cannot go at all, or null. */
  get blocker(): string | null {
    if (!this.hospitalCode()) return '请先选择医院'
    if (this.hasRedFlag) return RED_FLAG_BLOCKER
    if (this.depts.state === 'loading' || this.depts.state === 'idle') return '接诊科室加载中'
    if (this.depts.state === 'failed') return '接诊科室加载失败'
    if (!this.form.patient) return '请先添加就诊人'
    if (this.form.photos.uploading) return '图片上传中'
    return null
  }

  private problem(): string | null {
    if (this.fever === null) return NO_FEVER_ANSWER
    if (this.exposure === null) return NO_EXPOSURE_ANSWER
    return null
  }

  /** Orders the quick inquiry; answers it (its doctor is the one the server chose), or null when refused here. */
  async submit(): Promise<Inquiry | null> {
    const form = this.form
    if (!form.created && this.blocker) return null
    const dept = this.dept
    return form.submit(
      () => this.problem(),
      (idempotencyKey) =>
        api.quickInquiry({
          hospitalCode: this.hospitalCode()!,
          ...(dept ? { deptId: dept.id } : {}),
          patientId: form.patient!.id,
          description: this.description,
          pictures: form.pictureUrls,
          idempotencyKey,
        }),
    )
  }
}

/** The fever store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useFeverStore = pageStore((root) => new FeverStore(() => root.hospital.hospital?.hospitalCode, usePatientStore.of(root)))
