import { useEffect, useRef, useState } from 'react'
import Taro, { useDidHide, useDidShow } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import { useStores } from '@/stores'
import { QueueStore } from '@/stores/QueueStore'
import type { TodayTicket } from '../../../types/api/queue'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'

const STATUS_TEXT: Record<TodayTicket['status'], string> = { waiting: '排队中', called: '已叫号', done: '已完成', cancelled: '已取消' }

/** What the patient is told when their turn is near or has come (read out by a screen reader: role=status). */
function noticeOf(t: TodayTicket): string {
  if (t.status === 'called') return `${t.ticketNo}号已叫号，${t.guide}`
  if (t.ahead === 0) return `${t.ticketNo}号马上就到您了，请到${t.place}${t.window}等候`
  return `${t.ticketNo}号前面还有${t.ahead}人，请到${t.place}${t.window}附近等候`
}

/** A short buzz where the platform has one (a browser without it, or a refused permission, stays silent). */
function buzz() {
  try {
    void Taro.vibrateShort({ type: 'heavy' }).catch(() => undefined)
  } catch {
    // no vibration here
  }
}

function TicketCard({ ticket }: { ticket: TodayTicket }) {
  const called = ticket.status === 'called'
  return (
    <View className={`call-register__card call-register__card--${ticket.status}`} aria-label={`${ticket.place}${ticket.window}，排队号${ticket.ticketNo}`}>
      <View className='call-register__head'>
        <Text className='call-register__heading'>{`${ticket.place} ${ticket.window}`}</Text>
        <Text className={`call-register__status call-register__status--${ticket.status}`}>{STATUS_TEXT[ticket.status]}</Text>
      </View>
      <Text className='call-register__line'>{ticket.location}</Text>
      <View className='call-register__number'>
        <Text className='call-register__label'>排队号</Text>
        <Text className='call-register__ticket'>{ticket.ticketNo}</Text>
      </View>
      {ticket.status === 'waiting' && <Text className='call-register__ahead'>{`前面还有${ticket.ahead}人`}</Text>}
      {(called || ticket.status === 'waiting') && <Text className={`call-register__guide${called ? ' call-register__guide--called' : ''}`}>{ticket.guide}</Text>}
      <Text className='call-register__note'>{`就诊人：${ticket.patientName}`}</Text>
    </View>
  )
}

/**
 * 排队叫号 (spec §2 /palm/callRegister/index): the chosen patient's numbers in today's queues, each with the place and
 * window, the number large, how many wait before it and its status. The numbers move as the windows call (pushed, no
 * polling); three or fewer before the patient, or the number called, is told in words (role=status) and by a buzz.
 */
function CallRegister() {
  const { hospital, user } = useStores()
  const patients = usePatientStore()
  const [store] = useState(() => new QueueStore(() => hospital.hospital?.hospitalCode, patients, () => user.user?.id))
  const [ready, setReady] = useState(false)
  const shownFor = useRef<number | null>(null)
  const buzzed = useRef(new Set<string>())
  const current = patients.current

  const load = async () => {
    await patients.load().catch(() => undefined)
    shownFor.current = patients.current?.id ?? null
    setReady(true)
    await store.subscribe()
  }
  useDidShow(() => {
    if (ready) void store.subscribe()
  })
  useDidHide(() => store.unsubscribe())
  useEffect(() => () => store.unsubscribe(), [store])
  useEffect(() => {
    if (!ready || shownFor.current === (current?.id ?? null)) return
    shownFor.current = current?.id ?? null
    void store.choosePatient()
  }, [current?.id, store, ready])

  const alerts = store.tickets.filter((t) => t.status === 'called' || (t.status === 'waiting' && store.near.includes(t)))
  const alertKey = alerts.map((t) => `${t.orderNo}:${t.ticketNo}:${t.status}`).join(',')
  useEffect(() => {
    const fresh = alertKey.split(',').filter((k) => k && !buzzed.current.has(k))
    if (!fresh.length) return
    fresh.forEach((k) => buzzed.current.add(k))
    buzz()
  }, [alertKey])

  const body = () => {
    if (!current) return null
    const tickets = store.tickets
    if (!tickets.length && store.today.state === 'failed') return <LoadFailed onRetry={() => void store.load()} />
    if (!tickets.length && store.today.state !== 'done') return <Loading />
    if (!tickets.length) return <Empty text='今日暂无排队' />
    return (
      <>
        {tickets.map((t) => (
          <TicketCard key={`${t.orderNo}:${t.ticketNo}`} ticket={t} />
        ))}
        <Text className='call-register__tip'>{store.live ? '叫号后本页会自动更新' : '重新进入本页可查看最新排队情况'}</Text>
      </>
    )
  }

  return (
    <PageShell title='排队叫号' onReady={load}>
      {!hospital.hospital ? (
        <NoHospital />
      ) : (
        <View className='call-register'>
          <View className='call-register__card'>
            <Text className='call-register__heading'>就诊人</Text>
            <PatientPicker onChoose={(p) => patients.choose(p)} />
          </View>
          <View className='call-register__notice' role='status' aria-live='polite'>
            {alerts.map((t) => (
              <Text key={`${t.orderNo}:${t.ticketNo}`} className={`call-register__alert${t.status === 'called' ? ' call-register__alert--called' : ''}`}>
                {noticeOf(t)}
              </Text>
            ))}
          </View>
          {body()}
        </View>
      )}
    </PageShell>
  )
}

export default observer(CallRegister)
