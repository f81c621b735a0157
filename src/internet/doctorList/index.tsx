import { observer } from 'mobx-react-lite'
import OnlineDoctorList from '@/components/OnlineDoctorList'
import { useStores } from '@/stores'
import PlaceFilter from './PlaceFilter'

/** 在线问诊 · 找医生 (spec §2 /internet/doctorList/index): the doctors of the app's hospital, or of one under 地区. */
function DoctorList() {
  const { hospital } = useStores()
  return <OnlineDoctorList title='在线问诊' filter={<PlaceFilter ownHospitalName={hospital.hospital?.hospitalName} />} />
}

export default observer(DoctorList)
