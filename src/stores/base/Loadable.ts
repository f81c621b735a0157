import { makeAutoObservable, runInAction } from 'mobx'
import { Latest } from './Latest'

/** Where a list or a page's data stands; every list shows each of these (spec §8: 加载中... / 没有更多了 / 加载失败). */
export type LoadState = 'idle' | 'loading' | 'done' | 'failed'

/**
 * One value read from the server (spec §8 加载中 / 加载失败): it stays on show while it is read again, and an answer
 * to an earlier `load` that arrives after a later one was asked for is dropped. `load` rethrows a failure for the
 * caller that wants it (the request layer has shown it already).
 */
export class Loadable<T, A extends unknown[] = []> {
  value: T | null = null
  state: LoadState = 'idle'
  private readonly latest = new Latest()

  constructor(
    private readonly fetch: (...args: A) => Promise<T>,
    /** Runs with each fresh value, in the same action (to show it wherever else it is shown). */
    private readonly onLoad: (value: T) => void = () => undefined,
  ) {
    makeAutoObservable<Loadable<T, A>, 'latest' | 'fetch' | 'onLoad'>(this, { latest: false, fetch: false, onLoad: false })
  }

  async load(...args: A): Promise<T> {
    const current = this.latest.next()
    this.state = 'loading'
    try {
      const value = await this.fetch(...args)
      runInAction(() => {
        if (!current()) return
        this.value = value
        this.state = 'done'
        this.onLoad(value)
      })
      return value
    } catch (e) {
      runInAction(() => {
        if (current()) this.state = 'failed'
      })
      throw e
    }
  }

  /** Nothing on show and nothing on its way (another key: a value of the one before must not show). */
  reset() {
    this.latest.drop()
    this.value = null
    this.state = 'idle'
  }
}
