import { useRef } from 'react'
import { useDidShow } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import ActionBar from '@/components/ActionBar'
import { Button } from '@/components/Button'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import { usePatientCompletion } from '@/components/PatientCompletion'
import { qrDataUrl } from '@/components/PatientList/qrCode'
import { useStores } from '@/stores'
import { toastSuccess } from '@/ui/feedback'
import { maskIdCard, maskName } from '@/utils/mask'
import { localTime } from '@/utils/register'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * The page's loader for one patient's card: once the shell is ready, and again whenever the page shows again (back
 * from completing the patient). Pass the answer to PageShell's onReady.
 */
export function useCardLoader(patientId: number) {
  const patient = usePatientStore()
  const ready = useRef(false)
  useDidShow(() => {
    if (ready.current) void patient.loadCard(patientId).catch(() => undefined)
  })
  return async () => {
    await patient.loadCard(patientId).catch(() => undefined)
    ready.current = true
  }
}

/**
 * One patient's 电子就诊卡 at the current hospital: the card number whole with its QR code (the hospital's scanners
 * read it), and the hospital's record of the patient (建档, GET record-info). A patient not filed there yet asks for
 * the card here (申领, GET /patient/hospital/patient/bind); an incomplete one is completed first (spec §5).
 */
function CardDetail({ patientId }: { patientId: number }) {
  const { hospital } = useStores()
  const store = usePatientStore()
  const { requireComplete, modal } = usePatientCompletion()
  const card = store.card.value?.patient.id === patientId ? store.card.value : null

  const apply = () => {
    if (!card) return
    requireComplete(card.patient, () => {
      void store
        .fileAtHospital(patientId)
        .then((issued) => issued && toastSuccess(issued.existed ? '已有就诊卡' : '申领成功'))
        .catch(() => undefined)
    })
  }

  if (!hospital.hospital) return <NoHospital />
  if (!card && store.card.state === 'failed') return <LoadFailed onRetry={() => void store.loadCard(patientId).catch(() => undefined)} />
  if (!card) return <Loading />
  const { patient: p, record } = card
  return (
    <View className='card-detail'>
      <View className='card-detail__face'>
        <Text className='card-detail__brand'>电子就诊卡</Text>
        <Text className='card-detail__hospital'>{record.hospitalName}</Text>
        <Text className='card-detail__name'>{maskName(p.name)}</Text>
        <Text className='card-detail__line'>
          {p.relation} · {p.sexText} {p.age}岁
        </Text>
        <Text className='card-detail__line'>{p.idCard ? maskIdCard(p.idCard) : '无身份证（儿童）'}</Text>
      </View>
      {p.source === 'eHealth' && (
        <View className='card-detail__qr' role='group' aria-label='电子健康卡'>
          <Text className='card-detail__heading'>电子健康卡</Text>
          {card.healthCard ? (
            <>
              <Image className='card-detail__qr-image' src={card.healthCard.url} imgProps={{ alt: '电子健康卡二维码' }} />
              <Text className='card-detail__tip'>在接入电子健康卡的医院出示此码即可就诊；每次打开都会刷新</Text>
            </>
          ) : (
            <Text className='card-detail__tip'>电子健康卡二维码暂时无法获取，请稍后再打开</Text>
          )}
        </View>
      )}
      {record.filed ? (
        <>
          <View className='card-detail__qr'>
            <Image className='card-detail__qr-image' src={qrDataUrl(record.hisMedCardNo)} imgProps={{ alt: `就诊卡号${record.hisMedCardNo}的二维码` }} />
            <Text className='card-detail__no'>{record.hisMedCardNo}</Text>
            <Text className='card-detail__tip'>就诊时出示此码，在自助机、诊室和药房扫码识别</Text>
          </View>
          <View className='card-detail__record'>
            <Text className='card-detail__heading'>建档信息</Text>
            <View className='card-detail__row'>
              <Text className='card-detail__label'>建档医院</Text>
              <Text className='card-detail__value'>{record.hospitalName}</Text>
            </View>
            <View className='card-detail__row'>
              <Text className='card-detail__label'>就诊卡号</Text>
              <Text className='card-detail__value'>{record.hisMedCardNo}</Text>
            </View>
            {record.filedAt && (
              <View className='card-detail__row'>
                <Text className='card-detail__label'>建档时间</Text>
                <Text className='card-detail__value'>{localTime(record.filedAt)}</Text>
              </View>
            )}
          </View>
        </>
      ) : (
        <>
          <Empty text={`尚未在${record.hospitalName}建档`} />
          <Text className='card-detail__tip card-detail__tip--page'>
            {p.complete ? '申领后即在本院建档，获得电子就诊卡，可用于挂号、缴费和查询报告。' : '就诊人信息不完整，完善后即可申领电子就诊卡。'}
          </Text>
          <ActionBar>
            <Button type='primary' block loading={store.filing.busy} onClick={apply}>
              申领电子就诊卡
            </Button>
          </ActionBar>
        </>
      )}
      {modal}
    </View>
  )
}

export default observer(CardDetail)
