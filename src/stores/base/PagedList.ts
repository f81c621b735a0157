import { makeAutoObservable, runInAction } from 'mobx'
import { Latest } from './Latest'
import type { LoadState } from './Loadable'
import type { PageQuery } from '@/services/records'
import type { Page } from '../../../types/api/hospital'

/**
 * A list read a page at a time (spec §8 加载中... / 没有更多了 / 加载失败): a page after the last, a retry after a
 * failed one; after `reload` an answer to the earlier list is dropped; an item already shown is not shown twice. A
 * short page, or as many items as the total, is the end.
 */
export class PagedList<T extends { id: number }, R extends Page<T> = Page<T>> {
  items: T[] = []
  state: LoadState = 'idle'
  private page = 0
  private readonly latest = new Latest()

  constructor(
    private readonly fetch: (q: PageQuery) => Promise<R>,
    private readonly size: number,
    private readonly options: {
      /** False while the list has nothing to ask for yet (no hospital, no doctor): loading waits. */
      canLoad?: () => boolean
      /** Runs with each fresh page's whole answer (a summary beside the items). */
      onPage?: (res: R) => void
    } = {},
  ) {
    makeAutoObservable<PagedList<T, R>, 'page' | 'latest' | 'fetch' | 'size' | 'options'>(this, {
      page: false,
      latest: false,
      fetch: false,
      size: false,
      options: false,
    })
  }

  get empty() {
    return this.state === 'done' && this.items.length === 0
  }

  /** The first page failed: nothing to show but the failure. */
  get failedEmpty() {
    return this.state === 'failed' && this.items.length === 0
  }

  async reload() {
    this.items = []
    this.page = 0
    this.state = 'idle'
    this.latest.drop()
    await this.loadMore(true)
  }

  /** The next page; `retry` also after a failed one (the more-line's tap), not on reaching the bottom. */
  async loadMore(retry = false) {
    if (this.options.canLoad && !this.options.canLoad()) return
    if (this.state === 'loading' || this.state === 'done') return
    if (this.state === 'failed' && !retry) return
    const current = this.latest.next()
    const page = this.page + 1
    this.state = 'loading'
    try {
      const res = await this.fetch({ page, size: this.size })
      runInAction(() => {
        if (!current()) return
        const known = new Set(this.items.map((i) => i.id))
        this.items = [...this.items, ...res.records.filter((i) => !known.has(i.id))]
        this.page = page
        this.state = res.records.length < this.size || page * this.size >= res.total ? 'done' : 'idle'
        this.options.onPage?.(res)
      })
    } catch {
      runInAction(() => {
        if (current()) this.state = 'failed'
      })
    }
  }

  /** Changes items in place (a notice read, an order that moved on). */
  update(change: (item: T) => T) {
    this.items = this.items.map(change)
  }
}
