import Taro, { useRouter } from '@tarojs/taro'
import { View, Text, Image, ScrollView } from '@tarojs/components'
import Segmented from '@/components/Segmented'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'

import { shortDate } from '@/utils/register'
import { assetUrl } from '@/ui/assets'
import type { ScheduleItem } from '../../../../types/api/register'
import { ScheduleRow, doctorLabel } from '../ScheduleParts'
import Tappable from '@/components/Tappable'
import './index.scss'
import { confirmUrl, introduceDeptUrl, rowScheduleUrl } from '@/pageUrls'
import { useRegisterStore } from '@/stores/RegisterStore'

const TABS: { label: string; value: 'date' | 'doctor' }[] = [
  { label: '按日期', value: 'date' },
  { label: '按医生', value: 'doctor' },
]

/** 科室排班 (spec §2 /palm/register/deptSchedule/index?deptId=): the next 14 days, by date or by doctor. */
function DeptSchedule() {
  const register = useRegisterStore()
  const { params } = useRouter()
  const deptId = Number(params.deptId)
  const schedule = register.catalogue.deptSchedule.value?.deptId === deptId ? register.catalogue.deptSchedule.value : null
  const deptName = schedule?.deptName || params.deptName || register.catalogue.chosenDept?.deptName || '科室排班'
  const day = register.catalogue.selectedDay

  const load = () => (register.catalogue.hospital && deptId ? register.catalogue.loadDeptSchedule(deptId).catch(() => undefined) : undefined)
  const book = (item: ScheduleItem) => void Taro.navigateTo({ url: confirmUrl(item.scheduleId) })

  const body = () => {
    if (!register.catalogue.hospital) return <NoHospital />
    if (!deptId) return <Empty text='未找到该科室' />
    if (!schedule && register.catalogue.deptSchedule.state === 'failed')
      return (
        <LoadFailed onRetry={() => void load()} />
      )
    if (!schedule) return <Loading />
    if (register.catalogue.scheduleTab === 'doctor') {
      const groups = register.catalogue.doctorGroups
      if (groups.length === 0) return <Empty text='近期暂无排班' />
      return (
        <View className='dept-schedule__list'>
          {groups.map((g) => (
            <Tappable
              key={g.doctorId ?? 'general'}
              className={`dept-schedule__doctor${g.available ? '' : ' dept-schedule__doctor--off'}`}
              onTap={() => void Taro.navigateTo({ url: rowScheduleUrl(deptId, g.doctorId) })}
            >
              {g.avatar ? <Image className='dept-schedule__avatar' src={assetUrl(g.avatar)} aria-hidden='true' /> : <View className='dept-schedule__avatar' />}
              <View className='dept-schedule__doctor-text'>
                <Text className='dept-schedule__doctor-name'>{doctorLabel(g)}</Text>
                {g.title && <Text className='dept-schedule__doctor-title'>{g.title}</Text>}
              </View>
              <Text className={`schedule-state schedule-state--${g.available ? 'open' : 'full'}`}>{g.available ? '有号' : '约满'}</Text>
            </Tappable>
          ))}
        </View>
      )
    }
    return (
      <>
        <ScrollView scrollX className='dept-schedule__dates'>
          <View className='dept-schedule__strip' role='tablist' aria-label='就诊日期'>
            {schedule.days.map((d) => (
              <Tappable
                key={d.visitDate}
                role='tab'
                selected={d.visitDate === register.catalogue.selectedDate}
                className={`dept-schedule__date${d.visitDate === register.catalogue.selectedDate ? ' dept-schedule__date--on' : ''}`}
                onTap={() => register.catalogue.selectDate(d.visitDate)}
              >
                <Text className='dept-schedule__week'>{d.week}</Text>
                <Text className='dept-schedule__day'>{shortDate(d.visitDate)}</Text>
                <Text className={`dept-schedule__mark${d.available ? ' dept-schedule__mark--open' : ''}`}>{d.available ? '有号' : '无号'}</Text>
              </Tappable>
            ))}
          </View>
        </ScrollView>
        {!day || day.items.length === 0 ? (
          <Empty text='当日暂无排班' />
        ) : (
          <View className='dept-schedule__list'>
            {day.items.map((item) => (
              <ScheduleRow key={item.scheduleId} item={item} onBook={book} />
            ))}
          </View>
        )}
      </>
    )
  }

  return (
    <PageShell title={deptName} onReady={load}>
      <View className='dept-schedule'>
        <View className='dept-schedule__tabs'>
          <Segmented label='排班查看方式' options={TABS} value={register.catalogue.scheduleTab} onChange={(v) => register.catalogue.setScheduleTab(v)} />
          {deptId > 0 && (
            <Tappable inline className='dept-schedule__intro' onTap={() => void Taro.navigateTo({ url: introduceDeptUrl(deptId) })}>
              科室介绍 ›
            </Tappable>
          )}
        </View>
        {body()}
      </View>
    </PageShell>
  )
}

export default observer(DeptSchedule)
