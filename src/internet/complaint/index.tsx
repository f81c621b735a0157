import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import CountedTextarea from '@/components/CountedTextarea'
import { COMPLAINT_MAX } from '@/stores/InquiryStore'
import { toastSuccess } from '@/ui/feedback'
import { localTime } from '@/utils/register'
import './index.scss'
import { useInquiryStore } from '@/stores/InquiryStore'

/**
 * 投诉 (spec §2 /internet/complaint/index?id=): one complaint about a paid consultation; once sent the page goes back
 * to the consultation, which shows it. A consultation complained about already shows what was sent.
 */
function Complaint() {
  const inquiry = useInquiryStore()
  const { params } = useRouter()
  const id = Number(params.id) || 0
  const i = inquiry.detail.value?.id === id ? inquiry.detail.value : null
  const [text, setText] = useState('')

  // from the detail page the inquiry is known already
  const load = () => (id && !i ? inquiry.loadDetail(id).catch(() => undefined) : undefined)

  const submit = async () => {
    const after = await inquiry.complain(id, text).catch(() => null)
    if (!after) return
    toastSuccess('投诉已提交')
    void Taro.navigateBack()
  }

  const body = () => {
    if (!id) return <Empty text='未找到该问诊' />
    if (!i && inquiry.detail.state === 'failed') return <LoadFailed onRetry={() => void inquiry.loadDetail(id).catch(() => undefined)} />
    if (!i) return <Loading />
    const about = (
      <View className='complaint__card'>
        <Text className='complaint__heading'>投诉对象</Text>
        <Text className='complaint__line'>
          {i.doctor.doctorName} {i.doctor.title} · {i.doctor.deptName}
        </Text>
        <Text className='complaint__line'>
          {i.serviceName} · 问诊单号 {i.inquiryNo}
        </Text>
      </View>
    )
    if (i.complaint) {
      return (
        <View className='complaint'>
          {about}
          <View className='complaint__card'>
            <Text className='complaint__heading'>我的投诉</Text>
            <Text className='complaint__text'>{i.complaint.content}</Text>
            <Text className='complaint__note'>{localTime(i.complaint.time)} 已提交，我们会尽快核实处理</Text>
          </View>
        </View>
      )
    }
    if (!i.paidAt) return <Empty text='未支付的问诊无法投诉' />
    return (
      <View className='complaint'>
        {about}
        <View className='complaint__card'>
          <Text className='complaint__heading'>投诉内容</Text>
          <CountedTextarea
            className='complaint__textarea'
            value={text}
            max={COMPLAINT_MAX}
            placeholder='请描述您遇到的问题，我们会尽快核实处理'
            label='投诉内容'
            onInput={(v) => setText(v.slice(0, COMPLAINT_MAX))}
          />
          <Text className='complaint__note'>每次问诊只能投诉一次，提交后不可修改</Text>
        </View>
        <View className='complaint__actions'>
          <Button type='primary' block disabled={inquiry.complaint.busy} onClick={() => void submit()}>
            提交投诉
          </Button>
        </View>
      </View>
    )
  }

  return (
    <PageShell title='投诉' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(Complaint)
