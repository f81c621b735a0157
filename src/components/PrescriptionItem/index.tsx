import { useState } from 'react'
import Taro, { useReachBottom } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Button } from '@/components/Button'
import Tappable from '@/components/Tappable'
import Empty, { LoadFailed } from '@/components/Empty'
import { openPage } from '@/components/PageShell/openPage'
import type { PagedList } from '@/stores/base/PagedList'
import { MSG } from '@/ui/messages'
import { localTime, yuan } from '@/utils/register'
import { pharmacyOrderUrl, prescriptionUrl } from '@/pageUrls'
import type { Prescription, PrescriptionSummary } from '../../../types/api/pharmacy'
import './index.scss'
import { usePrescriptionStore } from '@/stores/PrescriptionStore'

type Actionable = Pick<Prescription, 'id' | 'orderable' | 'orderId'>

/** How a status shows: in colour while it can still be bought, grey once over. */
export const statusClass = (p: Pick<Prescription, 'expired' | 'orderable' | 'orderId'>) =>
  p.orderable ? 'open' : p.expired && !p.orderId ? 'over' : 'done'

/** 去购药 (an orderable prescription: the order page, or the page saying no pharmacy can fill it) and 查看订单. */
export const PrescriptionActions = observer(function PrescriptionActions({ p }: { p: Actionable }) {
  const prescription = usePrescriptionStore()
  const [finding, setFinding] = useState(false)
  const buy = async () => {
    setFinding(true)
    const url = await prescription.buyUrl(p.id).catch(() => null)
    setFinding(false)
    if (url) openPage(url)
  }
  if (!p.orderable && !p.orderId) return null
  return (
    <View className='pres-actions'>
      {p.orderId !== null && (
        <Button size='small' onClick={() => openPage(pharmacyOrderUrl(p.orderId!))}>
          查看订单
        </Button>
      )}
      {p.orderable && (
        <Button type='primary' size='small' loading={finding} onClick={() => void buy()}>
          去购药
        </Button>
      )}
    </View>
  )
})

/** One prescription in a list: diagnoses, medicines, total, status and its validity; the card opens the prescription. */
function PrescriptionItem({ p, showPatient }: { p: PrescriptionSummary; showPatient?: boolean }) {
  return (
    <View className='pres-item' role='listitem'>
      <Tappable role='link' className='pres-item__main' onTap={() => void Taro.navigateTo({ url: prescriptionUrl(p.id) })}>
        <View className='pres-item__head'>
          <Text className='pres-item__title'>{p.diagnoses.map((d) => d.name).join('、') || '处方'}</Text>
          <Text className={`pres-item__status pres-item__status--${statusClass(p)}`}>{p.statusText}</Text>
        </View>
        <Text className='pres-item__line'>{`药品：${p.drugNames.join('、')}`}</Text>
        <Text className='pres-item__line'>{`${showPatient ? `就诊人 ${p.patientName} · ` : ''}${p.deptName} ${p.doctorName}`}</Text>
        <Text className='pres-item__line'>{`开方时间 ${localTime(p.createdAt)}`}</Text>
        <Text className='pres-item__line'>{p.expired ? '已超过有效期' : `有效期至 ${localTime(p.expiresAt)}`}</Text>
        <Text className='pres-item__total'>{`合计 ${yuan(p.totalFen)}`}</Text>
      </Tappable>
      <PrescriptionActions p={p} />
    </View>
  )
}

const Item = observer(PrescriptionItem)

/** Prescriptions a page at a time (spec §8 加载中... / 没有更多了 / 加载失败). */
export const PrescriptionList = observer(function PrescriptionList({ list, empty, showPatient }: { list: PagedList<PrescriptionSummary>; empty: string; showPatient?: boolean }) {
  useReachBottom(() => void list.loadMore())
  if (list.empty) return <Empty text={empty} />
  if (list.failedEmpty) return <LoadFailed onRetry={() => void list.loadMore(true)} />
  const state = list.state
  return (
    <View>
      <View role='list' aria-label='处方'>
        {list.items.map((p) => (
          <Item key={p.id} p={p} showPatient={showPatient} />
        ))}
      </View>
      {state !== 'idle' || list.items.length > 0 ? (
        <Tappable className='pres-list__more' onTap={() => void list.loadMore(true)}>
          {state === 'loading' ? MSG.listLoading : state === 'done' ? MSG.listNoMore : state === 'failed' ? MSG.listFailed : MSG.loadMore}
        </Tappable>
      ) : (
        <Text className='pres-list__more'>{MSG.listLoading}</Text>
      )}
    </View>
  )
})


