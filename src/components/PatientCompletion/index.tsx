import { useCallback, useState } from 'react'
import Taro from '@tarojs/taro'
import { Dialog } from '@nutui/nutui-react-taro'
import type { Patient } from '../../../types/api/patient'
import { editPatientUrl } from '@/pageUrls'
import { useStores } from '@/stores'

/** spec §5, verbatim. */
export const INCOMPLETE_TEXT = '当前就诊人信息不完整，请先完善就诊人信息。'
export const COMPLETE_BUTTON = '完善就诊人信息'

/** Whether a flow that needs a complete patient must stop for the completion modal first. */
export const needsCompletion = (patient: Pick<Patient, 'complete'>) => !patient.complete

/**
 * The incomplete-information modal (spec §5): one text, exactly one button, which opens the completion page.
 * NutUI's Dialog, since Taro.showModal cuts button texts to 4 characters in the mini-programs.
 */
export function PatientCompletionModal({ patient, onClose }: { patient: Pick<Patient, 'id'> | null; onClose: () => void }) {
  const { hospital } = useStores()
  return (
    <Dialog
      visible={!!patient}
      title='提示'
      content={INCOMPLETE_TEXT}
      confirmText={COMPLETE_BUTTON}
      hideCancelButton
      onConfirm={() => {
        // the dialog closes itself after onConfirm
        if (patient) void Taro.navigateTo({ url: editPatientUrl(patient.id, hospital.hospital?.hospitalCode) })
      }}
      onClose={onClose}
    />
  )
}

/**
 * For a page whose flow needs a complete patient: `requireComplete(patient, go)` goes on when the patient is
 * complete and shows the modal otherwise; render `modal` once in the page.
 */
export function usePatientCompletion() {
  const [incomplete, setIncomplete] = useState<Pick<Patient, 'id'> | null>(null)
  const requireComplete = useCallback((patient: Pick<Patient, 'id' | 'complete'>, go: () => void) => {
    if (needsCompletion(patient)) setIncomplete(patient)
    else go()
  }, [])
  const close = useCallback(() => setIncomplete(null), [])
  return { requireComplete, showFor: setIncomplete, modal: <PatientCompletionModal patient={incomplete} onClose={close} /> }
}
