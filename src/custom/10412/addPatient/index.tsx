import { useRouter } from '@tarojs/taro'
import AddPatient from '@/components/AddPatient'
import { GENERAL_VARIANT, cardTypeOf } from '@/utils/hospitalVariants'

/** The hospital's own 添加就诊人 with the card type chosen before (spec §2 customer-specific /addPatient/index). */
export default function AddPatient10412() {
  const { params } = useRouter()
  return <AddPatient variant={GENERAL_VARIANT} cardType={cardTypeOf(params.cardType)} />
}
