import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import AppointmentList from './AppointmentList'
import { usePhysical } from './usePhysical'

/** 体检订单 (spec §2 /pages/order/physical/index): every physical-exam appointment of the account and its payment. */
function PhysicalOrders() {
  const store = usePhysical()
  return (
    <PageShell title='体检订单'>
      <AppointmentList store={store} empty='暂无体检订单' />
    </PageShell>
  )
}

export default observer(PhysicalOrders)
