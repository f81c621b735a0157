import { useState } from 'react'
import { useStores } from '@/stores'
import { PhysicalStore } from '@/stores/PhysicalStore'
import { usePatientStore } from '@/stores/PatientStore'

/** The page's own physical-exam store on the current hospital and the chosen patient (pages read fresh, share nothing). */
export function usePhysical(paidOnly = false) {
  const { hospital } = useStores()
  const patient = usePatientStore()
  const [store] = useState(() => new PhysicalStore(() => hospital.hospital?.hospitalCode, patient, paidOnly))
  return store
}

/** The colour of an appointment's status: waiting for money, booked or under way, or over. */
export const physicalStatusClass = (status: string) =>
  status === 'holding' ? 'waiting' : status === 'booked' || status === 'checkedIn' || status === 'finished' ? 'paid' : 'over'
