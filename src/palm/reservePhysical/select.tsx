import { useEffect, useState } from 'react'
import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { yuan } from '@/utils/register'
import { usePhysical } from '../../pages/order/physical/usePhysical'
import { PHYSICAL_RESERVE_LIST_URL, physicalPackageUrl } from '@/pageUrls'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'

const SEX_TEXT = ['不限性别', '男性', '女性']

/** 体检预约 (spec §2 /palm/reservePhysical/select): the chosen patient and the packages that suit their sex and age. */
function SelectPackage() {
  const { hospital } = useStores()
  const patients = usePatientStore()
  const store = usePhysical()
  const [ready, setReady] = useState(false)
  const current = patients.current

  useEffect(() => {
    if (ready) void store.loadPackages()
  }, [ready, current?.id, store])

  const body = () => {
    if (!current) return null
    const list = store.packages.value
    if (!list && store.packages.state === 'failed') return <LoadFailed onRetry={() => void store.loadPackages()} />
    if (!list) return <Loading />
    if (!list.length) return <Empty text='暂无适合该就诊人的体检套餐' />
    return list.map((p) => (
      <Tappable key={p.code} className='physical__package' onTap={() => void Taro.navigateTo({ url: physicalPackageUrl(p.code) })}>
        <View className='physical__package-head'>
          <Text className='physical__package-name'>{p.name}</Text>
          <Text className='physical__price'>{yuan(p.priceFen)}</Text>
        </View>
        <Text className='physical__line'>{p.suits}</Text>
        <Text className='physical__line'>
          {SEX_TEXT[p.sex]} · {p.minAge}至{p.maxAge}岁 · 共{p.items.length}项
        </Text>
      </Tappable>
    ))
  }

  return (
    <PageShell
      title='体检预约'
      onReady={async () => {
        await patients.load().catch(() => undefined)
        setReady(true)
      }}
    >
      {!hospital.hospital ? (
        <NoHospital />
      ) : (
        <View className='physical'>
          <View className='physical__card'>
            <View className='physical__head'>
              <Text className='physical__heading'>体检人</Text>
              <Tappable inline role='link' className='physical__link' onTap={() => void Taro.navigateTo({ url: PHYSICAL_RESERVE_LIST_URL })}>
                我的预约
              </Tappable>
            </View>
            <PatientPicker onChoose={(p) => patients.choose(p)} />
          </View>
          {body()}
        </View>
      )}
    </PageShell>
  )
}

export default observer(SelectPackage)
