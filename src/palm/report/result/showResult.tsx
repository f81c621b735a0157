import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { flagText } from '@/utils/reportRules'
import { labTrendUrl } from '@/pageUrls'
import ReportHead from '../ReportHead'
import FhirExport from '../FhirExport'
import '../report.scss'
import { useReportStore } from '@/stores/ReportStore'

/**
 * 检验报告单 (spec §2 /palm/report/result/showResult?id=): each item with its value, unit and reference range; an
 * abnormal one says ↑ 偏高 / ↓ 偏低 in words beside the colour. An item with a number opens its trend; what a screen
 * reader says of it is what the row shows.
 */
function ShowResult() {
  const reports = useReportStore()
  const { params } = useRouter()
  const id = Number(params.id)
  const r = reports.lab.value?.id === id ? reports.lab.value : null
  const load = async () => {
    if (id > 0) await reports.lab.load(id).catch(() => undefined)
  }
  const body = () => {
    if (!(id > 0)) return <Empty text='未找到该报告' />
    if (!r && reports.lab.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!r) return <Loading />
    const abnormal = r.items.filter((i) => i.flag === 'H' || i.flag === 'L').length
    return (
      <View>
        <ReportHead r={r} extra={[['标本', r.specimen]]} />
        <View className='lab-items'>
          <Text className='lab-items__title'>{abnormal ? `检验结果（异常 ${abnormal} 项）` : '检验结果（均在参考范围内）'}</Text>
          {r.items.map((item) => {
            const flag = flagText(item.flag)
            const trend = item.flag !== ''
            const content = (
              <>
                <View className='lab-item__top'>
                  <Text className='lab-item__name'>{item.name}</Text>
                  <Text className={`lab-item__value lab-item__value--${item.flag || 'none'}`}>
                    {item.value}
                    {item.unit ? ` ${item.unit}` : ''}
                  </Text>
                </View>
                <View className='lab-item__bottom'>
                  <Text>{item.range ? `参考范围 ${item.range}` : '无参考范围'}</Text>
                  <View className='lab-item__marks'>
                    {flag && <Text className='lab-item__flag'>{flag}</Text>}
                    {trend && <Text className='lab-item__trend'>查看趋势</Text>}
                  </View>
                </View>
              </>
            )
            return trend ? (
              <Tappable key={item.code} className='lab-item' onTap={() => void Taro.navigateTo({ url: labTrendUrl(r.id, item.code) })}>
                {content}
              </Tappable>
            ) : (
              <View key={item.code} className='lab-item'>
                {content}
              </View>
            )
          })}
        </View>
        <FhirExport />
      </View>
    )
  }
  return (
    <PageShell title='检验报告单' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(ShowResult)
