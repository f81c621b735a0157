import { makeAutoObservable, runInAction } from 'mobx'
import Taro from '@tarojs/taro'
import platform from '@/platform'
import * as palm from '@/services/palm'
import { autoRegister, getHealthCardQr } from '@/services/hospital'
import { uploadFile } from '@/services/auth'
import { SESSION, session } from '@/services/storage'
import { Loadable } from './base/Loadable'
import { OneAtATime } from './base/OneAtATime'
import type {
  Accompany,
  AccompanyInput,
  BindNeonateInput,
  BindPatientInput,
  CompletePatientInput,
  HealthCardQrCode,
  HospitalCard,
  IdCardOcrResult,
  Patient,
  PatientRecordInfo,
  UpdateAccompanyInput,
} from '../../types/api/patient'
import { pageStore } from './base/pageStore'

/** WeChat health-card rule, enforced by the server too: at most 5 patients per account. */
export const MAX_PATIENTS = 5
/** Wards issue passes to at most two named escorts per patient (the server's MAX_ESCORTS). */
export const MAX_ESCORTS = 2
/** The relation dictionary's entries when it cannot be read (the seed's own list). */
export const RELATIONS = ['本人', '父母', '配偶', '子女', '其他']
/** What an escort can be to the patient: never the patient themself. */
export const ESCORT_RELATIONS = ['父母', '配偶', '子女', '其他']
/** The page the health-card authorisation comes back to; it finishes the bind (spec §2 health-card redirect). */
export const HEALTH_CARD_RETURN = '/pages/addPatient/index'

type Bind = Omit<BindPatientInput, 'hospitalCode'>

/** A patient's card at a hospital (电子就诊卡): the patient as a flow sees it, and the hospital's record of them. */
export interface PatientCard {
  patient: Patient
  record: PatientRecordInfo
  /**
   * A patient bound with an electronic health card: the card's QR code, read again each time the card is read (the
   * platform's code is dynamic); null when the platform did not answer, which leaves the rest of the card as it is.
   */
  healthCard: HealthCardQrCode | null
}

/** A person whose name and identity number a form starts with (the insurance sandbox's test person). */
export interface PatientDraft {
  name: string
  idCard: string
}
type Neonate = Omit<BindNeonateInput, 'hospitalCode'>

/**
 * The people behind the account (spec §3 Patient and Accompany): the patient list of the current hospital, the
 * patient a flow acts for (session key 'patient'), and the escorts of one patient at a time.
 */
export class PatientStore {
  /** The patients bound to the account at the current hospital; a chosen one no longer among them is forgotten. */
  readonly bound = new Loadable(
    () => palm.listPatients(this.hospitalCode()),
    (list) => {
      if (this.selected && !list.some((p) => p.id === this.selected!.id)) this.choose(null)
    },
  )
  /** The patient chosen for this session's flows; null means "the default one". */
  selected: Patient | null = session.get<Patient>(SESSION.patient) ?? null
  relations: string[] = RELATIONS
  private readonly spentHealthCodes = new Set<string>()

  escortPatientId: number | null = null
  /** Adding or completing a patient (the add-patient forms): one save at a time, its button shows it. */
  readonly saving = new OneAtATime()
  readonly escortList = new Loadable((patientId: number) => palm.listAccompanies(patientId))
  /** One patient's card at the current hospital, read fresh (patient/info and record-info together). */
  readonly card = new Loadable(
    async (patientId: number, hospitalCode: string): Promise<PatientCard> => {
      const [patient, record] = await Promise.all([palm.getPatientInfo(patientId, hospitalCode), palm.getPatientRecordInfo(patientId, hospitalCode)])
      const healthCard = patient.source === 'eHealth' ? await getHealthCardQr(patientId, hospitalCode).catch(() => null) : null
      return { patient, record, healthCard }
    },
  )
  /** 申领就诊卡: one at a time, its button shows it. */
  readonly filing = new OneAtATime()
  /** What the identity-card form starts with, once (kept in memory only, never in the address or storage). */
  draft: PatientDraft | null = null

  constructor(private readonly hospitalCode: () => string | undefined = () => undefined) {
    makeAutoObservable<PatientStore, 'hospitalCode' | 'spentHealthCodes'>(this, {
      bound: false,
      escortList: false,
      card: false,
      filing: false,
      saving: false,
      hospitalCode: false,
      spentHealthCodes: false,
    })
  }

  get list(): Patient[] {
    return this.bound.value ?? []
  }

  /** Read once at least: until then `current` is the session's choice as it was kept. */
  get loaded() {
    return this.bound.value !== null
  }

  get loadFailed() {
    return this.bound.state === 'failed'
  }

  get escorts(): Accompany[] {
    return this.escortList.value ?? []
  }

  get escortsLoading() {
    return this.escortList.state === 'loading'
  }

  get escortsFailed() {
    return this.escortList.state === 'failed'
  }

  get defaultPatient(): Patient | null {
    return this.list.find((p) => p.isDefault) ?? this.list[0] ?? null
  }

  /** The patient a flow acts for: the one chosen in this session while it is still bound, else the default. */
  get current(): Patient | null {
    if (!this.loaded) return this.selected
    return (this.selected && this.list.find((p) => p.id === this.selected!.id)) || this.defaultPatient
  }

  get full() {
    return this.list.length >= MAX_PATIENTS
  }

  get escortsFull() {
    return this.escorts.length >= MAX_ESCORTS
  }

  byId(id: number): Patient | undefined {
    return this.list.find((p) => p.id === id)
  }

  async load() {
    await this.bound.load()
  }

  /** Makes a patient the one this session's flows act for (spec §3 session key 'patient'); null: the default. */
  choose(patient: Patient | null) {
    this.selected = patient
    if (patient) session.set(SESSION.patient, patient)
    else session.remove(SESSION.patient)
  }

  /** The relation dictionary (POST /dld-palm/admin/system/dict 'relation'); the fixed list when it cannot be read. */
  async loadRelations() {
    const items = await palm.listDict('relation').catch(() => [])
    runInAction(() => {
      if (items.length) this.relations = items.map((i) => i.label)
    })
  }

  async bind(input: Bind) {
    const patient = await palm.bindPatient({ ...input, hospitalCode: this.hospitalCode() })
    await this.load()
    return patient
  }

  async bindNeonate(input: Neonate) {
    const patient = await palm.bindNeonate({ ...input, hospitalCode: this.hospitalCode() })
    await this.load()
    return patient
  }

  /** Finishes the health-card bind with the one-time code the authorisation returned. */
  async bindHealthCard(healthCode: string, relation: string, isDefault: boolean) {
    const patient = await palm.bindHealthCard({ healthCode, relation, isDefault, hospitalCode: this.hospitalCode() })
    await this.load()
    return patient
  }

  /**
   * The return from the health-card authorisation: the one-time code leaves the address bar first (a refresh must
   * not spend it again) and is redeemed once per page load.
   */
  async finishHealthCard(healthCode: string, relation: string, isDefault: boolean) {
    platform.stripParams(['healthCode'])
    if (this.spentHealthCodes.has(healthCode)) return null
    this.spentHealthCodes.add(healthCode)
    return this.bindHealthCard(healthCode, relation || RELATIONS[0]!, isDefault)
  }

  /**
   * Sends the browser to choose an electronic health card (as UserStore sends it to authorisation); it comes back
   * to the add-patient page with healthCode, relation and isDefault in the query.
   */
  async startHealthCard(relation: string, isDefault: boolean) {
    const hospitalCode = this.hospitalCode()
    if (!hospitalCode) throw new Error('请先选择医院')
    const redirect = `${HEALTH_CARD_RETURN}?business=eHealth&relation=${encodeURIComponent(relation)}${isDefault ? '&isDefault=1' : ''}`
    const { url } = await palm.getHealthCardUrl({ hospitalCode, redirect })
    platform.leaveTo(url)
  }

  /** One patient whole, for the completion / edit page. */
  detail(id: number) {
    return palm.getPatient(id)
  }

  /**
   * Completes a patient. One that was incomplete is filed at the current hospital once complete, as a patient complete
   * at binding is filed at once: nobody asks for it, so it goes through autoRegister and a failure leaves it to 申领.
   */
  async complete(input: CompletePatientInput) {
    const wasIncomplete = this.byId(input.id)?.complete === false
    const patient = await palm.completePatient(input)
    const hospitalCode = this.hospitalCode()
    if (hospitalCode && wasIncomplete && patient.complete) await autoRegister(patient.id, hospitalCode).catch(() => undefined)
    await this.load()
    return patient
  }

  /** Reads one patient's card at the current hospital (nothing without a hospital: the page asks to choose one). */
  async loadCard(patientId: number) {
    const hospitalCode = this.hospitalCode()
    if (!hospitalCode) return
    if (this.card.value?.patient.id !== patientId) this.card.reset()
    await this.card.load(patientId, hospitalCode)
  }

  /**
   * 申领就诊卡: the patient asks to be filed at the current hospital (its card is issued once; one it has already is
   * answered as it is). The card and the list show the number at once.
   */
  async fileAtHospital(patientId: number): Promise<HospitalCard | null> {
    const hospitalCode = this.hospitalCode()
    if (!hospitalCode) throw new Error('请先选择医院')
    return this.filing.run(async () => {
      const card = await palm.fileAtHospital(patientId, hospitalCode)
      await Promise.all([this.card.load(patientId, hospitalCode).catch(() => undefined), this.load().catch(() => undefined)])
      return card
    })
  }

  /** The identity-card form that opens next starts with this person. */
  startDraft(draft: PatientDraft) {
    this.draft = draft
  }

  /** The form has taken the draft: later forms start empty. */
  clearDraft() {
    this.draft = null
  }

  /** Exactly one default: the chosen one becomes it, every other one stops being it. */
  async setDefault(id: number) {
    const patient = await palm.setDefaultPatient(id, this.hospitalCode())
    this.changeList((list) => list.map((p) => (p.id === id ? { ...p, ...patient, isDefault: true } : { ...p, isDefault: false })))
    return patient
  }

  /** Unbinding the default moves the default to the patient the server names. */
  async unbind(id: number) {
    const { defaultPatientId } = await palm.unbindPatient(id)
    runInAction(() => {
      this.changeList((list) => list.filter((p) => p.id !== id).map((p) => (defaultPatientId === null ? p : { ...p, isDefault: p.id === defaultPatientId })))
      if (this.selected?.id === id) this.choose(null)
      if (this.escortPatientId === id) {
        this.escortPatientId = null
        this.escortList.reset()
      }
    })
    return defaultPatientId
  }

  /** A change the server has made, shown without reading the list again (a list not read yet stays unread). */
  private changeList(change: (list: Patient[]) => Patient[]) {
    if (this.bound.value) this.bound.value = change(this.bound.value)
  }

  /** 拍照识别: choose a photo, upload it through the request layer and read the identity card on it. */
  async readIdCard(): Promise<IdCardOcrResult | null> {
    const chosen = await Taro.chooseImage({ count: 1, sizeType: ['compressed'], sourceType: ['album', 'camera'] }).catch(() => null)
    const path = chosen?.tempFilePaths[0]
    if (!path) return null
    const { url } = await uploadFile(path)
    return palm.readIdCardPhoto(url)
  }

  async loadEscorts(patientId: number) {
    if (this.escortPatientId !== patientId) this.escortList.reset()
    this.escortPatientId = patientId
    await this.escortList.load(patientId)
  }

  escort(id: number) {
    return palm.getAccompany(id)
  }

  async addEscort(input: AccompanyInput) {
    const escort = await palm.addAccompany(input)
    await this.loadEscorts(input.patientId)
    return escort
  }

  async updateEscort(input: UpdateAccompanyInput) {
    const escort = await palm.updateAccompany(input)
    await this.loadEscorts(escort.patientId)
    return escort
  }

  async unbindEscort(id: number) {
    await palm.unbindAccompany(id)
    runInAction(() => {
      if (this.escortList.value) this.escortList.value = this.escortList.value.filter((e) => e.id !== id)
    })
  }
}

/** The patient store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const usePatientStore = pageStore((root) => new PatientStore(() => root.hospital.hospital?.hospitalCode))
