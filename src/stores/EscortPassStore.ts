import { makeAutoObservable, runInAction } from 'mobx'
import { ApiError } from '@/services/request'
import { getEscortPass } from '@/services/palm'
import type { EscortPass } from '../../types/api/escortPass'
import { Latest } from './base/Latest'

/** Where the pass page stands: the pass, the server's refusal (not in hospital) to explain, or a failure to retry. */
export type EscortPassState = 'idle' | 'loading' | 'done' | 'refused' | 'failed'

/**
 * 电子陪护证 of one escort (page /palm/hospitalization/escort/eleAttend): the signed pass, asked for again by 刷新
 * (it lasts 24 hours). A refusal the patient can act on (the patient is not in hospital) is kept as its message for the
 * page to explain; the request layer shows nothing for it (silent).
 */
export class EscortPassStore {
  pass: EscortPass | null = null
  state: EscortPassState = 'idle'
  refusal = ''
  private readonly latest = new Latest()

  constructor(private readonly hospitalCode: () => string | undefined) {
    makeAutoObservable<EscortPassStore, 'latest' | 'hospitalCode'>(this, { latest: false, hospitalCode: false })
  }

  get loading() {
    return this.state === 'loading'
  }

  async load(escortId: number): Promise<void> {
    const hospitalCode = this.hospitalCode()
    if (!hospitalCode || !Number.isSafeInteger(escortId) || escortId <= 0) return
    const current = this.latest.next()
    this.state = 'loading'
    try {
      const pass = await getEscortPass(escortId, hospitalCode)
      runInAction(() => {
        if (!current()) return
        this.pass = pass
        this.refusal = ''
        this.state = 'done'
      })
    } catch (e) {
      runInAction(() => {
        if (!current()) return
        this.pass = null
        // a business refusal (400) says why; anything else is a failure to try again
        if (e instanceof ApiError && e.code === 400) {
          this.refusal = e.message
          this.state = 'refused'
        } else {
          this.state = 'failed'
        }
      })
    }
  }
}
