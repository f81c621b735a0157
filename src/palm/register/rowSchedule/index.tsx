import Taro, { useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import type { ScheduleItem } from '../../../../types/api/register'

import { assetUrl } from '@/ui/assets'
import { ScheduleGrid } from '../ScheduleParts'
import './index.scss'
import { confirmUrl } from '@/pageUrls'
import { useRegisterStore } from '@/stores/RegisterStore'

/**
 * 医生排班 (spec §2 /palm/register/rowSchedule/index?deptId=&doctorId=): one doctor's schedules in this department as
 * a grid by date and morning/afternoon; without doctorId, the department's general clinic (普通号).
 */
function RowSchedule() {
  const register = useRegisterStore()
  const { params } = useRouter()
  const deptId = Number(params.deptId) || null
  const doctorId = params.doctorId ? Number(params.doctorId) : null
  const general = doctorId === null

  const load = async () => {
    if (general) {
      if (deptId && register.catalogue.hospital) await register.catalogue.loadDeptSchedule(deptId).catch(() => undefined)
    } else {
      await register.catalogue.loadDoctorSchedule(doctorId).catch(() => undefined)
    }
  }

  const doctor = !general && register.catalogue.doctorSchedule.value?.doctor?.id === doctorId ? register.catalogue.doctorSchedule.value.doctor : null
  const state = general ? register.catalogue.deptSchedule.state : register.catalogue.doctorSchedule.state
  let items: ScheduleItem[] | null = null
  if (general && register.catalogue.deptSchedule.value?.deptId === deptId) items = register.catalogue.deptSchedule.value.days.flatMap((d) => d.items).filter((i) => i.doctorId === null)
  if (doctor) items = register.catalogue.doctorSchedule.value!.items.filter((i) => !deptId || i.deptId === deptId)
  const title = general ? `${register.catalogue.deptSchedule.value?.deptName ?? ''}普通门诊` : (doctor?.doctorName ?? '医生排班')

  return (
    <PageShell title={title} onReady={load}>
      <View className='row-schedule'>
        {doctor && (
          <View className='row-schedule__doctor'>
            {doctor.avatar ? <Image className='row-schedule__avatar' src={assetUrl(doctor.avatar)} aria-hidden='true' /> : <View className='row-schedule__avatar' />}
            <View className='row-schedule__who'>
              <View>
                <Text className='row-schedule__name'>{doctor.doctorName}</Text>
                <Text className='row-schedule__title'>{doctor.title}</Text>
              </View>
              <Text className='row-schedule__dept'>
                {doctor.hospitalName} · {doctor.deptName}
              </Text>
              {doctor.speciality && <Text className='row-schedule__speciality'>擅长：{doctor.speciality}</Text>}
            </View>
          </View>
        )}
        {state === 'failed' && !items ? (
          <LoadFailed onRetry={() => void load()} />
        ) : !items ? (
          <Loading />
        ) : items.length === 0 ? (
          <Empty text='近期暂无排班' />
        ) : (
          <View className='row-schedule__grid'>
            <ScheduleGrid items={items} onBook={(item) => void Taro.navigateTo({ url: confirmUrl(item.scheduleId) })} />
            <Text className='row-schedule__hint'>点击“有号”的时段预约，左右滑动查看更多日期</Text>
          </View>
        )}
      </View>
    </PageShell>
  )
}

export default observer(RowSchedule)
