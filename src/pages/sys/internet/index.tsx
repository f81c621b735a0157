import HomePage from '@/components/HomePage'
import HomeDoctors from './HomeDoctors'

/** 互联网医院's home: the hospital's services, then its doctors (问诊过的医生, 为您推荐, 热门医生). */
export default function Index() {
  return (
    <HomePage title='互联网医院'>
      <HomeDoctors />
    </HomePage>
  )
}
