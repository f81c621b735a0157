import { useState } from 'react'
import { useRouter } from '@tarojs/taro'
import { Image, Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Button } from '@/components/Button'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import { qrDataUrl } from '@/components/PatientList/qrCode'
import { useStores } from '@/stores'
import { EscortPassStore } from '@/stores/EscortPassStore'
import { hospitalClock } from '@/utils/hospitalClock'
import './eleAttend.scss'

/** Said under a refusal: when the pass can be had at all. */
export const PASS_ONLY_IN_HOSPITAL = '电子陪护证仅在就诊人住院期间可用，凭证只对本次住院有效。办理入院后再来查看。'

const wallTime = (iso: string) => {
  const { date, time } = hospitalClock(new Date(iso))
  return `${date} ${time.slice(0, 5)}`
}

/**
 * 电子陪护证 (spec §2 /palm/hospitalization/escort/eleAttend?patientId=&escortId=): the QR code an escort shows on the
 * ward, signed by the server for this stay only, with whom it names (masked), ward and bed and until when it holds;
 * 刷新 asks for a fresh one. While the patient is not in hospital the page says so instead.
 */
function EscortPassPage() {
  const { hospital } = useStores()
  const { params } = useRouter()
  const escortId = Number(params.escortId)
  const [store] = useState(() => new EscortPassStore(() => hospital.hospital?.hospitalCode))
  const pass = store.pass
  const refresh = () => void store.load(escortId)

  const body = () => {
    if (!hospital.hospital) return <NoHospital />
    if (!Number.isSafeInteger(escortId) || escortId <= 0) return <Empty text='未找到该陪护人，请从陪护人列表进入' />
    if (store.state === 'refused')
      return (
        <View className='pass__refused'>
          <Empty text={store.refusal} action={{ label: '重新查询', onTap: refresh }} />
          <Text className='pass__explain'>{PASS_ONLY_IN_HOSPITAL}</Text>
        </View>
      )
    if (store.state === 'failed') return <LoadFailed onRetry={refresh} />
    if (!pass) return <Loading />
    return (
      <View className='pass'>
        <View className='pass__card'>
          <Text className='pass__hospital'>{pass.hospitalName}</Text>
          <Text className='pass__title'>电子陪护证</Text>
          <Image className='pass__qr' src={qrDataUrl(pass.token)} imgProps={{ alt: `陪护人${pass.escortName}的电子陪护证二维码` }} />
          <Text className='pass__valid'>有效期至 {wallTime(pass.expiresAt)}</Text>
        </View>
        <View className='pass__card pass__rows'>
          <View className='pass__row'>
            <Text className='pass__label'>陪护人</Text>
            <Text className='pass__value'>
              {pass.escortName}（{pass.relation}）
            </Text>
          </View>
          <View className='pass__row'>
            <Text className='pass__label'>就诊人</Text>
            <Text className='pass__value'>{pass.patientName}</Text>
          </View>
          <View className='pass__row'>
            <Text className='pass__label'>病区床号</Text>
            <Text className='pass__value'>
              {pass.ward} {pass.bed}
            </Text>
          </View>
          <View className='pass__row'>
            <Text className='pass__label'>科室</Text>
            <Text className='pass__value'>{pass.deptName}</Text>
          </View>
          <View className='pass__row'>
            <Text className='pass__label'>住院号</Text>
            <Text className='pass__value'>{pass.admissionNo}</Text>
          </View>
        </View>
        <Text className='pass__explain'>请向病区工作人员出示本二维码。陪护证只对本次住院有效，出院后自动失效；每次有效24小时，过期请刷新。</Text>
        <View className='pass__refresh'>
          <Button type='primary' block disabled={store.loading} onClick={refresh}>
            {store.loading ? '刷新中...' : '刷新'}
          </Button>
        </View>
      </View>
    )
  }

  return (
    <PageShell title='电子陪护证' onReady={() => store.load(escortId)}>
      {body()}
    </PageShell>
  )
}

export default observer(EscortPassPage)
