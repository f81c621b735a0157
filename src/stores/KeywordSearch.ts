import { makeAutoObservable, runInAction } from 'mobx'
import { debounce } from '@/utils/debounce'

/** Where a list or a page's data stands; every list shows each of these (spec §8: 加载中... / 没有更多了 / 加载失败). */
export type LoadState = 'idle' | 'loading' | 'done' | 'failed'

/** spec §9: default debounce 500 ms, for a search as the patient types. */
export const SEARCH_DEBOUNCE_MS = 500
/** The server takes keywords of 1–20 characters; longer input is cut rather than refused. */
export const MAX_KEYWORD = 20

/**
 * A search box (the department search, the online-doctor search): the search runs SEARCH_DEBOUNCE_MS after the last
 * keystroke, clearing the box clears the result, and an answer to an older keyword that arrives late is dropped.
 */
export class KeywordSearch<T> {
  keyword = ''
  result: T | null = null
  state: LoadState = 'idle'
  private seq = 0
  private readonly debounced = debounce((keyword: string) => void this.run(keyword), SEARCH_DEBOUNCE_MS)

  constructor(
    private readonly fetch: (keyword: string) => Promise<T>,
    private readonly isEmpty: (result: T) => boolean,
  ) {
    makeAutoObservable<KeywordSearch<T>, 'seq' | 'debounced' | 'fetch' | 'isEmpty'>(this, { seq: false, debounced: false, fetch: false, isEmpty: false })
  }

  setKeyword(text: string) {
    this.keyword = text.slice(0, MAX_KEYWORD)
    const keyword = this.keyword.trim()
    if (!keyword) {
      this.debounced.cancel()
      this.seq++
      this.result = null
      this.state = 'idle'
      return
    }
    this.debounced(keyword)
  }

  /** Runs the search now (the retry after a failure). */
  async run(keyword = this.keyword.trim()) {
    const seq = ++this.seq
    this.state = 'loading'
    try {
      const result = await this.fetch(keyword)
      runInAction(() => {
        if (seq !== this.seq) return
        this.result = result
        this.state = 'done'
      })
    } catch {
      runInAction(() => {
        if (seq === this.seq) this.state = 'failed'
      })
    }
  }

  /** Searched, and nothing found. */
  get empty() {
    return this.state === 'done' && !!this.result && this.isEmpty(this.result)
  }
}
