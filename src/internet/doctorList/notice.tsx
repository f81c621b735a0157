import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import PageShell from '@/components/PageShell'
import { PAY_MINUTES, SERVICE_HOURS, WAIT_HOURS } from '@/stores/InquiryStore'
import { noticeContinuation, noticeNext } from '@/stores/FollowUpStore'
import './notice.scss'

/**
 * What an internet consultation is for, under the rules for internet hospitals: follow-up visits of conditions
 * diagnosed offline; emergencies go to 急诊 or 120; prescriptions only after the doctor's review; replies within the
 * service window (InquiryStore WAIT_HOURS, SERVICE_HOURS, PAY_MINUTES, the server's own numbers).
 */
export const NOTICE_SECTIONS: { title: string; lines: string[] }[] = [
  {
    title: '一、服务范围',
    lines: [
      '互联网诊疗仅为已在实体医院明确诊断的常见病、慢性病患者提供复诊服务。',
      '首次就诊（初诊）、尚未明确诊断或病情发生明显变化的，请到医院门诊就诊，线上问诊不能替代面诊。',
    ],
  },
  {
    title: '二、急危重症请勿线上问诊',
    lines: ['如出现胸痛、呼吸困难、大出血、意识不清、抽搐、严重外伤等紧急情况，请立即前往就近医院急诊就诊或拨打120急救电话，不要等待线上回复。'],
  },
  {
    title: '三、处方',
    lines: [
      '处方由医生在了解病情、核对线下诊断和用药情况后开具，经药师审核后方可取药或配送。',
      '医生会根据病情判断是否适合线上开方，必要时建议您到医院就诊；麻醉药品、精神药品等特殊管理药品不在线上开具。',
    ],
  },
  {
    title: '四、服务时间',
    lines: [
      `提交问诊后请在${PAY_MINUTES}分钟内完成支付，超时将自动取消。`,
      `支付后医生将在${WAIT_HOURS}小时内接诊，超时未接诊问诊自动关闭，费用原路退回。`,
      `医生接诊后${SERVICE_HOURS}小时内可与医生图文交流，到期后问诊自动结束。`,
    ],
  },
  {
    title: '五、信息真实与隐私',
    lines: [
      '请如实填写就诊人信息、病情、诊断和用药情况，上传真实的病历和检查资料，因信息不实造成的后果由本人承担。',
      '您的资料仅用于本次诊疗，医院依法保护您的个人信息和隐私。',
    ],
  },
  {
    title: '六、知情同意',
    lines: ['线上问诊无法进行当面查体，医生的意见基于您提供的资料作出。继续即表示您已了解上述内容，自愿接受互联网诊疗服务。'],
  },
]

/** 问诊须知 (spec §2 /internet/doctorList/notice?next=): read, then 我已阅读并同意 continues to `next`. */
export default function NoticePage() {
  const { params } = useRouter()
  const next = noticeNext(params.next)

  const agree = () => {
    if (noticeContinuation(next, Taro.getCurrentPages()) === 'back') void Taro.navigateBack()
    else void Taro.redirectTo({ url: next })
  }

  return (
    <PageShell title='问诊须知'>
      <View className='notice'>
        <View className='notice__card'>
          {NOTICE_SECTIONS.map((s) => (
            <View key={s.title} className='notice__section'>
              <Text className='notice__title'>{s.title}</Text>
              {s.lines.map((line) => (
                <Text key={line} className='notice__line'>
                  {line}
                </Text>
              ))}
            </View>
          ))}
        </View>
        <View className='notice__actions'>
          <Button type='primary' block onClick={agree}>
            我已阅读并同意
          </Button>
        </View>
      </View>
    </PageShell>
  )
}
