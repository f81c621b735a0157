import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import AppointmentList from '../../pages/order/physical/AppointmentList'
import { usePhysical } from '../../pages/order/physical/usePhysical'

/** 体检缴费记录 (spec §2 /palm/reservePhysical/paymentList, `paid/physical/list`): the paid physical exams, refunds included. */
function PaymentList() {
  const store = usePhysical(true)
  return (
    <PageShell title='体检缴费记录'>
      <AppointmentList store={store} empty='暂无体检缴费记录' />
    </PageShell>
  )
}

export default observer(PaymentList)
