import { useEffect, useState } from 'react'
import Taro, { useReachBottom } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import Empty, { LoadFailed, NoHospital } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import SmsCodeField from '@/components/SmsCodeField'
import Tappable from '@/components/Tappable'
import { Button } from '@/components/Button'
import { useStores } from '@/stores'
import type { ReportItem } from '@/stores/ReportStore'
import { MSG } from '@/ui/messages'
import { toastError, toastSuccess } from '@/ui/feedback'
import { localTime } from '@/utils/register'
import { PHONE_CODE_LENGTH } from '@/utils/phoneCode'
import { imagingReportUrl, labReportUrl, pacsRedirectUrl, pathologyReportUrl } from '@/pageUrls'
import './ReportList.scss'
import { useReportStore } from '@/stores/ReportStore'
import { usePatientStore } from '@/stores/PatientStore'

/** Where a report in the list opens. */
export function reportUrl(r: ReportItem): string {
  if (r.film) return pacsRedirectUrl(r.id)
  if (r.kind === 'lab') return labReportUrl(r.id)
  if (r.kind === 'imaging') return imagingReportUrl(r.id)
  return pathologyReportUrl(r.id)
}

/** The code a relative's reports wait for, sent to their mobile (masked). */
const VerifyPanel = observer(function VerifyPanel() {
  const reports = useReportStore()
  const [code, setCode] = useState('')
  const check = async () => {
    if (code.length !== PHONE_CODE_LENGTH) return toastError('请输入6位验证码')
    const ok = await reports.checkCode(code).catch(() => false)
    if (ok) toastSuccess('验证成功')
  }
  return (
    <View className='report-verify' role='group' aria-label='短信验证'>
      <Text className='report-verify__title'>查看家人的报告需要短信验证</Text>
      <Text className='report-verify__note'>
        {reports.verify.mobile ? `验证码将发送至就诊人手机 ${reports.verify.mobile}，本次登录内验证一次即可` : '该就诊人未登记手机号，请先完善就诊人信息'}
      </Text>
      {reports.verify.mobile && (
        <>
          <SmsCodeField mobile={reports.verify.mobile} code={code} onCodeChange={setCode} send={() => reports.sendCode()} />
          <Button type='primary' block loading={reports.action.busy} onClick={() => void check()}>
            验证并查看报告
          </Button>
        </>
      )}
    </View>
  )
})

interface Props {
  /** The list is ready to read (the patients are known). */
  ready: boolean
  empty: string
}

/**
 * The chosen patient's reports of the store's kind, newest first, a page at a time (spec §8 加载中... / 没有更多了 /
 * 加载失败): each with its date, department and, in words, whether it is unread and how many items are abnormal.
 */
function ReportList({ ready, empty }: Props) {
  const { hospital } = useStores()
  const patients = usePatientStore()
  const reports = useReportStore()
  const list = reports.list
  useReachBottom(() => void list.loadMore())
  const current = patients.current

  // the first read once the patients are known, then again for another patient
  const currentId = current?.id
  useEffect(() => {
    if (ready) void reports.reload()
  }, [ready, currentId, reports])

  if (!hospital.hospital) return <NoHospital />
  const open = (r: ReportItem) => {
    reports.markRead(r.id)
    void Taro.navigateTo({ url: reportUrl(r) })
  }
  const state = list.state
  return (
    <View className='report-list'>
      <View className='report-list__card'>
        <Text className='report-list__heading'>就诊人</Text>
        <PatientPicker onChoose={(p) => patients.choose(p)} />
      </View>
      {reports.verify.required ? (
        <VerifyPanel />
      ) : list.empty ? (
        <Empty text={empty} />
      ) : list.failedEmpty ? (
        <LoadFailed onRetry={() => void list.loadMore(true)} />
      ) : (
        <View>
          {reports.unread > 0 && <Text className='report-list__summary'>{`未读报告 ${reports.unread} 份`}</Text>}
          {list.items.map((r) => (
            <Tappable key={r.id} className={`report-item${r.unread ? ' report-item--unread' : ''}`} onTap={() => open(r)}>
              <View className='report-item__head'>
                <Text className='report-item__title'>{r.title}</Text>
                {r.unread && <Text className='report-item__unread'>未读</Text>}
              </View>
              <Text className='report-item__line'>{`${r.deptName} · 报告时间 ${localTime(r.reportedAt)}`}</Text>
              {r.abnormalCount > 0 && <Text className='report-item__abnormal'>{`异常 ${r.abnormalCount} 项`}</Text>}
              {r.film && <Text className='report-item__line'>点击查看云影像</Text>}
            </Tappable>
          ))}
          {state !== 'idle' || list.items.length > 0 ? (
            <Tappable className='report-list__more' onTap={() => void list.loadMore(true)}>
              {state === 'loading' ? MSG.listLoading : state === 'done' ? MSG.listNoMore : state === 'failed' ? MSG.listFailed : MSG.loadMore}
            </Tappable>
          ) : null}
        </View>
      )}
    </View>
  )
}

export default observer(ReportList)
