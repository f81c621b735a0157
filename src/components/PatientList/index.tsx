import { useRef } from 'react'
import Taro, { useDidShow } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import Empty, { LoadFailed } from '@/components/Empty'
import { usePatientCompletion } from '@/components/PatientCompletion'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { MAX_PATIENTS } from '@/stores/PatientStore'
import { confirm, toastSuccess } from '@/ui/feedback'
import { MSG } from '@/ui/messages'
import { maskCardNo, maskIdCard, maskMobile, maskName } from '@/utils/mask'
import type { Patient } from '../../../types/api/patient'
import { qrDataUrl } from './qrCode'
import './index.scss'
import { addPatientUrl, editPatientUrl, escortUrl, patientCardUrl } from '@/pageUrls'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * The page's loader for a patient list: loads once the shell is ready, and again whenever the page shows again
 * (back from adding or completing a patient), while `when` holds. Pass the answer to PageShell's onReady.
 */
export function usePatientListLoader(when: () => boolean = () => true) {
  const patient = usePatientStore()
  const ready = useRef(false)
  useDidShow(() => {
    // the first show comes before startup has signed in: PageShell's onReady loads then
    if (ready.current && when()) void patient.load().catch(() => undefined)
  })
  return async () => {
    if (when()) await patient.load().catch(() => undefined)
    ready.current = true
  }
}

/** A patient's identity line: masked number, or for a child bound without one, that fact. */
const idLine = (p: Patient) => (p.idCard ? maskIdCard(p.idCard) : '无身份证（儿童）')

interface Props {
  /** 'manage': 就诊人管理 cards; 'healthCard': electronic health cards with the hospital card number's QR code. */
  variant: 'manage' | 'healthCard'
  /** Picker mode (query select=1): tapping a patient makes it the current one and goes back. */
  select?: boolean
}

/**
 * The patient list shared by /pages/patient/index and /pages/healthPatient/index (spec §2): names, identity
 * numbers and mobiles masked (spec §9), with set default, unbind, escorts and edit.
 */
function PatientList({ variant, select = false }: Props) {
  const { hospital } = useStores()
  const store = usePatientStore()
  const hospitalCode = hospital.hospital?.hospitalCode
  const { requireComplete, modal } = usePatientCompletion()

  const pick = (p: Patient) =>
    requireComplete(p, () => {
      store.choose(p)
      void Taro.navigateBack()
    })

  const setDefault = async (p: Patient) => {
    await store.setDefault(p.id)
    toastSuccess('已设为默认就诊人')
  }

  const unbind = async (p: Patient) => {
    if (!(await confirm(`确定解除绑定就诊人${maskName(p.name)}吗？解除后其陪护人也将一并解除。`))) return
    await store.unbind(p.id)
    toastSuccess('已解除绑定')
  }

  const actions = (p: Patient) => (
    <View className='patient-card__actions'>
      {!p.isDefault && (
        <Tappable inline className='patient-card__action' onTap={() => void setDefault(p).catch(() => undefined)}>
          设为默认
        </Tappable>
      )}
      <Tappable inline className='patient-card__action' onTap={() => void Taro.navigateTo({ url: patientCardUrl(p.id) })}>
        就诊卡
      </Tappable>
      <Tappable inline className='patient-card__action' onTap={() => requireComplete(p, () => void Taro.navigateTo({ url: escortUrl(p.id) }))}>
        陪护人
      </Tappable>
      <Tappable inline className='patient-card__action' onTap={() => void Taro.navigateTo({ url: editPatientUrl(p.id, hospitalCode) })}>
        编辑
      </Tappable>
      <Tappable inline className='patient-card__action patient-card__action--danger' onTap={() => void unbind(p).catch(() => undefined)}>
        解除绑定
      </Tappable>
    </View>
  )

  const who = (p: Patient) => (
    <View className='patient-card__who'>
      <Text className='patient-card__name'>{maskName(p.name)}</Text>
      <Text className='patient-card__meta'>
        {p.sexText} {p.age}岁
      </Text>
      <Text className='patient-card__tag'>{p.relation}</Text>
      {p.isDefault && <Text className='patient-card__tag patient-card__tag--default'>默认</Text>}
      {select && store.current?.id === p.id && <Text className='patient-card__tag patient-card__tag--current'>当前</Text>}
      {!p.complete && <Text className='patient-card__tag patient-card__tag--warn'>待完善</Text>}
    </View>
  )

  const manageCard = (p: Patient) => (
    <Tappable key={p.id} className='patient-card' onTap={select ? () => pick(p) : undefined}>
      {who(p)}
      <Text className='patient-card__line'>证件号码：{idLine(p)}</Text>
      <Text className='patient-card__line'>手机号码：{p.mobile ? maskMobile(p.mobile) : '未填写'}</Text>
      {p.hisMedCardNo && <Text className='patient-card__line'>就诊卡号：{maskCardNo(p.hisMedCardNo)}</Text>}
      {!select && actions(p)}
    </Tappable>
  )

  const healthCard = (p: Patient) => (
    <Tappable key={p.id} className='health-card' onTap={select ? () => pick(p) : undefined}>
      <View className='health-card__face'>
        <View className='health-card__head'>
          <Text className='health-card__brand'>电子健康卡</Text>
          {p.isDefault && <Text className='patient-card__tag patient-card__tag--default'>默认</Text>}
        </View>
        <View className='health-card__body'>
          <View className='health-card__text'>
            <Text className='health-card__name'>{maskName(p.name)}</Text>
            <Text className='health-card__line'>{idLine(p)}</Text>
            <Text className='health-card__line'>
              {p.relation} · {p.sexText} {p.age}岁
            </Text>
          </View>
          {p.hisMedCardNo ? (
            <View className='health-card__qr'>
              <Image className='health-card__qr-image' src={qrDataUrl(p.hisMedCardNo)} imgProps={{ alt: `就诊卡号${p.hisMedCardNo}的二维码` }} />
              <Text className='health-card__no'>{p.hisMedCardNo}</Text>
            </View>
          ) : (
            <Text className='health-card__unfiled'>尚未在本院建档，可点“就诊卡”申领</Text>
          )}
        </View>
      </View>
      {!select && actions(p)}
    </Tappable>
  )

  if (!store.loaded && store.loadFailed)
    return (
      <LoadFailed onRetry={() => void store.load().catch(() => undefined)} />
    )
  if (!store.loaded) return <Text className='patient-list__loading'>{MSG.listLoading}</Text>

  return (
    <View className='patient-list'>
      {store.list.length === 0 ? (
        <Empty text='还没有就诊人，添加后即可挂号、缴费、查报告' />
      ) : (
        <>
          {select && <Text className='patient-list__hint'>请选择就诊人</Text>}
          {store.list.map((p) => (variant === 'healthCard' ? healthCard(p) : manageCard(p)))}
        </>
      )}
      <View className='patient-list__add'>
        <Button type='primary' block disabled={store.full} onClick={() => void Taro.navigateTo({ url: addPatientUrl(hospitalCode) })}>
          添加就诊人
        </Button>
        <Text className='patient-list__note'>
          {store.full ? `最多可绑定${MAX_PATIENTS}位就诊人，如需添加请先解除绑定` : `还可添加${MAX_PATIENTS - store.list.length}位就诊人`}
        </Text>
      </View>
      {modal}
    </View>
  )
}

export default observer(PatientList)
