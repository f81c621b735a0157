import { useEffect, useRef } from 'react'
import Taro, { useDidShow, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import ActionBar from '@/components/ActionBar'
import HoldPay, { HOLD_EXPIRED } from '@/components/HoldPay'
import PatientPicker from '@/components/PatientPicker'

import { usePatientCompletion } from '@/components/PatientCompletion'

import { toastError } from '@/ui/feedback'
import { maskCardNo } from '@/utils/mask'
import { shortDate, yuan } from '@/utils/register'
import type { Patient } from '../../../../types/api/patient'
import { doctorLabel } from '../ScheduleParts'
import Tappable from '@/components/Tappable'
import './index.scss'
import { chsPaymentUrl, detailUrl, CHOOSE_PATIENT_URL } from '@/pageUrls'
import { useRegisterStore } from '@/stores/RegisterStore'
import { usePatientStore } from '@/stores/PatientStore'

/**
 * 确认挂号 (spec §2 /palm/register/confirm/index?scheduleId=): the patient, the time range, the fee after activities,
 * insurance where the hospital settles with it, then the booking; a held slot is paid within its countdown.
 */
function ConfirmRegister() {
  const register = useRegisterStore()
  const patients = usePatientStore()
  const { params } = useRouter()
  const scheduleId = Number(params.scheduleId)
  const { requireComplete, modal } = usePatientCompletion()
  const ready = useRef(false)
  const schedule = register.booking.schedule
  const current = patients.current
  const booked = register.booking.booked
  const rules = register.catalogue.rules.value

  const load = async () => {
    await Promise.all([patients.load().catch(() => undefined), register.booking.openBooking(scheduleId).catch(() => undefined)])
    await register.booking.loadPrice()
    ready.current = true
  }
  // back from choosing, adding or completing a patient
  useDidShow(() => {
    if (ready.current && !register.booking.booked) void patients.load().catch(() => undefined)
  })
  // the fee depends on the patient (e.g. free for the elderly): ask again whenever the patient changes
  useEffect(() => {
    if (ready.current) void register.booking.loadPrice()
  }, [current?.id, register])

  const choose = (p: Patient) => {
    if (booked) return
    requireComplete(p, () => patients.choose(p))
  }

  const submit = () => {
    if (!current) return
    requireComplete(current, () => {
      register.booking
        .submit()
        .then((registration) => {
          // nothing to pay: booked at once, the record shows it; with insurance the split is worked out first
          if (registration?.status === 'booked') void Taro.redirectTo({ url: detailUrl(registration.id, 'confirm') })
          else if (registration?.insurance) void Taro.redirectTo({ url: chsPaymentUrl(registration.id) })
        })
        .catch(() => undefined) // the request layer has shown the server's reason
    })
  }

  const pay = async () => {
    if (!booked) return
    if (booked.insurance) return void Taro.redirectTo({ url: chsPaymentUrl(booked.id) })
    const outcome = await register.booking.pay(booked).catch(() => 'failed' as const)
    if (outcome === 'paid') void Taro.redirectTo({ url: detailUrl(booked.id, 'pay') })
    else if (outcome === 'cancelled') toastError('支付已取消，请在倒计时结束前完成支付')
  }

  const body = () => {
    if (!scheduleId) return <Empty text='未找到该号源' />
    if (register.booking.scheduleState === 'failed' || (register.booking.scheduleState === 'done' && !schedule))
      return (
        <LoadFailed onRetry={() => void load()} />
      )
    if (!schedule) return <Loading />
    const payFen = register.booking.payFen
    const free = payFen === 0
    return (
      <View className='confirm'>
        <View className='confirm__card'>
          <Text className='confirm__dept'>{schedule.deptName}</Text>
          <View className='confirm__line'>
            <Text className='confirm__label'>医生</Text>
            <Text>
              {doctorLabel(schedule)} {schedule.title}
            </Text>
          </View>
          <View className='confirm__line'>
            <Text className='confirm__label'>就诊日期</Text>
            <Text>
              {schedule.visitDate} {schedule.week} {schedule.segmentText}
            </Text>
          </View>
          <View className='confirm__line'>
            <Text className='confirm__label'>号别</Text>
            <Text>{schedule.registerType}</Text>
          </View>
        </View>

        <View className='confirm__card'>
          <View className='confirm__head'>
            <Text className='confirm__heading'>就诊人</Text>
            {!booked && (
              <Tappable inline className='confirm__link' onTap={() => void Taro.navigateTo({ url: CHOOSE_PATIENT_URL })}>
                管理
              </Tappable>
            )}
          </View>
          <PatientPicker onChoose={choose} />
          {current?.hisMedCardNo && <Text className='confirm__note'>就诊卡号：{maskCardNo(current.hisMedCardNo)}</Text>}
        </View>

        <View className='confirm__card'>
          <Text className='confirm__heading'>就诊时段</Text>
          {schedule.timeRanges.length === 0 ? (
            <Text className='confirm__note'>暂无可预约时段</Text>
          ) : (
            <View className='confirm__ranges' role='radiogroup' aria-label='就诊时段'>
              {schedule.timeRanges.map((r) => {
                const on = register.booking.timeRange === r.timeRange
                const full = r.remaining <= 0
                return (
                  <Tappable
                    key={r.timeRange}
                    role='radio'
                    checked={on}
                    disabled={full}
                    className={`confirm__range${on ? ' confirm__range--on' : ''}${full ? ' confirm__range--full' : ''}`}
                    onTap={() => register.booking.chooseTimeRange(r)}
                  >
                    <Text className='confirm__range-time'>{r.timeRange}</Text>
                    <Text className='confirm__range-left'>{full ? '已约满' : `余${r.remaining}`}</Text>
                  </Tappable>
                )
              })}
            </View>
          )}
        </View>

        {rules?.insurance && (
          <View className='confirm__card'>
            <Text className='confirm__heading'>结算方式</Text>
            <View className='confirm__chips' role='radiogroup' aria-label='结算方式'>
              {[
                { on: false, label: '自费' },
                { on: true, label: '医保' },
              ].map((o) => (
                <Tappable
                  key={o.label}
                  role='radio'
                  checked={register.booking.insurance === o.on}
                  className={`confirm__chip${register.booking.insurance === o.on ? ' confirm__chip--on' : ''}`}
                  onTap={() => register.booking.setInsurance(o.on)}
                >
                  {o.label}
                </Tappable>
              ))}
            </View>
            {register.booking.insurance && <Text className='confirm__note'>医保支付部分以医院结算为准，个人自付部分需在线支付</Text>}
          </View>
        )}

        <View className='confirm__card'>
          <View className='confirm__line'>
            <Text className='confirm__label'>挂号费</Text>
            <Text>{yuan(schedule.feeFen)}</Text>
          </View>
          {register.booking.price.value && register.booking.price.value.discountFen > 0 && payFen !== null && (
            <View className='confirm__line'>
              <Text className='confirm__label'>活动优惠</Text>
              <Text className='confirm__discount'>
                -{yuan(register.booking.price.value.discountFen)}
                {register.booking.price.value.activity ? `（${register.booking.price.value.activity}）` : ''}
              </Text>
            </View>
          )}
          <View className='confirm__line'>
            <Text className='confirm__label'>{register.booking.price.value?.activity && payFen !== null ? '活动价' : '合计'}</Text>
            <Text className='confirm__pay'>
              {payFen !== null ? yuan(payFen) : register.booking.price.state === 'failed' ? '获取失败' : current ? '计算中...' : '—'}
            </Text>
          </View>
          {register.booking.price.state === 'failed' && (
            <Tappable inline className='confirm__note confirm__note--warn' onTap={() => void register.booking.loadPrice()}>
              挂号费获取失败，点击重试
            </Tappable>
          )}
          {rules?.cancelRule && <Text className='confirm__note'>取消规则：{rules.cancelRule}</Text>}
        </View>

        {booked && <Text className='confirm__booked-date'>预约号：{booked.regNo} · {shortDate(booked.visitDate)} {booked.timeRange}</Text>}
        {booked ? (
          booked.status === 'holding' ? (
            <HoldPay registration={booked} paying={register.booking.payment.busy} onPay={() => void pay()} onExpire={() => void register.records.loadDetail(booked.id).catch(() => undefined)} />
          ) : (
            <View className='confirm__done'>
              {/* a hold that ran out while the page was open keeps saying why, after the server has closed it */}
              <Text className='confirm__note'>{booked.status === 'expired' ? HOLD_EXPIRED : booked.statusText}</Text>
              <Button type='primary' block onClick={() => void Taro.redirectTo({ url: detailUrl(booked.id, 'confirm') })}>
                查看预约详情
              </Button>
            </View>
          )
        ) : (
          <ActionBar amount={payFen !== null ? { label: '应付', value: yuan(payFen) } : undefined} note={register.booking.blocker}>
            <Button type='primary' block disabled={!!register.booking.blocker || register.booking.attempt.inFlight} onClick={submit}>
              {register.booking.attempt.inFlight ? '提交中...' : free ? '免费预约' : '确认挂号'}
            </Button>
          </ActionBar>
        )}
      </View>
    )
  }

  return (
    <PageShell title='确认挂号' onReady={load}>
      {body()}
      {modal}
    </PageShell>
  )
}

export default observer(ConfirmRegister)
