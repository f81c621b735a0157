import type { SessionStore } from './index'

/** spec §9: session cache expiry 20 minutes. */
export const SESSION_TTL_MS = 20 * 60 * 1000

interface Entry {
  value: unknown
  expire: number
}

/** A session store over any string key-value backend, with the 20-minute expiry of spec §3. */
export function sessionCache(backend: { getItem(k: string): string | null; setItem(k: string, v: string): void; removeItem(k: string): void }): SessionStore {
  const prefix = 'session:'
  return {
    get<T>(key: string) {
      const raw = backend.getItem(prefix + key)
      if (!raw) return undefined
      try {
        const entry = JSON.parse(raw) as Entry
        if (entry.expire < Date.now()) {
          backend.removeItem(prefix + key)
          return undefined
        }
        return entry.value as T
      } catch {
        return undefined
      }
    },
    set(key, value) {
      backend.setItem(prefix + key, JSON.stringify({ value, expire: Date.now() + SESSION_TTL_MS }))
    },
    remove(key) {
      backend.removeItem(prefix + key)
    },
  }
}

/** For the mini-programs, which have no session storage: memory lives exactly as long as the app. */
export function memoryBackend() {
  const map = new Map<string, string>()
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  }
}
