import { View, Text, Image } from '@tarojs/components'
import Tappable from '../Tappable'
import { assetUrl } from '@/ui/assets'
import { starRating } from '@/utils/level'
import { averageReplyTime } from '@/utils/time'
import { yuan } from '@/utils/register'
import type { OnlineDoctor } from '../../../types/api/internet'
import './index.scss'

/** A service level as five stars (spec §3), full, half and empty. */
export function LevelStars({ level }: { level: number }) {
  const { full, half, empty } = starRating(level)
  return (
    <View className='level-stars' aria-label={`服务等级${level}星`}>
      {Array.from({ length: full }, (_, i) => (
        <Text key={`f${i}`} className='level-stars__star level-stars__star--full'>
          ★
        </Text>
      ))}
      {half && <Text className='level-stars__star level-stars__star--half'>★</Text>}
      {Array.from({ length: empty }, (_, i) => (
        <Text key={`e${i}`} className='level-stars__star level-stars__star--empty'>
          ★
        </Text>
      ))}
    </View>
  )
}

/** 图文问诊's price as patients read it: 免费 for a free consultation. */
export const priceText = (fen: number | null) => (fen === null ? '暂未开通' : fen === 0 ? '免费' : yuan(fen))

/** One online doctor in a list (the doctor list, the search, 我的医生). */
export default function OnlineDoctorCard({ doctor, onClick }: { doctor: OnlineDoctor; onClick: () => void }) {
  return (
    <Tappable className={`doctor-card${doctor.online ? '' : ' doctor-card--offline'}`} onTap={onClick}>
      <Image className='doctor-card__avatar' src={assetUrl(doctor.avatar)} aria-hidden='true' />
      <View className='doctor-card__body'>
        <View className='doctor-card__head'>
          <Text className='doctor-card__name'>{doctor.doctorName}</Text>
          <Text className='doctor-card__title'>{doctor.title}</Text>
          <Text className={`doctor-card__badge doctor-card__badge--${doctor.online ? 'on' : 'off'}`}>{doctor.online ? '在线' : '休息中'}</Text>
        </View>
        <Text className='doctor-card__dept'>
          {doctor.deptName} · {doctor.hospitalName}
        </Text>
        <LevelStars level={doctor.level} />
        {doctor.speciality && <Text className='doctor-card__speciality'>擅长：{doctor.speciality}</Text>}
        <View className='doctor-card__foot'>
          <Text className='doctor-card__stats'>
            平均回复 {averageReplyTime(doctor.avgReplySeconds)} · 服务 {doctor.servedCount} 次 · 好评 {doctor.goodRate}%
          </Text>
          <Text className='doctor-card__price'>图文 {priceText(doctor.priceFen)}</Text>
        </View>
      </View>
    </Tappable>
  )
}
