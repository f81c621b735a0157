import Taro, { useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import { LevelStars, priceText } from '@/components/OnlineDoctorCard'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { useShare } from '@/platform'
import { doctorArticlesUrl, onlineDoctorUrl } from '@/pageUrls'
import { assetUrl } from '@/ui/assets'

import { averageReplyTime } from '@/utils/time'
import EvaluationSection from './EvaluationSection'
import DoctorActions from './Actions'
import './index.scss'
import { useEvaluationStore } from '@/stores/EvaluationStore'
import { useDoctorStore } from '@/stores/DoctorStore'

/**
 * 医生主页 (spec §2 /internet/doctor/index?id=): who the doctor is, how they serve online, 关注 for a signed-in patient,
 * 患者评价 (好评率, the count, the newest ratings), and 图文问诊 (the inquiry page, where the consultation is ordered and paid),
 * or 继续问诊 when a consultation with the doctor is still open (./Actions).
 */
function OnlineDoctorHome() {
  const { user } = useStores()
  const store = useDoctorStore()
  const evaluation = useEvaluationStore()
  const { params } = useRouter()
  const id = Number(params.id)
  const doctor = store.doctor.value?.id === id ? store.doctor.value : null
  const load = () =>
    id ? Promise.all([store.loadDoctor(id), evaluation.openDoctorEvaluations(id), user.isLoggedIn ? store.loadOpenInquiry(id) : undefined]) : undefined
  const text = doctor?.services.find((s) => s.type === 'text') ?? null
  // the doctor's card, which opens this page
  useShare(doctor && { title: `${doctor.doctorName} ${doctor.title}`, path: onlineDoctorUrl(doctor.id), summary: `${doctor.hospitalName} · ${doctor.deptName}`, image: assetUrl(doctor.avatar) })

  const body = () => {
    if (!id) return <Empty text='未找到该医生' />
    if (!doctor && store.doctor.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!doctor) return <Loading />
    return (
      <View className='online-doctor'>
        <View className='online-doctor__card'>
          <Image className='online-doctor__avatar' src={assetUrl(doctor.avatar)} aria-hidden='true' />
          <View className='online-doctor__who'>
            <View className='online-doctor__head'>
              <Text className='online-doctor__name'>{doctor.doctorName}</Text>
              <Text className='online-doctor__title'>{doctor.title}</Text>
              <Text className={`online-doctor__badge online-doctor__badge--${doctor.online ? 'on' : 'off'}`}>{doctor.online ? '在线' : '休息中'}</Text>
            </View>
            <Text className='online-doctor__dept'>
              {doctor.hospitalName} · {doctor.deptName}
            </Text>
            <LevelStars level={doctor.level} />
          </View>
          {user.isLoggedIn && (
            <Tappable
              className={`online-doctor__follow${doctor.followed ? ' online-doctor__follow--on' : ''}`}
              pressed={doctor.followed}
              onTap={() => void store.toggleFollow()}
            >
              {doctor.followed ? '已关注' : '关注'}
            </Tappable>
          )}
        </View>
        <View className='online-doctor__stats'>
          <View className='online-doctor__stat'>
            <Text className='online-doctor__stat-value'>{averageReplyTime(doctor.avgReplySeconds)}</Text>
            <Text className='online-doctor__stat-label'>平均回复</Text>
          </View>
          <View className='online-doctor__stat'>
            <Text className='online-doctor__stat-value'>{doctor.servedCount}</Text>
            <Text className='online-doctor__stat-label'>服务人次</Text>
          </View>
          <View className='online-doctor__stat'>
            <Text className='online-doctor__stat-value'>{doctor.goodRate}%</Text>
            <Text className='online-doctor__stat-label'>好评率</Text>
          </View>
          <View className='online-doctor__stat'>
            <Text className='online-doctor__stat-value'>{doctor.fansCount}</Text>
            <Text className='online-doctor__stat-label'>关注</Text>
          </View>
        </View>
        <View className='online-doctor__section'>
          <Text className='online-doctor__heading'>擅长</Text>
          <Text className='online-doctor__text'>{doctor.speciality || '暂无'}</Text>
          <Text className='online-doctor__heading'>医生简介</Text>
          <Text className='online-doctor__text'>{doctor.intro || '暂无'}</Text>
          <Tappable role='link' className='online-doctor__articles' onTap={() => void Taro.navigateTo({ url: doctorArticlesUrl(doctor.id, doctor.doctorName) })}>
            医生文章 ›
          </Tappable>
        </View>
        <View className='online-doctor__section'>
          <Text className='online-doctor__heading'>问诊服务</Text>
          <View className='online-doctor__service'>
            <View>
              <Text className='online-doctor__service-name'>图文问诊</Text>
              <Text className='online-doctor__service-note'>文字、图片与医生沟通</Text>
            </View>
            <Text className='online-doctor__price'>{priceText(text?.priceFen ?? null)}</Text>
          </View>
          {!doctor.online && <Text className='online-doctor__note'>医生休息中，可先关注，医生上线后再来问诊</Text>}
        </View>
        <EvaluationSection doctorId={doctor.id} />
        <DoctorActions doctor={doctor} />
      </View>
    )
  }

  return (
    <PageShell title={doctor?.doctorName ?? '医生主页'} onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(OnlineDoctorHome)
