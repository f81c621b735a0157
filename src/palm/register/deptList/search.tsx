import Taro from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { SearchBar } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { fieldName } from '@/components/FormField/fieldName'
import { MAX_KEYWORD } from '@/stores/KeywordSearch'
import { MSG } from '@/ui/messages'
import { type ChosenDept } from '@/stores/RegisterStore'
import { splitRemark } from '@/utils/register'
import { assetUrl } from '@/ui/assets'
import './search.scss'
import { deptScheduleUrl, doctorUrl } from '@/pageUrls'
import { useRegisterStore } from '@/stores/RegisterStore'

/** 搜索 (spec §2 /palm/register/deptList/search): departments, doctors and diseases, 500 ms after the last keystroke. */
function RegisterSearch() {
  const register = useRegisterStore()
  const result = register.catalogue.search.result

  const openDept = (dept: ChosenDept) => {
    register.catalogue.chooseDept(dept)
    void Taro.navigateTo({ url: deptScheduleUrl(dept) })
  }

  return (
    <PageShell title='搜索'>
      <View className='register-search'>
        <SearchBar placeholder='搜索科室、医生、疾病' inputProps={fieldName('搜索科室、医生、疾病')} maxLength={MAX_KEYWORD} value={register.catalogue.search.keyword} onChange={(v: string) => register.catalogue.search.setKeyword(v)} />
        {register.catalogue.search.state === 'idle' && !result && <Text className='register-search__hint'>输入科室、医生姓名或疾病名称</Text>}
        {register.catalogue.search.state === 'loading' && <Text className='register-search__hint'>{MSG.listLoading}</Text>}
        {register.catalogue.search.state === 'failed' && (
          <LoadFailed retryLabel='重新搜索' onRetry={() => void register.catalogue.search.run()} />
        )}
        {register.catalogue.search.empty && <Empty text='未找到相关科室、医生或疾病' />}
        {result && !register.catalogue.search.empty && register.catalogue.search.state === 'done' && (
          <View>
            {result.depts.length > 0 && (
              <View className='register-search__section'>
                <Text className='register-search__heading'>科室</Text>
                {result.depts.map((d) => (
                  <Tappable key={d.id} className='register-search__row' onTap={() => openDept(d)}>
                    <Text className='register-search__name'>{d.deptName}</Text>
                  </Tappable>
                ))}
              </View>
            )}
            {result.doctors.length > 0 && (
              <View className='register-search__section'>
                <Text className='register-search__heading'>医生</Text>
                {result.doctors.map((d) => {
                  const { title, hospitalName } = splitRemark(d.remark)
                  return (
                    <Tappable key={d.id} className='register-search__doctor' onTap={() => void Taro.navigateTo({ url: doctorUrl(d.id) })}>
                      {d.avatar ? <Image className='register-search__avatar' src={assetUrl(d.avatar)} aria-hidden='true' /> : <View className='register-search__avatar' />}
                      <View className='register-search__doctor-text'>
                        <View>
                          <Text className='register-search__name'>{d.doctorName}</Text>
                          {title && <Text className='register-search__title'>{title}</Text>}
                        </View>
                        <Text className='register-search__meta'>
                          {[hospitalName, d.deptName].filter(Boolean).join(' · ')}
                        </Text>
                      </View>
                    </Tappable>
                  )
                })}
              </View>
            )}
            {result.diseases.length > 0 && (
              <View className='register-search__section'>
                <Text className='register-search__heading'>疾病</Text>
                {result.diseases.map((d) => (
                  <Tappable key={`${d.name}-${d.deptId}`} className='register-search__row' onTap={() => openDept({ id: d.deptId, deptName: d.deptName })}>
                    <Text className='register-search__name'>{d.name}</Text>
                    <Text className='register-search__meta'>推荐科室：{d.deptName}</Text>
                  </Tappable>
                ))}
              </View>
            )}
          </View>
        )}
      </View>
    </PageShell>
  )
}

export default observer(RegisterSearch)
