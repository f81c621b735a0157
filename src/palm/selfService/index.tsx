import { useEffect, useState } from 'react'
import Taro, { useDidShow } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Check } from '@nutui/icons-react-taro'
import { Button } from '@/components/Button'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import ActionBar from '@/components/ActionBar'
import PatientPicker from '@/components/PatientPicker'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { yuan } from '@/utils/register'
import { CHOOSE_PATIENT_URL, SELF_SERVICE_CONFIRM_URL } from '@/pageUrls'
import './index.scss'
import { useSelfServiceStore } from '@/stores/SelfServiceStore'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * 自助开单 (spec §2 /palm/selfService/index): the tests the hospital lets patients order without a doctor's visit, for
 * the chosen patient, each a checkbox with its price and notes; one this patient may not order is shown disabled with
 * the reason (仅限女性, 仅限45岁及以上 ...). 下一步 opens the confirmation with the total.
 */
function SelfService() {
  const { hospital } = useStores()
  const selfService = useSelfServiceStore()
  const patients = usePatientStore()
  const [ready, setReady] = useState(false)
  const current = patients.current

  const load = async () => {
    await patients.load().catch(() => undefined)
    await selfService.load()
    setReady(true)
  }
  useDidShow(() => {
    if (ready) void selfService.load()
  })
  useEffect(() => {
    if (ready) void selfService.load()
  }, [current?.id, selfService, ready])

  const list = () => {
    if (!current) return null
    if (selfService.items.state === 'failed' && !selfService.items.value) return <LoadFailed onRetry={() => void selfService.load()} />
    if (!selfService.items.value) return <Loading />
    if (!selfService.list.length) return <Empty text='本院暂未开放自助开单项目' />
    return (
      <View className='self-list__card' role='group' aria-label='检验项目'>
        <Text className='self-list__heading'>检验项目</Text>
        <Text className='self-list__hint'>以下项目无需医生开单，缴费后可直接到医院检验</Text>
        {selfService.list.map((item) => {
          const on = selfService.isSelected(item.code)
          return (
            <Tappable
              key={item.code}
              className={`self-item${item.allowed ? '' : ' self-item--off'}`}
              role='checkbox'
              checked={on}
              disabled={!item.allowed}
              label={`${item.name} ${yuan(item.priceFen)}${item.reason ? `，不可选：${item.reason}` : ''}`}
              onTap={() => selfService.toggle(item)}
            >
              <View className={`self-item__box${on ? ' self-item__box--on' : ''}`} aria-hidden='true'>
                {on && <Check size={14} />}
              </View>
              <View className='self-item__text'>
                <View className='self-item__top'>
                  <Text className='self-item__name'>{item.name}</Text>
                  <Text className='self-item__price'>{yuan(item.priceFen)}</Text>
                </View>
                <Text className='self-item__notes'>{item.notes}</Text>
                {item.reason && <Text className='self-item__reason'>不可选：{item.reason}</Text>}
              </View>
            </Tappable>
          )
        })}
      </View>
    )
  }

  const count = selfService.selected.length
  return (
    <PageShell title='自助开单' onReady={load}>
      {!hospital.hospital ? (
        <NoHospital />
      ) : (
        <View className='self-list'>
          <View className='self-list__card'>
            <View className='self-list__head'>
              <Text className='self-list__heading'>就诊人</Text>
              <Tappable inline className='self-list__link' onTap={() => void Taro.navigateTo({ url: CHOOSE_PATIENT_URL })}>
                管理
              </Tappable>
            </View>
            <PatientPicker onChoose={(p) => patients.choose(p)} />
          </View>
          {list()}
          {selfService.list.length > 0 && (
            <ActionBar amount={{ label: '合计', value: yuan(selfService.totalFen) }} note={count ? `已选${count}项` : '请选择检验项目'}>
              <Button type='primary' block disabled={!count} onClick={() => void Taro.navigateTo({ url: SELF_SERVICE_CONFIRM_URL })}>
                下一步
              </Button>
            </ActionBar>
          )}
        </View>
      )}
    </PageShell>
  )
}

export default observer(SelfService)
