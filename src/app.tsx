import type { PropsWithChildren } from 'react'
import './app.scss'

/** The stores are module singletons (src/stores); pages reach them through useStores(). */
function App({ children }: PropsWithChildren) {
  return children
}

export default App
