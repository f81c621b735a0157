import { createContext, useContext } from 'react'
import type { RootStore } from './RootStore'

/** The root store that src/app.tsx provides to every page (a page test provides its own root store the same way). */
export const StoresContext = createContext<RootStore | null>(null)

/** Components reach the stores only through this hook (or a test mocks this module). */
export function useStores(): RootStore {
  const rootStore = useContext(StoresContext)
  if (!rootStore) throw new Error('useStores() is called outside <StoresContext.Provider> (src/app.tsx)')
  return rootStore
}
