import type { ReactNode } from 'react'
import Taro, { useReachBottom } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell, { openPage } from '@/components/PageShell'
import Empty, { LoadFailed, NoHospital } from '@/components/Empty'
import OnlineDoctorCard from '@/components/OnlineDoctorCard'
import Tappable from '@/components/Tappable'
import { MSG } from '@/ui/messages'
import { DOCTOR_SORTS } from '@/stores/DoctorStore'

import './index.scss'
import { DOCTOR_SEARCH_URL, GUIDANCE_URL, NOTICE_URL, onlineDoctorUrl } from '@/pageUrls'
import { useDoctorStore } from '@/stores/DoctorStore'

interface Props {
  title: string
  /** What the page shows above the departments (the general list's 地区). */
  filter?: ReactNode
}

/**
 * 找医生 (spec §2 /internet/doctorList/index and aixin's own): department chips, sort tabs, the online doctors a page
 * at a time, each opening the doctor's page to consult.
 */
function OnlineDoctorList({ title, filter }: Props) {
  const doctor = useDoctorStore()
  useReachBottom(() => void doctor.list.loadMore())
  const state = doctor.list.state

  return (
    <PageShell title={title} onReady={() => (doctor.hospital ? doctor.openList() : undefined)}>
      <View className='online-doctors'>
        <Tappable className='online-doctors__search' onTap={() => void Taro.navigateTo({ url: DOCTOR_SEARCH_URL })}>
          <Text className='online-doctors__search-text'>搜索医生、科室、擅长疾病</Text>
        </Tappable>
        <View className='online-doctors__links'>
          <Tappable inline className='online-doctors__link' onTap={() => openPage(NOTICE_URL)}>
            问诊须知
          </Tappable>
          <Tappable inline className='online-doctors__link' onTap={() => openPage(GUIDANCE_URL)}>
            咨询医生助理
          </Tappable>
        </View>
        {filter}
        {!doctor.hospital ? (
          <NoHospital />
        ) : (
          <>
            <View className='online-doctors__depts' role='tablist' aria-label='科室'>
              {[{ id: null, deptName: '全部' }, ...(doctor.depts.value ?? [])].map((d) => (
                <Tappable
                  key={d.id ?? 'all'}
                  role='tab'
                  selected={doctor.deptId === d.id}
                  className={`online-doctors__dept${doctor.deptId === d.id ? ' online-doctors__dept--on' : ''}`}
                  onTap={() => doctor.chooseDept(d.id)}
                >
                  {d.deptName}
                </Tappable>
              ))}
            </View>
            <View className='online-doctors__sorts' role='tablist' aria-label='排序'>
              {DOCTOR_SORTS.map((s) => (
                <Tappable
                  key={s.key}
                  role='tab'
                  selected={doctor.sort === s.key}
                  className={`online-doctors__sort${doctor.sort === s.key ? ' online-doctors__sort--on' : ''}`}
                  onTap={() => doctor.chooseSort(s.key)}
                >
                  {s.label}
                </Tappable>
              ))}
            </View>
            {state === 'done' && doctor.list.items.length === 0 ? (
              <Empty text='暂无在线医生' />
            ) : state === 'failed' && doctor.list.items.length === 0 ? (
              <LoadFailed onRetry={() => void doctor.list.loadMore(true)} />
            ) : (
              <View className='online-doctors__list'>
                {doctor.list.items.map((d) => (
                  <OnlineDoctorCard key={d.id} doctor={d} onClick={() => void Taro.navigateTo({ url: onlineDoctorUrl(d.id) })} />
                ))}
                <Tappable className='online-doctors__more' onTap={() => void doctor.list.loadMore(true)}>
                  {state === 'loading' ? MSG.listLoading : state === 'done' ? MSG.listNoMore : state === 'failed' ? MSG.listFailed : MSG.loadMore}
                </Tappable>
              </View>
            )}
          </>
        )}
      </View>
    </PageShell>
  )
}

export default observer(OnlineDoctorList)
