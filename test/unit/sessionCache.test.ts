import { SESSION_TTL_MS, memoryBackend, sessionCache } from '../../src/platform/sessionCache'

describe('session-only storage (spec §3, §9)', () => {
  test('keeps a value for 20 minutes, then forgets it', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000)
    const store = sessionCache(memoryBackend())
    store.set('dept', { id: 3, name: '儿科' })
    now.mockReturnValue(1_000_000 + SESSION_TTL_MS - 1)
    expect(store.get('dept')).toEqual({ id: 3, name: '儿科' })
    now.mockReturnValue(1_000_000 + SESSION_TTL_MS + 1)
    expect(store.get('dept')).toBeUndefined()
    now.mockRestore()
    expect(SESSION_TTL_MS).toBe(1_200_000)
  })

  test('a removed or unreadable entry reads as nothing', () => {
    const backend = memoryBackend()
    const store = sessionCache(backend)
    store.set('patient', 1)
    store.remove('patient')
    expect(store.get('patient')).toBeUndefined()
    backend.setItem('session:result', '{not json')
    expect(store.get('result')).toBeUndefined()
  })
})
