import { makeAutoObservable } from 'mobx'
import { debounce } from '@/utils/debounce'
import { Loadable } from './base/Loadable'

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
  private readonly answer = new Loadable((keyword: string) => this.fetch(keyword))
  private readonly debounced = debounce((keyword: string) => void this.run(keyword), SEARCH_DEBOUNCE_MS)

  constructor(
    private readonly fetch: (keyword: string) => Promise<T>,
    private readonly isEmpty: (result: T) => boolean,
  ) {
    makeAutoObservable<KeywordSearch<T>, 'answer' | 'debounced' | 'fetch' | 'isEmpty'>(this, {
      answer: false,
      debounced: false,
      fetch: false,
      isEmpty: false,
    })
  }

  get result(): T | null {
    return this.answer.value
  }

  get state() {
    return this.answer.state
  }

  setKeyword(text: string) {
    this.keyword = text.slice(0, MAX_KEYWORD)
    const keyword = this.keyword.trim()
    if (!keyword) {
      this.debounced.cancel()
      this.answer.reset()
      return
    }
    this.debounced(keyword)
  }

  /** Runs the search now (the retry after a failure). */
  async run(keyword = this.keyword.trim()) {
    await this.answer.load(keyword).catch(() => undefined)
  }

  /** Searched, and nothing found. */
  get empty() {
    return this.state === 'done' && !!this.result && this.isEmpty(this.result)
  }
}
