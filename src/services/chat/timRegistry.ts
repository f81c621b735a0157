import type { ChatDriver } from './driver'

/** Makes the Tencent IM driver of an app (its SDKAppID). */
export type TimDriverFactory = (sdkAppId: number) => ChatDriver

let registered: TimDriverFactory | null = null
const waiting = new Set<(create: TimDriverFactory) => void>()

/**
 * The Tencent IM driver is not part of the main package: the internet pages that chat bring it, and its SDK with it
 * (src/platform/imDriver.ts), and hand it over here.
 */
export function registerTimDriver(create: TimDriverFactory) {
  registered = create
  const ready = [...waiting]
  waiting.clear()
  for (const use of ready) use(create)
}

/** Hands the factory to `use` once it is registered (at once when it is); what it answers stops the waiting. */
export function whenTimDriver(use: (create: TimDriverFactory) => void): () => void {
  if (registered) {
    use(registered)
    return () => undefined
  }
  waiting.add(use)
  return () => void waiting.delete(use)
}
