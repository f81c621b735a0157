import { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty from '@/components/Empty'
import PharmacyCheckout from '@/components/PharmacyCheckout'
import { usePharmacyOrderStore } from '@/stores/PharmacyOrderStore'
import { useAddressStore } from '@/stores/AddressStore'

/**
 * 确认订单 for a prescription (spec §2 /internet/sureOrder/index?prescriptionId=): its drug lines with the drug and
 * diagnosis fees, filled by a pharmacy that has them all, delivered or picked up. `repeat=1`: 再次购药 of a renewable
 * prescription, the medicines and delivery only.
 */
function SureOrder() {
  const pharmacyOrders = usePharmacyOrderStore()
  const address = useAddressStore()
  const { params } = useRouter()
  const id = Number(params.prescriptionId)
  const repeat = params.repeat === '1'
  // the fee needs both the store and the address book
  const open = async () => {
    await Promise.all([pharmacyOrders.openPrescription(id, repeat).catch(() => undefined), address.loadList().catch(() => undefined)])
    await pharmacyOrders.loadFee()
  }
  return (
    <PageShell title={repeat ? '再次购药' : '确认订单'} onReady={id ? open : undefined}>
      {id ? <PharmacyCheckout onRetry={() => void open()} /> : <Empty text='未找到该处方' />}
    </PageShell>
  )
}

export default observer(SureOrder)
