import { useState } from 'react'
import { useStores } from '@/stores'
import { RechargeStore } from '@/stores/RechargeStore'
import type { RechargeKind } from '@/services/recharge'
import { usePatientStore } from '@/stores/PatientStore'

/** The page's own recharge store on the current hospital and the chosen patient (pages read fresh, share nothing). */
export function useRecharge(kind: RechargeKind, byPatient = true) {
  const { hospital } = useStores()
  const patient = usePatientStore()
  const [store] = useState(() => new RechargeStore(kind, () => hospital.hospital?.hospitalCode, patient, byPatient))
  return store
}

/** A bed as the HIS names it (12 or 12床), read as 12床. */
export const bedText = (bed: string) => (/床$/.test(bed) ? bed : `${bed}床`)
