import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { SearchBar } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed } from '@/components/Empty'
import OnlineDoctorCard from '@/components/OnlineDoctorCard'
import Tappable from '@/components/Tappable'
import { fieldName } from '@/components/FormField/fieldName'
import { useStores } from '@/stores'
import { MAX_KEYWORD } from '@/stores/KeywordSearch'
import { MSG } from '@/ui/messages'

import './index.scss'
import { doctorListUrl, onlineDoctorUrl } from '@/pageUrls'
import { useDoctorStore } from '@/stores/DoctorStore'

/** 搜索医生 (spec §2 /internet/searchParams/index): online doctors by name, speciality or department, as the patient types. */
function DoctorSearch() {
  const { hospital } = useStores()
  const doctor = useDoctorStore()
  const result = doctor.search.result

  const openDept = (dept: { id: number; hospitalCode: string }) => {
    doctor.searchDept(dept)
    void Taro.navigateTo({ url: doctorListUrl(hospital.hospital?.hospitalCode) })
  }

  return (
    <PageShell title='搜索医生'>
      <View className='doctor-search'>
        <SearchBar placeholder='搜索医生、科室、擅长疾病' inputProps={fieldName('搜索医生、科室、擅长疾病')} maxLength={MAX_KEYWORD} value={doctor.search.keyword} onChange={(v: string) => doctor.search.setKeyword(v)} />
        {doctor.search.state === 'idle' && !result && <Text className='doctor-search__hint'>输入医生姓名、科室或擅长的疾病</Text>}
        {doctor.search.state === 'loading' && <Text className='doctor-search__hint'>{MSG.listLoading}</Text>}
        {doctor.search.state === 'failed' && (
          <LoadFailed retryLabel='重新搜索' onRetry={() => void doctor.search.run()} />
        )}
        {doctor.search.empty && <Empty text='未找到相关医生或科室' />}
        {result && !doctor.search.empty && doctor.search.state === 'done' && (
          <View>
            {result.depts.length > 0 && (
              <View className='doctor-search__section'>
                <Text className='doctor-search__heading'>科室</Text>
                {result.depts.map((d) => (
                  <Tappable key={d.id} className='doctor-search__dept' onTap={() => openDept(d)}>
                    <Text className='doctor-search__dept-name'>{d.deptName}</Text>
                    <Text className='doctor-search__dept-count'>
                      {d.onlineCount}/{d.doctorCount} 位医生在线
                    </Text>
                  </Tappable>
                ))}
              </View>
            )}
            {result.doctors.length > 0 && (
              <View>
                <Text className='doctor-search__heading doctor-search__heading--doctors'>医生</Text>
                {result.doctors.map((d) => (
                  <OnlineDoctorCard key={d.id} doctor={d} onClick={() => void Taro.navigateTo({ url: onlineDoctorUrl(d.id) })} />
                ))}
              </View>
            )}
          </View>
        )}
      </View>
    </PageShell>
  )
}

export default observer(DoctorSearch)
