import { makeAutoObservable, runInAction } from 'mobx'
import { outcomeUnknown } from '@/services/request'
import { newIdempotencyKey } from '@/utils/register'

/**
 * One attempt at something the server must do once (an order, a booking, a gift): every try of the attempt sends its
 * idempotency key. A business refusal made nothing, so the next try is a new attempt with a new key; no answer at
 * all (network, timeout, 5xx: `outcomeUnknown`) may have made it, so the retry keeps the key and the server answers
 * that same one. A success keeps the key too (paying again pays what was made); `renew` starts a new attempt.
 */
export class IdempotentAttempt {
  key = newIdempotencyKey()
  /** A try is on its way; callers send no second one meanwhile (double taps send one request). */
  inFlight = false

  constructor() {
    makeAutoObservable(this)
  }

  /** A new attempt with its own key. */
  renew() {
    this.key = newIdempotencyKey()
  }

  /** One try with the attempt's key; a refusal is rethrown after the key rule is applied. */
  async run<T>(call: (idempotencyKey: string) => Promise<T>): Promise<T> {
    this.inFlight = true
    try {
      return await call(this.key)
    } catch (e) {
      runInAction(() => {
        if (!outcomeUnknown(e)) this.renew()
      })
      throw e
    } finally {
      runInAction(() => {
        this.inFlight = false
      })
    }
  }
}
