import { makeAutoObservable, runInAction } from 'mobx'

/**
 * An action that runs once at a time (paying, cancelling, submitting): a second tap while the first is on its way
 * sends nothing and gets `whenBusy` back; `busy` is what the page shows (a disabled button, 支付中...).
 */
export class OneAtATime {
  busy = false

  constructor() {
    makeAutoObservable(this)
  }

  run<T>(action: () => Promise<T>): Promise<T | null>
  run<T, F>(action: () => Promise<T>, whenBusy: F): Promise<T | F>
  async run<T, F>(action: () => Promise<T>, whenBusy: F | null = null): Promise<T | F | null> {
    if (this.busy) return whenBusy
    this.busy = true
    try {
      return await action()
    } finally {
      runInAction(() => {
        this.busy = false
      })
    }
  }
}
