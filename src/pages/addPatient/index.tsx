import AddPatient from '@/components/AddPatient'
import { GENERAL_VARIANT } from '@/utils/hospitalVariants'

/** 添加就诊人 (spec §2 /pages/addPatient/index) of the hospitals without their own. */
export default function AddPatientPage() {
  return <AddPatient variant={GENERAL_VARIANT} />
}
