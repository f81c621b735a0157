import { useContext } from 'react'
import { MobXProviderContext } from 'mobx-react'
import type { RootStore } from './RootStore'

/**
 * Components reach the stores only through this hook: the root store that src/app.tsx hands to mobx-react's
 * `<Provider rootStore>` (a test gives its own root store the same way, or mocks this module).
 */
export function useStores(): RootStore {
  const { rootStore } = useContext(MobXProviderContext) as { rootStore?: RootStore }
  if (!rootStore) throw new Error('useStores() is called outside <Provider rootStore> (src/app.tsx)')
  return rootStore
}
