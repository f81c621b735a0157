import Taro from '@tarojs/taro'
import { View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import OnlineDoctorCard from '@/components/OnlineDoctorCard'
import Segmented from '@/components/Segmented'
import { useStores } from '@/stores'
import { MY_DOCTORS_ORDERS } from '@/stores/DoctorStore'

import './index.scss'
import { doctorListUrl, onlineDoctorUrl } from '@/pageUrls'
import { useDoctorStore } from '@/stores/DoctorStore'

/**
 * 我的医生 (spec §2 /pages/doctor/index): the doctors the patient follows, those accepting consultations first
 * (可问诊优先), or the latest followed first (最近关注).
 */
function MyDoctors() {
  const { hospital } = useStores()
  const doctor = useDoctorStore()
  const state = doctor.myDoctors.state
  const list = doctor.myDoctors.value ?? []

  const body = () => {
    if (state === 'failed' && list.length === 0) return <LoadFailed onRetry={() => void doctor.loadMyDoctors()} />
    if (state !== 'done' && list.length === 0) return <Loading />
    if (list.length === 0)
      return (
        <Empty text='还没有关注的医生' action={{ label: '去找医生', onTap: () => void Taro.navigateTo({ url: doctorListUrl(hospital.hospital?.hospitalCode) }) }} />
      )
    return list.map((d) => <OnlineDoctorCard key={d.id} doctor={d} onClick={() => void Taro.navigateTo({ url: onlineDoctorUrl(d.id) })} />)
  }

  return (
    <PageShell title='我的医生' onReady={() => doctor.loadMyDoctors()}>
      <View className='my-doctors'>
        {/* one doctor or none has no order to choose */}
        {list.length > 1 && (
          <View className='my-doctors__order'>
            <Segmented label='排序' options={MY_DOCTORS_ORDERS} value={doctor.myDoctorsOrder} onChange={(order) => doctor.chooseMyDoctorsOrder(order)} />
          </View>
        )}
        {body()}
      </View>
    </PageShell>
  )
}

export default observer(MyDoctors)
