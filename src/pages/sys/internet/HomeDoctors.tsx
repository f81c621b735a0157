import { useEffect, useRef } from 'react'
import Taro, { useDidShow } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { openPage } from '@/components/PageShell'
import OnlineDoctorCard from '@/components/OnlineDoctorCard'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { MSG } from '@/ui/messages'
import type { OnlineDoctor } from '../../../../types/api/internet'
import './HomeDoctors.scss'
import { doctorListUrl, onlineDoctorUrl } from '@/pageUrls'
import { useDoctorStore } from '@/stores/DoctorStore'

/** One section of doctors under its heading; a section with nobody to show is left out. */
function Section({ title, doctors }: { title: string; doctors: OnlineDoctor[] }) {
  if (doctors.length === 0) return null
  return (
    <View className='home-doctors__section' role='region' aria-label={title}>
      <View className='home-doctors__heading' role='heading' aria-level={2}>
        {title}
      </View>
      {doctors.map((d) => (
        <OnlineDoctorCard key={d.id} doctor={d} onClick={() => void Taro.navigateTo({ url: onlineDoctorUrl(d.id) })} />
      ))}
    </View>
  )
}

/**
 * The internet hospital's doctors on its home: for a signed-in patient 问诊过的医生 and 为您推荐 (the recommendation
 * call is the patient's own, so a visitor is not asked to sign in for the home page), and for everyone 热门医生, the
 * most consulted accepting consultations now; then the way to all of them.
 */
function HomeDoctors() {
  const { user, hospital } = useStores()
  const doctor = useDoctorStore()
  const shown = useRef(false)
  const load = () => void doctor.loadHome(user.isLoggedIn)
  useEffect(() => {
    load()
    shown.current = true
    // the home loads once it is on show; back on the tab (useDidShow) it is read again
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  useDidShow(() => {
    if (shown.current) load()
  })

  const hot = doctor.hot
  return (
    <View className='home-doctors'>
      <Section title='问诊过的医生' doctors={doctor.consultedDoctors} />
      <Section title='为您推荐' doctors={doctor.suggestedDoctors} />
      {hot.state === 'failed' && !hot.value ? (
        <View className='home-doctors__section' role='region' aria-label='热门医生'>
          <View className='home-doctors__heading' role='heading' aria-level={2}>
            热门医生
          </View>
          <Tappable inline className='home-doctors__note' onTap={load}>
            {MSG.listFailed}，点击重试
          </Tappable>
        </View>
      ) : (
        <Section title='热门医生' doctors={doctor.hotDoctors} />
      )}
      {hot.state === 'done' && (
        <Tappable className='home-doctors__all' role='link' onTap={() => openPage(doctorListUrl(hospital.hospital?.hospitalCode))}>
          查看全部医生
        </Tappable>
      )}
    </View>
  )
}

export default observer(HomeDoctors)
