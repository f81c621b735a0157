import { useEffect, useId, type ReactNode } from 'react'
import { observer } from 'mobx-react-lite'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import ActionBar from '@/components/ActionBar'
import { Button } from '@/components/Button'

import CountedTextarea from '@/components/CountedTextarea'
import PatientPicker from '@/components/PatientPicker'
import { INCOMPLETE_TEXT, usePatientCompletion } from '@/components/PatientCompletion'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { PICTURES_MAX } from '@/stores/InquiryForm'
import type { PictureList } from '@/stores/base/PictureList'
import PicturePicker from '@/components/PicturePicker'
import { inquiryPrice } from '@/stores/InquiryStore'

import { assetUrl } from '@/ui/assets'
import { ApiError } from '@/services/request'
import { toastError } from '@/ui/feedback'
import { pathOf } from '@/utils/routeRules'
import { yuan } from '@/utils/register'
import type { Inquiry } from '../../../../types/api/inquiry'
import type { Patient } from '../../../../types/api/patient'
import './index.scss'
import { inquiryDetailUrl, noticeUrl, CHOOSE_PATIENT_URL } from '@/pageUrls'
import { usePatientStore } from '@/stores/PatientStore'
import { useInquiryStore } from '@/stores/InquiryStore'

/** The doctor the form is for, with the service and its price. */
export function DoctorHeader(p: {
  doctor: { avatar: string; doctorName: string; title: string; hospitalName: string; deptName: string }
  service: string
  priceFen: number | null
}) {
  const { doctor } = p
  return (
    <View className='inquiry__doctor'>
      <Image className='inquiry__avatar' src={assetUrl(doctor.avatar)} aria-hidden='true' />
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
        <Text className='inquiry__service-name'>{p.service}</Text>
        <Text className='inquiry__price'>{p.priceFen === null ? '暂未开通' : inquiryPrice(p.priceFen)}</Text>
      </View>
    </View>
  )
}

/** A card of the form with its heading (and what goes beside the heading). */
export function FormCard({ title, extra, children }: { title: string; extra?: ReactNode; children?: ReactNode }) {
  return (
    <View className='inquiry__card'>
      {extra ? (
        <View className='inquiry__head'>
          <Text className='inquiry__heading'>{title}</Text>
          {extra}
        </View>
      ) : (
        <Text className='inquiry__heading'>{title}</Text>
      )}
      {children}
    </View>
  )
}

/** 就诊人, with 管理 (the patient list) beside the heading until the inquiry is ordered. */
export function PatientField({ locked, onChoose }: { locked: boolean; onChoose: (p: Patient) => void }) {
  const manage = !locked && (
    <Tappable inline className='inquiry__link' onTap={() => void Taro.navigateTo({ url: CHOOSE_PATIENT_URL })}>
      管理
    </Tappable>
  )
  return (
    <FormCard title='就诊人' extra={manage}>
      <PatientPicker onChoose={onChoose} />
    </FormCard>
  )
}

/** The illness in words, with its counter. */
export function DescriptionField(p: { title: string; value: string; max: number; placeholder: string; locked: boolean; onInput: (text: string) => void }) {
  return (
    <FormCard title={p.title}>
      <CountedTextarea className='inquiry__textarea' value={p.value} max={p.max} disabled={p.locked} placeholder={p.placeholder} label={p.title} onInput={p.onInput} />
    </FormCard>
  )
}

/** 图片资料: up to 9 pictures, each removable until the inquiry is ordered. */
export function PictureField({ photos, locked }: { photos: PictureList; locked: boolean }) {
  return (
    <FormCard title='图片资料'>
      <Text className='inquiry__note'>检查报告、患处照片等，最多{PICTURES_MAX}张，仅医生可见</Text>
      <PicturePicker photos={photos} locked={locked} />
    </FormCard>
  )
}

/** Parameters Taro's H5 router adds to every page. */
const ROUTER_PARAMS = ['$taroTimestamp', 'stamp']

/** The page on show as a URL, for the notice to come back to. */
function useCurrentUrl() {
  const { path, params } = useRouter()
  const query = Object.entries(params)
    .filter(([k, v]) => v !== undefined && !ROUTER_PARAMS.includes(k))
    .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`)
    .join('&')
  return `${pathOf(path)}${query ? `?${query}` : ''}`
}

/**
 * The consent line; its 《互联网诊疗知情同意书》 opens 问诊须知, which comes back here. The tick and its words are the
 * checkbox and the title is a link beside it (a link inside a checkbox cannot be reached); the checkbox is named by
 * both, so a screen reader says what is agreed to.
 */
export function ConsentLine({ agreed, locked, onToggle }: { agreed: boolean; locked: boolean; onToggle: (on: boolean) => void }) {
  const here = useCurrentUrl()
  const id = useId().replace(/:/g, '')
  return (
    <View className='inquiry__consent'>
      <Tappable row role='checkbox' checked={agreed} disabled={locked} labelledBy={`${id}-agree ${id}-title`} onTap={() => onToggle(!agreed)}>
        <View className={`inquiry__tick${agreed ? ' inquiry__tick--on' : ''}`} />
        <Text id={`${id}-agree`}>我已阅读并同意</Text>
      </Tappable>
      <Tappable row className='inquiry__consent-link' role='link' onTap={() => void Taro.navigateTo({ url: noticeUrl(here) })}>
        <Text id={`${id}-title`}>《互联网诊疗知情同意书》</Text>
      </Tappable>
      <SupervisionNote />
    </View>
  )
}

/** Tells the patient, before consenting, that the consultation's records go to the regulator's platform (if any). */
const SupervisionNote = observer(function SupervisionNote() {
  const { hospital } = useStores()
  const code = hospital.hospital?.hospitalCode
  useEffect(() => {
    if (code) void hospital.supervision.load(code).catch(() => undefined)
  }, [code, hospital])
  const s = hospital.supervision.value
  if (!s?.supervised) return null
  return <Text className='inquiry__supervision'>{`本院互联网诊疗服务接受${s.platformName}监管，本次问诊的病历和处方将按规定上传。`}</Text>
})

/** The bottom of a form, in the action bar: the fee, why it cannot go yet, then 提交 (or 去支付 once ordered and unpaid). */
export function SubmitBar(p: {
  created: Inquiry | null
  blocker: string | null
  submitting: boolean
  paying: boolean
  /** The consultation's fee before ordering (once ordered, the order's own); free or not yet known shows no amount. */
  priceFen?: number | null
  label: string
  onSubmit: () => void
  onPay: (made: Inquiry) => void
}) {
  const { created } = p
  const fen = created ? created.priceFen : p.priceFen
  return (
    <ActionBar amount={fen ? { label: '应付', value: yuan(fen) } : undefined} note={created ? '问诊已提交，请在30分钟内完成支付' : p.blocker}>
      {created ? (
        <Button type='primary' block disabled={p.paying} onClick={() => p.onPay(created)}>
          {p.paying ? '支付中...' : '去支付'}
        </Button>
      ) : (
        <Button type='primary' block disabled={!!p.blocker || p.submitting || p.paying} onClick={p.onSubmit}>
          {p.submitting ? '提交中...' : p.label}
        </Button>
      )}
    </ActionBar>
  )
}

/**
 * The ordering flow the inquiry forms share: choosing a patient and submitting both need a complete one (spec §5
 * modal, also when the server says so), then the inquiry is paid through the payment core (InquiryStore.pay) and its
 * detail follows; a free one goes to its detail at once. Render `modal` once in the page.
 */
export function useInquiryFlow(order: () => Promise<Inquiry | null>, locked: boolean) {
  const inquiry = useInquiryStore()
  const patients = usePatientStore()
  const { requireComplete, showFor, modal } = usePatientCompletion()

  const pay = async (made: Inquiry) => {
    // a free consultation is waiting for the doctor at once
    if (made.status !== 'unpaid') return void Taro.redirectTo({ url: inquiryDetailUrl(made.id) })
    const outcome = await inquiry.pay(made.id).catch(() => 'failed' as const)
    if (outcome === 'paid') void Taro.redirectTo({ url: inquiryDetailUrl(made.id) })
    else if (outcome === 'cancelled') toastError('支付已取消，请在30分钟内完成支付')
  }

  const choose = (p: Patient) => {
    if (locked) return
    requireComplete(p, () => patients.choose(p))
  }

  const submit = () => {
    const current = patients.current
    if (!current) return
    requireComplete(current, () => {
      order()
        .then((made) => (made ? pay(made) : undefined))
        .catch((e: unknown) => {
          // spec §5: the server says the patient is incomplete (the list here was out of date)
          if (e instanceof ApiError && e.message === INCOMPLETE_TEXT) showFor(current)
        })
    })
  }

  return { choose, submit, pay, modal }
}
