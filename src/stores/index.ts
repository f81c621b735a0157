import { rootStore, type RootStore } from './RootStore'

/** Components reach the stores only through this hook. */
export function useStores(): RootStore {
  return rootStore
}
