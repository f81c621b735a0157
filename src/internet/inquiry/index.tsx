import { useRef } from 'react'
import Taro, { useDidShow, useRouter } from '@tarojs/taro'
import { View, Text, Image, Textarea } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import { ADD_PATIENT_URL } from '@/components/PatientList'
import { INCOMPLETE_TEXT, usePatientCompletion } from '@/components/PatientCompletion'
import { useStores } from '@/stores'
import { CONSENT_TEXT, DESCRIPTION_MAX, PICTURES_MAX, inquiryDetailUrl, inquiryPrice } from '@/stores/InquiryStore'
import { assetUrl } from '@/services/register'
import { ApiError, toastError } from '@/services/request'
import { MSG } from '@/services/messages'
import { maskName } from '@/utils/mask'
import type { Inquiry } from '../../../types/api/inquiry'
import type { Patient } from '../../../types/api/patient'
import './index.scss'

/**
 * 图文问诊 (spec §2 /internet/inquiry/index?doctorId=): the doctor and the price, the patient, the illness in words and
 * up to 9 pictures, the consent, then 提交并支付 through the payment core; the detail of the inquiry follows.
 */
function InquiryPage() {
  const { inquiry, patient: patients } = useStores()
  const { params } = useRouter()
  const doctorId = Number(params.doctorId)
  const { requireComplete, showFor, modal } = usePatientCompletion()
  const ready = useRef(false)
  const doctor = inquiry.doctor?.id === doctorId ? inquiry.doctor : null
  const current = patients.current
  const created = inquiry.created
  const price = inquiry.priceFen

  const load = async () => {
    await Promise.all([patients.load().catch(() => undefined), doctorId ? inquiry.openInquiry(doctorId) : undefined])
    ready.current = true
  }
  // back from adding or completing a patient
  useDidShow(() => {
    if (ready.current && !inquiry.created) void patients.load().catch(() => undefined)
  })

  const choose = (p: Patient) => {
    if (created) return
    requireComplete(p, () => patients.choose(p))
  }

  const pay = async (made: Inquiry) => {
    // a free consultation is waiting for the doctor at once
    if (made.status !== 'unpaid') return void Taro.redirectTo({ url: inquiryDetailUrl(made.id) })
    const outcome = await inquiry.pay(made.id).catch(() => 'failed' as const)
    if (outcome === 'paid') void Taro.redirectTo({ url: inquiryDetailUrl(made.id) })
    else if (outcome === 'cancelled') toastError('支付已取消，请在30分钟内完成支付')
  }

  const submit = () => {
    if (!current) return
    requireComplete(current, () => {
      inquiry
        .submit()
        .then((made) => (made ? pay(made) : undefined))
        .catch((e: unknown) => {
          // spec §5: the server says the patient is incomplete (the list here was out of date)
          if (e instanceof ApiError && e.message === INCOMPLETE_TEXT) showFor(current)
        })
    })
  }

  const body = () => {
    if (!doctorId) return <Empty text='未找到该医生' />
    if (!doctor && inquiry.doctorState === 'failed') return <LoadFailed onRetry={() => void inquiry.openInquiry(doctorId)} />
    if (!doctor) return <Loading />
    const locked = !!created
    return (
      <View className='inquiry'>
        <View className='inquiry__doctor'>
          <Image className='inquiry__avatar' src={assetUrl(doctor.avatar)} />
          <View className='inquiry__who'>
            <View>
              <Text className='inquiry__name'>{doctor.doctorName}</Text>
              <Text className='inquiry__title'>{doctor.title}</Text>
            </View>
            <Text className='inquiry__dept'>
              {doctor.hospitalName} · {doctor.deptName}
            </Text>
          </View>
          <View className='inquiry__service'>
            <Text className='inquiry__service-name'>图文问诊</Text>
            <Text className='inquiry__price'>{price === null ? '暂未开通' : inquiryPrice(price)}</Text>
          </View>
        </View>

        <View className='inquiry__card'>
          <View className='inquiry__head'>
            <Text className='inquiry__heading'>就诊人</Text>
            {!locked && (
              <Text className='inquiry__link' onClick={() => void Taro.navigateTo({ url: '/pages/patient/index?select=1' })}>
                管理
              </Text>
            )}
          </View>
          {!patients.loaded && patients.loadFailed ? (
            <Text className='inquiry__note inquiry__note--warn' onClick={() => void patients.load().catch(() => undefined)}>
              就诊人{MSG.listFailed}，点击重试
            </Text>
          ) : !patients.loaded ? (
            <Text className='inquiry__note'>{MSG.listLoading}</Text>
          ) : patients.list.length === 0 ? (
            <View className='inquiry__add'>
              <Text className='inquiry__note'>还没有就诊人，请先添加</Text>
              <Button type='primary' size='small' onClick={() => void Taro.navigateTo({ url: ADD_PATIENT_URL })}>
                添加就诊人
              </Button>
            </View>
          ) : (
            <View className='inquiry__chips' role='radiogroup' aria-label='就诊人'>
              {patients.list.map((p) => (
                <View
                  key={p.id}
                  role='radio'
                  aria-checked={current?.id === p.id}
                  className={`inquiry__chip${current?.id === p.id ? ' inquiry__chip--on' : ''}`}
                  onClick={() => choose(p)}
                >
                  <Text>{maskName(p.name)}</Text>
                  {!p.complete && <Text className='inquiry__chip-tag'>待完善</Text>}
                </View>
              ))}
            </View>
          )}
        </View>

        <View className='inquiry__card'>
          <Text className='inquiry__heading'>病情描述</Text>
          <Textarea
            className='inquiry__textarea'
            value={inquiry.description}
            maxlength={DESCRIPTION_MAX}
            disabled={locked}
            placeholder='请详细描述症状、持续时间、做过的检查和用药情况，以便医生了解您的病情'
            onInput={(e) => inquiry.setDescription(e.detail.value)}
          />
          <Text className='inquiry__counter'>
            {inquiry.description.length}/{DESCRIPTION_MAX}
          </Text>
        </View>

        <View className='inquiry__card'>
          <Text className='inquiry__heading'>图片资料</Text>
          <Text className='inquiry__note'>检查报告、患处照片等，最多{PICTURES_MAX}张，仅医生可见</Text>
          <View className='inquiry__pictures'>
            {inquiry.pictures.map((p, i) => (
              <View key={p.url} className='inquiry__picture'>
                <Image className='inquiry__thumb' src={p.preview} />
                {!locked && (
                  <View className='inquiry__remove' role='button' aria-label={`删除第${i + 1}张图片`} onClick={() => inquiry.removePicture(i)}>
                    ×
                  </View>
                )}
              </View>
            ))}
            {!locked && inquiry.pictures.length < PICTURES_MAX && (
              <View className='inquiry__picture inquiry__picture--add' role='button' aria-label='添加图片' onClick={() => void inquiry.addPictures()}>
                {inquiry.uploading ? '上传中' : '+'}
              </View>
            )}
          </View>
        </View>

        <View className='inquiry__consent' role='checkbox' aria-checked={inquiry.agreed} onClick={() => !locked && inquiry.setAgreed(!inquiry.agreed)}>
          <View className={`inquiry__tick${inquiry.agreed ? ' inquiry__tick--on' : ''}`} />
          <Text>{CONSENT_TEXT}</Text>
        </View>

        <View className='inquiry__submit'>
          {locked ? (
            <Text className='inquiry__blocker'>问诊已提交，请在30分钟内完成支付</Text>
          ) : (
            inquiry.blocker && <Text className='inquiry__blocker'>{inquiry.blocker}</Text>
          )}
          {locked ? (
            <Button type='primary' block disabled={inquiry.paying} onClick={() => void pay(created)}>
              {inquiry.paying ? '支付中...' : '去支付'}
            </Button>
          ) : (
            <Button type='primary' block disabled={!!inquiry.blocker || inquiry.submitting || inquiry.paying} onClick={submit}>
              {inquiry.submitting ? '提交中...' : price === 0 ? '提交问诊' : '提交并支付'}
            </Button>
          )}
        </View>
      </View>
    )
  }

  return (
    <PageShell title='图文问诊' onReady={load}>
      {body()}
      {modal}
    </PageShell>
  )
}

export default observer(InquiryPage)
