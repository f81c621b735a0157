import { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { LoadFailed, Loading } from '@/components/Empty'
import { Button } from '@/components/Button'
import { localTime } from '@/utils/register'
import { usePhysical } from '../../../pages/order/physical/usePhysical'
import type { PhysicalFinding } from '../../../../types/api/physical'
import './index.scss'

/** Findings grouped by department, in the report's order. */
function byDept(findings: PhysicalFinding[]): [string, PhysicalFinding[]][] {
  const groups = new Map<string, PhysicalFinding[]>()
  for (const f of findings) groups.set(f.dept, [...(groups.get(f.dept) ?? []), f])
  return [...groups]
}

/**
 * 体检报告详情 (spec §2 /palm/report/physical/info): the summary, each department's findings (what needs attention
 * said in words, not colour alone), the chief doctor's conclusion and advice; 查看PDF报告 opens the centre's PDF.
 */
function PhysicalReportInfo() {
  const store = usePhysical()
  const { params } = useRouter()
  const ref = store.refOf(Number(params.patientId), params.examNo ?? '')
  const load = () => store.report.load(ref).catch(() => undefined)
  const r = store.report.value

  const body = () => {
    if (!r && store.report.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!r) return <Loading />
    return (
      <View className='physical-report'>
        <View className='physical-report__card'>
          <Text className='physical-report__name'>{r.packageName}</Text>
          <Text className='physical-report__line'>
            {r.patientName} · {r.sexText} · {r.age}岁
          </Text>
          <Text className='physical-report__line'>体检编号：{r.examNo}</Text>
          <Text className='physical-report__line'>体检日期：{r.examDate}</Text>
          <Text className='physical-report__line'>报告时间：{localTime(r.reportedAt)}</Text>
        </View>
        <View className='physical-report__card'>
          <Text className='physical-report__heading'>体检结果汇总</Text>
          {r.summary.map((s) => (
            <Text key={s} className='physical-report__summary'>
              {s}
            </Text>
          ))}
        </View>
        <View className='physical-report__card'>
          <Text className='physical-report__heading'>各科检查结果</Text>
          {byDept(r.findings).map(([dept, list]) => (
            <View key={dept}>
              <Text className='physical-report__dept'>{dept}</Text>
              {list.map((f) => (
                <Text key={f.item} className={`physical-report__finding${f.abnormal ? ' physical-report__finding--abnormal' : ''}`}>
                  {f.abnormal ? '【异常】' : ''}
                  {f.item}：{f.result}
                </Text>
              ))}
            </View>
          ))}
        </View>
        <View className='physical-report__card'>
          <Text className='physical-report__heading'>主检结论</Text>
          <Text className='physical-report__summary'>{r.conclusion}</Text>
          {r.advice.map((a) => (
            <Text key={a} className='physical-report__summary'>
              · {a}
            </Text>
          ))}
          <Text className='physical-report__line'>{r.chiefDoctor}</Text>
        </View>
        <View className='physical-report__actions'>
          <Button type='primary' block onClick={() => void store.openPdf(ref).catch(() => undefined)}>
            查看PDF报告
          </Button>
        </View>
      </View>
    )
  }

  return (
    <PageShell title='体检报告详情' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(PhysicalReportInfo)
