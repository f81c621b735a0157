import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { LoadFailed, Loading } from '@/components/Empty'
import ActionBar from '@/components/ActionBar'
import { Button } from '@/components/Button'
import Tappable from '@/components/Tappable'
import { toastError } from '@/ui/feedback'
import { yuan } from '@/utils/register'
import { usePhysical } from '../../pages/order/physical/usePhysical'
import { physicalAppointmentUrl } from '@/pageUrls'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * 套餐详情 (spec §2 /palm/reservePhysical/detail?code=): the package's items and preparation, the days with the places
 * left, and 预约并支付 for the chosen patient, which pays in the cashier and comes back to the appointment.
 */
function PackageDetail() {
  const patients = usePatientStore()
  const store = usePhysical()
  const { params } = useRouter()
  const code = params.code ?? ''
  const [busy, setBusy] = useState(false)

  const load = async () => {
    await patients.load().catch(() => undefined)
    await store.loadPackage(code)
  }

  const book = async () => {
    setBusy(true)
    const result = await store.book(code).catch(() => null)
    setBusy(false)
    if (!result) return
    if (result.outcome === 'paid' || result.outcome === null) void Taro.redirectTo({ url: physicalAppointmentUrl(result.id) })
    else if (result.outcome === 'cancelled') toastError('支付已取消，可在我的体检预约中继续支付')
  }

  const body = () => {
    const pkg = store.pkg.value
    if (!pkg && store.pkg.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!pkg) return <Loading />
    const days = store.days.value ?? []
    const patient = patients.current
    return (
      <>
        <View className='physical__card'>
          <View className='physical__package-head'>
            <Text className='physical__package-name'>{pkg.name}</Text>
            <Text className='physical__price'>{yuan(pkg.priceFen)}</Text>
          </View>
          <Text className='physical__line'>{pkg.suits}</Text>
          <Text className='physical__note'>体检须知：{pkg.notice}</Text>
        </View>
        <View className='physical__card'>
          <Text className='physical__heading'>检查项目（{pkg.items.length}项）</Text>
          {pkg.items.map((i) => (
            <View key={i.name} className='physical__item'>
              <Text>
                {i.name}
                {i.meaning ? `：${i.meaning}` : ''}
              </Text>
              <Text className='physical__item-dept'>{i.dept}</Text>
            </View>
          ))}
        </View>
        <View className='physical__card'>
          <Text className='physical__heading'>选择体检日期</Text>
          <Text className='physical__line'>体检人：{patient ? patient.name : '请先选择就诊人'}</Text>
          <View className='physical__days' role='radiogroup' aria-label='体检日期'>
            {days.map((d) => {
              const off = !d.open || d.remaining <= 0
              const chosen = store.chosenDate === d.date
              const left = !d.open ? '休息' : d.remaining <= 0 ? '已约满' : `余${d.remaining}`
              return (
                <Tappable
                  key={d.date}
                  role='radio'
                  checked={chosen}
                  disabled={off}
                  label={`${d.date} ${d.week} ${left}`}
                  className={`physical__day${chosen ? ' physical__day--chosen' : ''}${off ? ' physical__day--off' : ''}`}
                  onTap={() => store.chooseDate(d)}
                >
                  <Text className='physical__day-date'>
                    {d.date.slice(5)} {d.week}
                  </Text>
                  <Text className='physical__day-left'>{left}</Text>
                </Tappable>
              )
            })}
          </View>
        </View>
        <ActionBar amount={{ label: '应付', value: yuan(pkg.priceFen) }}>
          <Button type='primary' block loading={busy} disabled={!store.chosenDate || !patient} onClick={() => void book()}>
            预约并支付
          </Button>
        </ActionBar>
      </>
    )
  }

  return (
    <PageShell title='套餐详情' onReady={load}>
      <View className='physical'>{body()}</View>
    </PageShell>
  )
}

export default observer(PackageDetail)
