import { useEffect, useState } from 'react'
import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { reaction } from 'mobx'
import { observer } from 'mobx-react-lite'
import { Button } from '@/components/Button'
import ActionBar from '@/components/ActionBar'
import { LoadFailed, Loading } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import Segmented from '@/components/Segmented'
import Tappable from '@/components/Tappable'
import DrugRow from './DrugRow'
import ShipRange from './ShipRange'
import { shortText } from '@/stores/CartStore'
import { toastError } from '@/ui/feedback'
import { yuan } from '@/utils/register'
import { isBuiltPage } from '@/routes'
import { ADDRESS_LIST_URL, pharmacyOrderUrl, pharmacyStoreUrl } from '@/pageUrls'
import type { PharmacyDelivery } from '../../../types/api/pharmacy'
import './index.scss'
import { usePharmacyOrderStore } from '@/stores/PharmacyOrderStore'
import { usePatientStore } from '@/stores/PatientStore'
import { useAddressStore } from '@/stores/AddressStore'

const DELIVERY_TEXT: Record<PharmacyDelivery, string> = { express: '快递配送', pickup: '到店自提' }

/**
 * The body of 确认订单, from a prescription (/internet/sureOrder) or from the cart (/pages/storePayment): the drugs,
 * 快递配送 to an address the store delivers to with its fee and tip (配送范围 lists where that is; an address outside it
 * says why before anything is placed), or 到店自提 at the store, the totals, and 提交订单, which places the order once,
 * pays it and opens the order. A line the store has too little of is marked and holds 提交订单 back. The page opens the
 * checkout (PharmacyOrderStore).
 */
function PharmacyCheckout({ onRetry }: { onRetry: () => void }) {
  const checkout = usePharmacyOrderStore()
  const address = useAddressStore()
  const patient = usePatientStore()
  const [range, setRange] = useState(false)

  // another address (chosen from the book) has its own fee
  useEffect(() => reaction(() => checkout.address?.id, () => void checkout.loadFee()), [checkout])

  const submit = async () => {
    const blocker = checkout.blocker
    if (blocker && !checkout.placed) return toastError(blocker)
    const result = await checkout.submit().catch(() => null)
    if (!result || result.outcome === 'left') return
    if (result.outcome === 'cancelled') toastError('支付已取消，可在药品订单中继续支付')
    void Taro.redirectTo({ url: pharmacyOrderUrl(result.order.id) })
  }

  if (checkout.source === 'prescription' && checkout.prescription.state === 'failed') return <LoadFailed onRetry={onRetry} />
  if (checkout.source === 'prescription' && !checkout.prescription.value) return <Loading />
  const store = checkout.store.value
  const options = (['express', 'pickup'] as const).filter((d) => !store || store[d === 'express' ? 'delivery' : 'pickup']).map((d) => ({ label: DELIVERY_TEXT[d], value: d }))
  const a = checkout.address
  const pres = checkout.prescription.value

  return (
    <View className='checkout'>
      {pres && (
        <View className='checkout__card'>
          <Text className='checkout__heading'>处方信息</Text>
          <Text className='checkout__line'>
            {pres.patientName} · {pres.deptName} · {pres.doctorName}
          </Text>
          <Text className='checkout__line'>诊断：{pres.diagnoses.map((d) => d.name).join('；')}</Text>
        </View>
      )}

      {checkout.needsPatient && (
        <View className='checkout__card'>
          <Text className='checkout__heading'>就诊人</Text>
          <Text className='checkout__note'>购物车中有处方药，需为持有审核通过处方的就诊人购买</Text>
          <PatientPicker onChoose={(p) => patient.choose(p)} />
        </View>
      )}

      <View className='checkout__card'>
        <Text className='checkout__heading'>配送方式</Text>
        {options.length > 0 ? (
          <Segmented label='配送方式' options={options} value={checkout.delivery} onChange={(d) => void checkout.chooseDelivery(d)} />
        ) : (
          <Text className='checkout__note'>暂无可配药的药房</Text>
        )}
        {checkout.delivery === 'express' ? (
          <>
            <Tappable className='checkout__address' label={a ? undefined : '选择收货地址'} onTap={() => void Taro.navigateTo({ url: `${ADDRESS_LIST_URL}?select=1` })}>
              {a ? (
                <>
                  <Text className='checkout__who'>
                    {a.name} {a.mobile}
                  </Text>
                  <Text className='checkout__line'>
                    {a.regionText} {a.detail}
                  </Text>
                </>
              ) : (
                <Text className='checkout__line'>{address.loaded ? '请选择收货地址' : '收货地址加载中...'}</Text>
              )}
            </Tappable>
            {checkout.outOfRangeReason && (
              <View className='checkout__note checkout__note--warn' role='alert'>
                {checkout.outOfRangeReason}
              </View>
            )}
            {checkout.storeId !== null && (
              <Tappable inline role='link' className='checkout__link' onTap={() => setRange(true)}>
                配送范围
              </Tappable>
            )}
          </>
        ) : (
          store && (
            <View className='checkout__store'>
              <Text className='checkout__who'>{store.name}</Text>
              <Text className='checkout__line'>地址：{store.address}</Text>
              <Text className='checkout__line'>营业时间：{store.hours}</Text>
              {isBuiltPage(pharmacyStoreUrl(store.id)) && (
                <Tappable inline role='link' className='checkout__link' onTap={() => void Taro.navigateTo({ url: pharmacyStoreUrl(store.id) })}>
                  药房详情
                </Tappable>
              )}
            </View>
          )
        )}
      </View>

      <View className='checkout__card'>
        <Text className='checkout__heading'>药品清单</Text>
        {checkout.lines.map((l) => {
          const left = checkout.shortOf(l)
          return <DrugRow key={l.drugId} block='checkout' line={l} rx={checkout.source === 'shop' && l.rx} short={left === null ? null : shortText(left, l.unit)} />
        })}
        {checkout.repeat && <Text className='checkout__note'>再次购药按原处方配药，仅收取药品费和配送费</Text>}
      </View>

      <View className='checkout__card'>
        <Row label='药品费' value={yuan(checkout.drugFeeFen)} />
        {checkout.source === 'prescription' && !checkout.repeat && <Row label='诊查费' value={yuan(checkout.diagnosisFeeFen)} />}
        {checkout.delivery === 'express' && <Row label='配送费' value={checkout.fee.value?.supported ? yuan(checkout.expressFeeFen) : '--'} />}
        {checkout.delivery === 'express' && checkout.fee.value?.supported && checkout.fee.value.tip && <Text className='checkout__note'>{checkout.fee.value.tip}</Text>}
      </View>

      {range && <ShipRange onClose={() => setRange(false)} />}

      <ActionBar amount={{ label: '合计', value: yuan(checkout.totalFen) }} note={checkout.placed ? null : checkout.blocker}>
        <Button type='primary' block disabled={checkout.submitting.busy} onClick={() => void submit()}>
          {checkout.submitting.busy ? '提交中...' : checkout.placed ? '去支付' : '提交订单'}
        </Button>
      </ActionBar>
    </View>
  )
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <View className='checkout__row'>
      <Text className='checkout__label'>{label}</Text>
      <Text className='checkout__value'>{value}</Text>
    </View>
  )
}

export default observer(PharmacyCheckout)
