import { useEffect, useRef } from 'react'
import { useDidShow } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Button } from '@/components/Button'
import { openPage } from '@/components/PageShell'
import { useStores } from '@/stores'
import { canEnterRoom } from '@/stores/InquiryStore'
import type { OnlineDoctorInfo } from '../../../types/api/internet'
import { inquiryDetailUrl, inquiryUrl, noticeUrl, renewalUrl, roomUrl } from '@/pageUrls'
import { useDoctorStore } from '@/stores/DoctorStore'

/**
 * The doctor's home's foot: 图文问诊 and 复诊续方; or, when the patient already has a consultation with this doctor that is
 * not over (POST /im/core/orderByDoctorAndUserId), 继续问诊 into its room (继续支付 on its order while it is unpaid)
 * instead of ordering and paying for a second one.
 */
function DoctorActions({ doctor }: { doctor: OnlineDoctorInfo }) {
  const { user } = useStores()
  const store = useDoctorStore()
  // the page read it on opening, before this part was drawn; back from ordering (or from the room) it may have changed
  const drawn = useRef(false)
  useEffect(() => {
    drawn.current = true
  }, [])
  useDidShow(() => {
    if (drawn.current && user.isLoggedIn) void store.loadOpenInquiry(doctor.id)
  })
  const open = store.openInquiryWith(doctor.id)
  const text = doctor.services.find((s) => s.type === 'text') ?? null

  if (open) {
    const room = canEnterRoom(open)
    return (
      <View className='online-doctor__actions online-doctor__actions--open'>
        <View className='online-doctor__open' role='status'>{`您与该医生有一个未结束的${open.serviceName}（${open.statusText}）`}</View>
        <Button type='primary' block onClick={() => openPage(room ? roomUrl(open.doctor.imAccount, open.id) : inquiryDetailUrl(open.id))}>
          {room ? '继续问诊' : '继续支付'}
        </Button>
      </View>
    )
  }
  return (
    <View className='online-doctor__actions'>
      <Button type='primary' block disabled={!text || !doctor.online} onClick={() => openPage(inquiryUrl(doctor.id))}>
        图文问诊
      </Button>
      {/* 复诊续方 goes through 问诊须知: online consultations are for follow-up visits */}
      <Button block disabled={!text || !doctor.online} onClick={() => openPage(noticeUrl(renewalUrl(doctor.id)))}>
        复诊续方
      </Button>
    </View>
  )
}

export default observer(DoctorActions)
