import type { PropsWithChildren } from 'react'
import Taro, { useError, usePageNotFound, useUnhandledRejection } from '@tarojs/taro'
import { rootStore } from './stores/RootStore'
import { StoresContext } from './stores'
import { NOT_FOUND_URL } from './pageUrls'
import platform from '@/platform'
import './app.scss'

// H5: startup (or the return from authorisation) begins while the page's own code is still on its way; back from
// authorisation, the page the patient was on opens at once (RootStore.startEarly)
if (process.env.TARO_ENV === 'h5') {
  const opened = platform.currentUrl()
  const opens = rootStore.startEarly(opened)
  if (opens !== opened) platform.openInstead(opens)
}

/** The root store is built once (src/stores/RootStore.ts) and provided to every page; pages read it with useStores(), and their own stores with useXStore() (src/stores/base/pageStore.ts). */
function App({ children }: PropsWithChildren) {
  // an address that is no page of this build (an old link, a typo) shows 页面不存在 with the way home, in H5 and the
  // mini-programs alike, instead of a loading placeholder that never ends
  usePageNotFound(() => void Taro.redirectTo({ url: NOT_FOUND_URL }))
  // what breaks on a patient's phone reaches the server's log (a few reports a session, scrubbed: RootStore)
  useError((error) => rootStore.reportError('error', error))
  useUnhandledRejection((event) => rootStore.reportError('rejection', (event as { reason?: unknown }).reason))
  return <StoresContext.Provider value={rootStore}>{children}</StoresContext.Provider>
}

export default App
