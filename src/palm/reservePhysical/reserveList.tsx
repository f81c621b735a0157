import { observer } from 'mobx-react'
import PageShell from '@/components/PageShell'
import AppointmentList from '../../pages/order/physical/AppointmentList'
import { usePhysical } from '../../pages/order/physical/usePhysical'

/** 我的体检预约 (spec §2 /palm/reservePhysical/reserveList): the account's physical-exam appointments, newest first. */
function ReserveList() {
  const store = usePhysical()
  return (
    <PageShell title='我的体检预约'>
      <AppointmentList store={store} empty='暂无体检预约' />
    </PageShell>
  )
}

export default observer(ReserveList)
