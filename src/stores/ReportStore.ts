import { makeAutoObservable, runInAction } from 'mobx'
import platform from '@/platform'
import * as api from '@/services/report'
import { Loadable } from './base/Loadable'
import { OneAtATime } from './base/OneAtATime'
import { PagedList } from './base/PagedList'
import type { PatientStore } from './PatientStore'
import type { Page } from '../../types/api/hospital'
import type { ReportKind, ReportPage, ReportSummary, ReportVerifyState } from '../../types/api/report'
import { pageStore } from './base/pageStore'
import { usePatientStore } from './PatientStore'

export const REPORT_PAGE_SIZE = 10

/** What 报告查询 lists here: a kind of report, or the imaging studies with a cloud film (云影像). */
export type ReportTab = ReportKind | 'cloud'

/** The kinds of 报告查询 in the order the page shows them; 体检 and 核酸 open their own pages. */
export const REPORT_TABS: { label: string; value: ReportTab | 'physical' | 'nucleic' }[] = [
  { label: '检验', value: 'lab' },
  { label: '检查', value: 'imaging' },
  { label: '病理', value: 'pathology' },
  { label: '体检', value: 'physical' },
  { label: '核酸', value: 'nucleic' },
  { label: '云影像', value: 'cloud' },
]

/** A report in a list, with whether it opens a cloud film (the 云影像 tab). */
export type ReportItem = ReportSummary & { film: boolean }

/** The FHIR file's name: 检查检验报告-<patient>-<date>.json. */
export const fhirFileName = (patientId: number, now: Date) => `检查检验报告-${patientId}-${now.toISOString().slice(0, 10)}.fhir.json`

/**
 * 报告查询 (spec §2 Reports): the chosen patient's reports of one kind a page at a time with unread marks, a relative's
 * SMS code, one report whole, one lab item's trend, the cloud film's link and the FHIR copy.
 */
export class ReportStore {
  tab: ReportTab = 'lab'
  /** Whether the current patient's reports wait for the code sent to their mobile. */
  verify: ReportVerifyState = { required: false, mobile: '' }
  /** Unread reports of the current kind. */
  unread = 0
  readonly list: PagedList<ReportItem, Page<ReportItem> & { verify: ReportVerifyState; unread: number }>
  readonly lab = new Loadable((id: number) => api.getLabReport(id))
  readonly imaging = new Loadable((id: number) => api.getImagingReport(id))
  readonly pathology = new Loadable((id: number) => api.getPathologyReport(id))
  readonly trend = new Loadable((id: number, code: string) => api.getLabTrend(id, code))
  readonly action = new OneAtATime()

  constructor(
    private readonly hospitalCode: () => string | undefined,
    private readonly patients: Pick<PatientStore, 'current'>,
  ) {
    this.list = new PagedList((q) => this.fetchPage(q), REPORT_PAGE_SIZE, {
      canLoad: () => !!this.hospitalCode() && !!this.patients.current,
      onPage: (res) => {
        this.verify = res.verify
        this.unread = res.unread
      },
    })
    makeAutoObservable<ReportStore, 'hospitalCode' | 'patients' | 'fetchPage'>(this, {
      hospitalCode: false,
      patients: false,
      list: false,
      lab: false,
      imaging: false,
      pathology: false,
      trend: false,
      action: false,
      fetchPage: false,
    })
  }

  private async fetchPage(q: { page: number; size: number }) {
    const query = { hospitalCode: this.hospitalCode()!, patientId: this.patients.current!.id, ...q }
    const asItems = (page: ReportPage, film: (r: ReportSummary) => boolean) => ({ ...page, records: page.records.filter(film).map((r) => ({ ...r, film: true })) })
    if (this.tab === 'cloud') {
      const page = await api.listCloudStudies(query)
      const withFilm = new Set(page.studies.map((s) => s.id))
      return asItems(page, (r) => withFilm.has(r.id))
    }
    const page = this.tab === 'pathology' ? await api.listPathology(query) : await api.listReports({ ...query, kind: this.tab })
    return { ...page, records: page.records.map((r) => ({ ...r, film: false })) }
  }

  /** The kind a page of one kind lists (its list loads once the patients are known). */
  setTab(tab: ReportTab) {
    this.tab = tab
  }

  /** Another kind (or the cloud films): its first page. */
  choose(tab: ReportTab) {
    this.tab = tab
    return this.list.reload()
  }

  /** The current patient's first page again (another patient chosen, a code checked). */
  reload() {
    this.verify = { required: false, mobile: '' }
    return this.list.reload()
  }

  /** Sends the code to the relative's mobile. */
  sendCode() {
    const patient = this.patients.current
    const hospitalCode = this.hospitalCode()
    if (!patient || !hospitalCode) return Promise.resolve(null)
    return api.verifyReportCode({ hospitalCode, patientId: patient.id })
  }

  /** Checks the code; the list shows the reports once it holds. Answers whether it did. */
  async checkCode(code: string): Promise<boolean> {
    const patient = this.patients.current
    const hospitalCode = this.hospitalCode()
    if (!patient || !hospitalCode) return false
    const answer = await this.action.run(() => api.verifyReportCode({ hospitalCode, patientId: patient.id, code }))
    if (!answer?.verified) return false
    await this.reload()
    return true
  }

  /** A report opened from the list is read: its mark goes at once (the server records it as the report loads). */
  markRead(id: number) {
    const item = this.list.items.find((r) => r.id === id)
    if (!item?.unread) return
    this.list.update((r) => (r.id === id ? { ...r, unread: false } : r))
    runInAction(() => {
      this.unread = Math.max(0, this.unread - 1)
    })
  }

  /** The patient's reports as a FHIR R4 file: downloaded on H5, copied in a mini-program. */
  async exportFhir(now = new Date()): Promise<'downloaded' | 'copied' | null> {
    const patient = this.patients.current
    const hospitalCode = this.hospitalCode()
    if (!patient || !hospitalCode) return null
    return this.action.run(async () => {
      const bundle = await api.getReportsFhir(hospitalCode, patient.id)
      return platform.saveTextFile(fhirFileName(patient.id, now), JSON.stringify(bundle, null, 2), 'application/fhir+json')
    })
  }

  /** Where the cloud film of an imaging report opens: an absolute address (a relative one is this server's). */
  async filmUrl(id: number): Promise<string> {
    const { url } = await api.getViewerParam(id)
    return /^https?:\/\//.test(url) ? url : `${platform.webOrigin()}${url}`
  }
}

/** The reports store, made when a page first asks for it (src/stores/base/pageStore.ts). */
export const useReportStore = pageStore((root) => new ReportStore(() => root.hospital.hospital?.hospitalCode, usePatientStore.of(root)))
