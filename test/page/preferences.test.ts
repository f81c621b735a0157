import { LOCAL, local } from '../../src/services/storage'
import { ELDER_CLASS, PreferencesStore } from '../../src/stores/PreferencesStore'

const elderOnPage = () => document.documentElement.classList.contains(ELDER_CLASS)

describe('长辈模式 preference', () => {
  beforeEach(() => {
    window.localStorage.clear()
    document.documentElement.classList.remove(ELDER_CLASS)
  })

  test('off until switched on; on, the whole document takes the elder class and the phone remembers it', () => {
    const first = new PreferencesStore()
    expect(first.elderMode).toBe(false)
    expect(elderOnPage()).toBe(false)
    first.setElderMode(true)
    expect(elderOnPage()).toBe(true)
    expect(local.get(LOCAL.elderMode)).toBe(true)

    // the next page load reads it back and marks the document at once
    document.documentElement.classList.remove(ELDER_CLASS)
    const next = new PreferencesStore()
    expect(next.elderMode).toBe(true)
    expect(elderOnPage()).toBe(true)
    next.setElderMode(false)
    expect(elderOnPage()).toBe(false)
    expect(new PreferencesStore().elderMode).toBe(false)
  })
})
