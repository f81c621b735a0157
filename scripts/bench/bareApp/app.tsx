import type { PropsWithChildren } from 'react'
import { makeAutoObservable } from 'mobx'

/** A MobX store as the app's are made, so that MobX is in the bare app's first load as it is in the app's. */
class Counter {
  count = 0
  constructor() {
    makeAutoObservable(this)
  }
  add() {
    this.count++
  }
}

export const counter = new Counter()

export default function App({ children }: PropsWithChildren) {
  return <>{children}</>
}
