import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import PharmacyCheckout from '@/components/PharmacyCheckout'
import { usePharmacyOrderStore } from '@/stores/PharmacyOrderStore'
import { usePatientStore } from '@/stores/PatientStore'
import { useCartStore } from '@/stores/CartStore'
import { useAddressStore } from '@/stores/AddressStore'

/** 确认订单 for the cart (spec §2 /pages/storePayment/index): the selected lines, bought at the shop's pharmacy. */
function StorePayment() {
  const pharmacyOrders = usePharmacyOrderStore()
  const cart = useCartStore()
  const address = useAddressStore()
  const patient = usePatientStore()
  // the fee needs both the store and the address book
  const open = async () => {
    await Promise.all([
      pharmacyOrders.openCart(),
      address.loadList().catch(() => undefined),
      cart.needsPrescription ? patient.load().catch(() => undefined) : undefined,
    ])
    await pharmacyOrders.loadFee()
  }
  return (
    <PageShell title='确认订单' onReady={open}>
      <PharmacyCheckout onRetry={() => void open()} />
    </PageShell>
  )
}

export default observer(StorePayment)
