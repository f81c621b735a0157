import { makeAutoObservable } from 'mobx'
import platform from '@/platform'
import { LOCAL, local } from '@/services/storage'

/** The class that switches the design tokens to elder mode (src/styles/tokens.scss). */
export const ELDER_CLASS = 'elder'

/**
 * This phone's display preferences. 长辈模式 (elder mode, MIIT's 2021 rules for ageing-friendly apps): larger text
 * and touch targets on every page, and the home page's most used services first. It is remembered on the phone, not
 * on the account: a relative who sets up the phone for a parent sets it once, whoever signs in.
 */
export class PreferencesStore {
  elderMode = local.get<boolean>(LOCAL.elderMode) === true

  constructor() {
    makeAutoObservable(this)
    platform.markDocument(ELDER_CLASS, this.elderMode)
  }

  setElderMode(on: boolean) {
    this.elderMode = on
    local.set(LOCAL.elderMode, on)
    platform.markDocument(ELDER_CLASS, on)
  }
}
