import AddPatient from '@/components/AddPatient'
import { addPatientVariant } from '@/utils/hospitalVariants'

/** The hospital's own 添加就诊人 and 完善就诊人信息 (spec §2 customer-specific /addPatient/index). */
export default function AddPatient10388() {
  return <AddPatient variant={addPatientVariant('10388')} />
}
