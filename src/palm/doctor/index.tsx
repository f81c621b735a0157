import Taro, { useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import Tappable from '@/components/Tappable'

import { assetUrl } from '@/ui/assets'
import { ScheduleGrid } from '../register/ScheduleParts'
import './index.scss'
import { confirmUrl, introduceDoctorUrl } from '@/pageUrls'
import { useRegisterStore } from '@/stores/RegisterStore'

/** 医生主页 (spec §2 /palm/doctor/index?id=): who the doctor is and the next 14 days to book, from any department. */
function DoctorHome() {
  const register = useRegisterStore()
  const { params } = useRouter()
  const id = Number(params.id)
  const schedule = register.catalogue.doctorSchedule.value?.doctor?.id === id ? register.catalogue.doctorSchedule.value : null
  const doctor = schedule?.doctor ?? null
  const load = () => (id ? register.catalogue.loadDoctorSchedule(id).catch(() => undefined) : undefined)

  const body = () => {
    if (!id) return <Empty text='未找到该医生' />
    if (!schedule && register.catalogue.doctorSchedule.state === 'failed')
      return (
        <LoadFailed onRetry={() => void load()} />
      )
    if (!schedule || !doctor) return <Loading />
    return (
      <View className='doctor-home'>
        <View className='doctor-home__card'>
          {doctor.avatar ? <Image className='doctor-home__avatar' src={assetUrl(doctor.avatar)} aria-hidden='true' /> : <View className='doctor-home__avatar' />}
          <View className='doctor-home__who'>
            <View>
              <Text className='doctor-home__name'>{doctor.doctorName}</Text>
              <Text className='doctor-home__title'>{doctor.title}</Text>
            </View>
            <Text className='doctor-home__dept'>
              {doctor.hospitalName} · {doctor.deptName}
            </Text>
          </View>
        </View>
        <View className='doctor-home__section'>
          {doctor.speciality && <Text className='doctor-home__text'>擅长：{doctor.speciality}</Text>}
          {doctor.intro && <Text className='doctor-home__text doctor-home__intro'>{doctor.intro}</Text>}
          <Tappable className='doctor-home__more' onTap={() => void Taro.navigateTo({ url: introduceDoctorUrl(doctor.id) })}>
            查看医生介绍 ›
          </Tappable>
        </View>
        <View className='doctor-home__section'>
          <Text className='doctor-home__heading'>出诊排班</Text>
          {schedule.items.length === 0 ? (
            <Empty text='近期暂无排班' />
          ) : (
            <ScheduleGrid items={schedule.items} onBook={(item) => void Taro.navigateTo({ url: confirmUrl(item.scheduleId) })} />
          )}
        </View>
      </View>
    )
  }

  return (
    <PageShell title={doctor?.doctorName ?? '医生主页'} onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(DoctorHome)
