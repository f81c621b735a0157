import OnlineDoctorList from '@/components/OnlineDoctorList'

/** The aixin hospital's own 找医生 (spec §2 /custom/aixin/doctorList/index): its own doctors only, no 地区. */
export default function AixinDoctorList() {
  return <OnlineDoctorList title='爱心医生' />
}
