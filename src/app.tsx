import type { PropsWithChildren } from 'react'
import { Provider } from 'mobx-react'
import { rootStore } from './stores/RootStore'
import './app.scss'

/** The stores are built once (src/stores/RootStore.ts) and provided to every page; pages read them with useStores(). */
function App({ children }: PropsWithChildren) {
  return <Provider rootStore={rootStore}>{children}</Provider>
}

export default App
