import Taro from '@tarojs/taro'
import { View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { Button } from '@/components/Button'
import { PHYSICAL_SELECT_URL } from '@/pageUrls'
import AppointmentList from '../../pages/order/physical/AppointmentList'
import { usePhysical } from '../../pages/order/physical/usePhysical'

/** 我的体检预约 (spec §2 /palm/reservePhysical/reserveList): the account's physical-exam appointments, newest first. */
function ReserveList() {
  const store = usePhysical()
  return (
    <PageShell title='我的体检预约'>
      <View style={{ margin: '24px' }}>
        <Button type='primary' block onClick={() => void Taro.navigateTo({ url: PHYSICAL_SELECT_URL })}>
          预约体检
        </Button>
      </View>
      <AppointmentList store={store} empty='暂无体检预约' />
    </PageShell>
  )
}

export default observer(ReserveList)
