import { useRef } from 'react'
import Taro, { useDidShow, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed } from '@/components/Empty'
import { usePatientCompletion } from '@/components/PatientCompletion'
import Tappable from '@/components/Tappable'
import { MAX_ESCORTS } from '@/stores/PatientStore'
import { confirm, toastSuccess } from '@/ui/feedback'
import { MSG } from '@/ui/messages'
import { maskIdCard, maskMobile, maskName } from '@/utils/mask'
import type { Accompany } from '../../../../types/api/patient'
import './index.scss'
import { addEscortUrl, escortPassUrl, PATIENT_LIST_URL } from '@/pageUrls'
import { usePatientStore } from '@/stores/PatientStore'

/** 陪护人 of one patient (spec §2 /palm/hospitalization/escort/index?patientId=): list, add, edit, unbind. */
function Escorts() {
  const store = usePatientStore()
  const { params } = useRouter()
  const patientId = Number(params.patientId)
  const { requireComplete, showFor, modal } = usePatientCompletion()
  const ready = useRef(false)
  const owner = store.byId(patientId)

  const load = async () => {
    await store.load().catch(() => undefined)
    const p = store.byId(patientId)
    // an address without one of the account's patients (a bare link, someone else's id) asks nothing of the server
    if (!p) return
    await store.loadEscorts(patientId).catch(() => undefined)
    // escorts are for a complete patient: say so at once, the way the list does before opening this page
    if (!p.complete) showFor(p)
  }
  useDidShow(() => {
    if (ready.current) void load()
  })

  const add = () => {
    if (!owner) return
    requireComplete(owner, () => void Taro.navigateTo({ url: addEscortUrl(patientId) }))
  }

  const unbind = async (e: Accompany) => {
    if (!(await confirm(`确定解除陪护人${maskName(e.name)}吗？`))) return
    await store.unbindEscort(e.id)
    toastSuccess('已解除')
  }

  const loading = store.escortsLoading && store.escorts.length === 0

  return (
    <PageShell
      title='陪护人'
      onReady={async () => {
        await load()
        ready.current = true
      }}
    >
      {store.loaded && !owner ? (
        <Empty text='未找到该就诊人，请从就诊人管理进入' action={{ label: '就诊人管理', onTap: () => void Taro.redirectTo({ url: PATIENT_LIST_URL }) }} />
      ) : (
      <View className='escorts'>
        {owner && (
          <View className='escorts__owner'>
            <Text className='escorts__owner-label'>就诊人</Text>
            <Text className='escorts__owner-name'>{maskName(owner.name)}</Text>
            <Text className='escorts__owner-meta'>
              {owner.relation} · {owner.sexText} {owner.age}岁
            </Text>
          </View>
        )}
        {loading && <Text className='escorts__loading'>{MSG.listLoading}</Text>}
        {!loading && store.escortsFailed && store.escorts.length === 0 && <LoadFailed onRetry={() => void store.loadEscorts(patientId).catch(() => undefined)} />}
        {!loading && !store.escortsFailed && store.escorts.length === 0 && <Empty text='还没有陪护人' />}
        {store.escorts.map((e) => (
          <View key={e.id} className='escort-card'>
            <View className='escort-card__who'>
              <Text className='escort-card__name'>{maskName(e.name)}</Text>
              <Text className='escort-card__tag'>{e.relation}</Text>
            </View>
            <Text className='escort-card__line'>证件号码：{maskIdCard(e.idCard)}</Text>
            <Text className='escort-card__line'>手机号码：{maskMobile(e.mobile)}</Text>
            <View className='escort-card__actions'>
              <Tappable inline className='escort-card__action' onTap={() => void Taro.navigateTo({ url: escortPassUrl(patientId, e.id) })}>
                电子陪护证
              </Tappable>
              <Tappable inline className='escort-card__action' onTap={() => void Taro.navigateTo({ url: addEscortUrl(patientId, e.id) })}>
                编辑
              </Tappable>
              <Tappable inline className='escort-card__action escort-card__action--danger' onTap={() => void unbind(e).catch(() => undefined)}>
                解除
              </Tappable>
            </View>
          </View>
        ))}
        <View className='escorts__add'>
          <Button type='primary' block disabled={store.escortsFull || !owner} onClick={add}>
            添加陪护人
          </Button>
          <Text className='escorts__note'>每位就诊人最多添加{MAX_ESCORTS}位陪护人</Text>
        </View>
      </View>
      )}
      {modal}
    </PageShell>
  )
}

export default observer(Escorts)
