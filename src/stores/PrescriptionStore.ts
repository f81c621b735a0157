import { makeAutoObservable, runInAction } from 'mobx'
import * as api from '@/services/pharmacy'
import { Loadable } from './base/Loadable'
import { PagedList } from './base/PagedList'
import type { PatientStore } from './PatientStore'
import type { Prescription, PrescriptionSummary, UsedDrug } from '../../types/api/pharmacy'
import { noStorePrescriptionUrl, sureOrderUrl } from '@/pageUrls'
import { MEDICINES_MAX, MEDICINE_NAME_MAX } from './FollowUpStore'
import { pageStore } from './base/pageStore'
import { usePatientStore } from './PatientStore'

export const PRESCRIPTION_PAGE_SIZE = 10

/** A medicine chosen for 续方 (spec §3 editMedicine): one from the records, with how much of it. */
export interface EditMedicine extends UsedDrug {
  quantity: number
}

/** What the renewal form takes (spec §3 continueDrug): the medicines chosen for one patient, as the form writes them. */
export interface ContinueDrug {
  patientId: number
  medicines: string[]
}

/** How a chosen medicine reads on the renewal form: name, spec and how many, within the form's length. */
export const medicineLine = (m: EditMedicine) => `${m.drugName} ${m.drugSpec} ×${m.quantity}${m.unit}`.slice(0, MEDICINE_NAME_MAX)

/**
 * How the 处方笺 page is opened: by the prescription's id (lists), by its number (a message or a card that carries only
 * the number), or by the pharmacy order placed from it (查看处方 on an order).
 */
export type PrescriptionRef = { id: number } | { presNo: string } | { orderId: number }

const refKey = (ref: PrescriptionRef) => ('id' in ref ? `id:${ref.id}` : 'presNo' in ref ? `no:${ref.presNo}` : `order:${ref.orderId}`)

/**
 * The patient's prescriptions (spec §3 prescription): the current patient's a page at a time (orderList), all of the
 * user's (处方流转), the one open, the medicines prescribed before (用药记录) and those chosen from them for 续方
 * (selectMedicineList, editMedicine), handed to the renewal form (continueDrug).
 */
export class PrescriptionStore {
  /** The one open (处方笺), however it was named (`open`). */
  readonly prescription = new Loadable((ref: PrescriptionRef) =>
    'id' in ref ? api.getPrescription(ref.id) : 'presNo' in ref ? api.getPrescriptionByNo(ref.presNo) : api.getOrderPrescription(ref.orderId),
  )
  /** Which one `prescription` holds (refKey): another one's must not show while this one is read. */
  private openedAs = ''
  /** The formulary facts of the medicine whose 药品说明 is open (a prescription's line, a product of the shop). */
  readonly drugInfo = new Loadable(async (drugId: number) => {
    const [info] = await api.getDrugDetails([drugId])
    if (!info) throw new Error('no such drug')
    return info
  })
  /** The one open with the stores that can fill it (去购药, 暂无可配药的药房). */
  readonly toOrder = new Loadable((id: number) => api.getPrescriptionToOrder(id))
  readonly orderList: PagedList<PrescriptionSummary>
  /** 处方流转: every prescription of the user's patients. */
  readonly outflow = new PagedList<PrescriptionSummary>((q) => api.listPrescriptions(q), PRESCRIPTION_PAGE_SIZE)
  /** The current patient's medicines prescribed before. */
  readonly historyDrug = new Loadable((patientId: number) => api.listUsedDrugs(patientId))
  readonly store = new Loadable((id: number) => api.getStore(id))
  /** The drug ids ticked on 用药记录. */
  selectMedicineList: number[] = []
  /** The medicines of 续方用药清单, with their quantities. */
  editMedicine: EditMedicine[] = []
  continueDrug: ContinueDrug | null = null

  constructor(private readonly patients: Pick<PatientStore, 'current'>) {
    this.orderList = new PagedList((q) => api.listPrescriptions({ patientId: this.patients.current!.id, ...q }), PRESCRIPTION_PAGE_SIZE, {
      canLoad: () => !!this.patients.current,
    })
    makeAutoObservable<PrescriptionStore, 'patients'>(this, {
      patients: false,
      prescription: false,
      drugInfo: false,
      toOrder: false,
      orderList: false,
      outflow: false,
      historyDrug: false,
      store: false,
    })
  }

  /** Opens a prescription for 处方笺; the one shown before is dropped when this is another. */
  async open(ref: PrescriptionRef) {
    const key = refKey(ref)
    if (key !== this.openedAs) {
      this.prescription.reset()
      this.openedAs = key
    }
    await this.prescription.load(ref)
  }

  /** The prescription `ref` names, once read. */
  opened(ref: PrescriptionRef): Prescription | null {
    return this.openedAs === refKey(ref) ? this.prescription.value : null
  }

  /**
   * The status line of the open prescription, read again (prescriptionStatus) when its page is shown again: buying it
   * (去购药), or its order being closed or refunded, changes only its status and its order, not what was written, so
   * the whole prescription is not read twice. 待审核 / 审核通过 / 审核未通过 / 已撤回 / 已过期 / 已下单 are the server's words.
   */
  async refreshStatus() {
    const p = this.prescription.value
    if (!p) return
    const s = await api.getPrescriptionStatus(p.id)
    runInAction(() => {
      if (this.prescription.value?.id !== s.id) return
      this.prescription.value = { ...this.prescription.value, status: s.status, statusText: s.statusText, orderable: s.orderable, orderId: s.orderId }
    })
  }

  /** The current patient's medicines prescribed before, afresh; nothing ticked. */
  async loadHistory() {
    const patient = this.patients.current
    this.selectMedicineList = []
    if (!patient) return
    this.historyDrug.reset()
    await this.historyDrug.load(patient.id).catch(() => undefined)
  }

  get usedDrugs(): UsedDrug[] {
    return this.historyDrug.value ?? []
  }

  get selected(): UsedDrug[] {
    return this.usedDrugs.filter((d) => this.selectMedicineList.includes(d.drugId))
  }

  /** Ticks or unticks a medicine; no more than the renewal form takes. */
  toggle(drugId: number) {
    if (this.selectMedicineList.includes(drugId)) this.selectMedicineList = this.selectMedicineList.filter((id) => id !== drugId)
    else if (this.selectMedicineList.length < MEDICINES_MAX) this.selectMedicineList.push(drugId)
  }

  /** The ticked medicines become 续方用药清单, one of each to start with. */
  startEditing() {
    this.editMedicine = this.selected.map((d) => ({ ...d, quantity: 1 }))
  }

  setQuantity(drugId: number, quantity: number) {
    const q = Math.max(1, Math.min(99, Math.floor(quantity) || 1))
    this.editMedicine = this.editMedicine.map((m) => (m.drugId === drugId ? { ...m, quantity: q } : m))
  }

  removeMedicine(drugId: number) {
    this.editMedicine = this.editMedicine.filter((m) => m.drugId !== drugId)
    this.selectMedicineList = this.selectMedicineList.filter((id) => id !== drugId)
  }

  /** The doctors who prescribed the medicines on the list, the latest first: a renewal is asked of one of them. */
  get editDoctors(): { id: number; name: string }[] {
    const latest = [...this.editMedicine].sort((a, b) => b.lastPrescribedAt.localeCompare(a.lastPrescribedAt))
    const doctors = new Map<number, string>()
    for (const m of latest) if (!doctors.has(m.doctorId)) doctors.set(m.doctorId, m.doctorName)
    return [...doctors].map(([id, name]) => ({ id, name }))
  }

  /** Hands the medicines (the list's, or those just ticked) to the renewal form, for the current patient. */
  continueWith(medicines: EditMedicine[]) {
    const patient = this.patients.current
    if (!patient || !medicines.length) return false
    this.continueDrug = { patientId: patient.id, medicines: medicines.map(medicineLine) }
    return true
  }

  clearContinueDrug() {
    this.continueDrug = null
  }

  /** Where 去购药 leads: the order page when a partner pharmacy can fill it, else the page that says none can. */
  async buyUrl(id: number): Promise<string> {
    const p = await this.toOrder.load(id)
    return p.stores?.length ? sureOrderUrl(id) : noStorePrescriptionUrl(id)
  }
}

/** The prescription store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const usePrescriptionStore = pageStore((root) => new PrescriptionStore(usePatientStore.of(root)))
