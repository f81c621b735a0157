import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import HospitalItem from './HospitalItem'

/**
 * One brand (医联体 / 集团): what it is, its member hospitals (common/hospitalList/{id}) and the featured departments
 * of those hospitals (brand/dept/{id}). A department is seen at its own hospital: tapping it goes there.
 */
function BrandView({ brandId }: { brandId: number }) {
  const { hospital } = useStores()
  const brand = hospital.brands.value?.find((b) => b.id === brandId)
  const hospitals = hospital.brandHospitals
  const departments = hospital.brandDepartments
  const retry = () => void hospital.showBrand(brandId).catch(() => undefined)

  if (hospitals.state === 'failed' && !hospitals.value) return <LoadFailed onRetry={retry} />
  if (!hospitals.value) return <Loading />
  return (
    <View className='hospitals'>
      {brand && (
        <View className='hospitals__brand'>
          <Text className='hospitals__brand-name'>{brand.name}</Text>
          <Text className='hospitals__brand-count'>{brand.hospitalCount}家成员医院</Text>
          {brand.intro && <Text className='hospitals__brand-intro'>{brand.intro}</Text>}
        </View>
      )}
      <Text className='hospitals__section'>成员医院</Text>
      {hospitals.value.length === 0 ? <Empty text='该医联体暂无成员医院' /> : hospitals.value.map((h) => <HospitalItem key={h.hospitalCode} hospital={h} />)}
      <Text className='hospitals__section'>特色科室</Text>
      {departments.state === 'failed' && !departments.value ? (
        <Tappable className='hospitals__retry' onTap={retry}>
          特色科室加载失败，点击重试
        </Tappable>
      ) : !departments.value ? (
        <Loading />
      ) : departments.value.length === 0 ? (
        <Text className='hospitals__none'>暂无特色科室</Text>
      ) : (
        departments.value.map((d) => (
          <Tappable key={d.id} className='hospitals__dept' onTap={() => void hospital.switchTo(d.hospitalCode)}>
            <View className='hospitals__dept-head'>
              <Text className='hospitals__dept-name'>{d.deptName}</Text>
              <Text className='hospitals__dept-hospital'>{d.hospitalName}</Text>
            </View>
            {d.intro && <Text className='hospitals__dept-intro'>{d.intro}</Text>}
            <Text className='hospitals__dept-go'>去该院就诊 ›</Text>
          </Tappable>
        ))
      )}
    </View>
  )
}

export default observer(BrandView)
