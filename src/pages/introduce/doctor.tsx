import Taro, { useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'

import { assetUrl } from '@/ui/assets'
import './introduce.scss'
import { doctorUrl } from '@/pageUrls'
import { useRegisterStore } from '@/stores/RegisterStore'

/** 医生介绍 (spec §2 /pages/introduce/doctor?id=, open to anyone): who the doctor is, and the way to book. */
function DoctorIntroduce() {
  const register = useRegisterStore()
  const { params } = useRouter()
  const id = Number(params.id)
  const doctor = register.catalogue.doctorSchedule.value?.doctor?.id === id ? register.catalogue.doctorSchedule.value.doctor : null
  const load = () => (id ? register.catalogue.loadDoctorSchedule(id).catch(() => undefined) : undefined)

  const body = () => {
    if (!id) return <Empty text='未找到该医生' />
    if (!doctor && register.catalogue.doctorSchedule.state === 'failed')
      return (
        <LoadFailed onRetry={() => void load()} />
      )
    if (!doctor) return <Loading />
    return (
      <View className='introduce'>
        <View className='introduce__head'>
          {doctor.avatar ? <Image className='introduce__avatar' src={assetUrl(doctor.avatar)} aria-hidden='true' /> : <View className='introduce__avatar' />}
          <Text className='introduce__name'>{doctor.doctorName}</Text>
          <Text className='introduce__sub'>
            {doctor.title} · {doctor.deptName}
          </Text>
          <Text className='introduce__sub'>{doctor.hospitalName}</Text>
        </View>
        {doctor.speciality && (
          <View className='introduce__card'>
            <Text className='introduce__heading'>擅长</Text>
            <Text className='introduce__text'>{doctor.speciality}</Text>
          </View>
        )}
        <View className='introduce__card'>
          <Text className='introduce__heading'>医生简介</Text>
          <Text className='introduce__text'>{doctor.intro || '暂无简介'}</Text>
        </View>
        <View className='introduce__action'>
          <Button type='primary' block onClick={() => void Taro.navigateTo({ url: doctorUrl(doctor.id) })}>
            预约挂号
          </Button>
        </View>
      </View>
    )
  }

  return (
    <PageShell title='医生介绍' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(DoctorIntroduce)
