import { useStores } from '..'
import type { RootStore } from '../RootStore'

/** A store of some pages: `useXStore()` in a component, `useXStore.of(root)` elsewhere (another store's making, a test). */
export interface PageStore<T> {
  (): T
  of(root: RootStore): T
}

/**
 * A store that only some pages use, made the first time one of them asks for it and kept for the session, one per
 * root store. Its code goes with those pages' scripts instead of into the first load, which carries only the root
 * store's own (preferences, user, hospital, chat: what every page and the startup need).
 */
export function pageStore<T>(make: (root: RootStore) => T): PageStore<T> {
  const made = new WeakMap<RootStore, T>()
  const of = (root: RootStore) => {
    let store = made.get(root)
    if (store === undefined) {
      store = make(root)
      made.set(root, store)
    }
    return store
  }
  function useStore() {
    return of(useStores())
  }
  return Object.assign(useStore, { of })
}
