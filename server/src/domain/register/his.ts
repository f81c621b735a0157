/**
 * The HIS registration runs on: schedules and their places belong to the hospital's HIS (plugins/providers/his.ts).
 * The payment core calls a registration's order handlers (paid, closed) without providers, so each app names its HIS
 * here when it is built (businesses.ts), as the bill flows do (domain/bills/his.ts).
 */
import type { HisProvider } from '../../plugins/providers/his'

let current: HisProvider | null = null

export function useHisForRegistration(his: HisProvider): void {
  // a disabled HIS never lets a booking start, so it never replaces one that does
  if (his.kind !== 'disabled' || current === null) current = his
}

/** The HIS that holds the places of the registrations' orders; an Error (not a refusal) before any app is built. */
export function registrationHis(): HisProvider {
  if (!current) throw new Error('no HIS to confirm or give back registration places with')
  return current
}
