import { useEffect } from 'react'
import { useRouter } from '@tarojs/taro'
import { View, Text, Canvas } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import UCharts from '@qiun/ucharts'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading } from '@/components/Empty'
import { flagText, trendAxis, trendLabel } from '@/utils/reportRules'
import { localTime } from '@/utils/register'
import type { LabTrend } from '../../../../types/api/report'
import { chartCanvas } from './chartCanvas'
import './index.scss'
import { useReportStore } from '@/stores/ReportStore'

const CANVAS_ID = 'lab-trend-chart'

/** Draws the line, the range's ends as dashed lines; the list under it says the same in words. */
async function draw(trend: LabTrend) {
  const surface = await chartCanvas(CANVAS_ID)
  if (!surface) return
  const values = trend.points.map((p) => p.value)
  const axis = trendAxis(values, trend.low, trend.high)
  const marks = [trend.low, trend.high].filter((v): v is number => v !== null).map((value) => ({ value, lineColor: '#9aa4b2', showLabel: true, labelText: String(value) }))
  new UCharts({
    type: 'line',
    context: surface.context,
    width: surface.width * surface.ratio,
    height: surface.height * surface.ratio,
    pixelRatio: surface.ratio,
    categories: trend.points.map((p) => trendLabel(p.reportedAt)),
    series: [{ name: trend.name, data: values, color: '#1a7f64' }],
    animation: false,
    background: '#FFFFFF',
    padding: [16, 16, 8, 8],
    dataLabel: true,
    legend: { show: false },
    xAxis: { disableGrid: true },
    yAxis: { data: [{ min: axis.min, max: axis.max }], gridType: 'dash' },
    extra: { line: { type: 'straight', width: 2 }, markLine: { type: 'dash', dashLength: 4, data: marks } },
  })
}

/**
 * 指标趋势 (?id=&code=): one lab item across the patient's reports, oldest first, as a line chart with its reference
 * range, and the same values as a list in words for a screen reader (the chart is a picture).
 */
function LabTrendPage() {
  const reports = useReportStore()
  const { params } = useRouter()
  const id = Number(params.id)
  const code = params.code ? decodeURIComponent(params.code) : ''
  const t = reports.trend.value && reports.trend.value.code === code ? reports.trend.value : null
  const load = async () => {
    if (id > 0 && code) await reports.trend.load(id, code).catch(() => undefined)
  }
  useEffect(() => {
    if (t && t.points.length > 1) void draw(t).catch(() => undefined)
  }, [t])

  const body = () => {
    if (!(id > 0) || !code) return <Empty text='未找到该检验项目' />
    if (!t && reports.trend.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!t) return <Loading />
    return (
      <View>
        <View className='lab-trend'>
          <View className='lab-trend__title' role='heading' aria-level={1}>
            {`${t.name}${t.unit ? `（${t.unit}）` : ''}`}
          </View>
          <Text className='lab-trend__range'>{t.range ? `参考范围 ${t.range}，图中虚线为参考范围上下限` : '无参考范围'}</Text>
          {t.points.length > 1 ? (
            <Canvas type='2d' id={CANVAS_ID} canvasId={CANVAS_ID} className='lab-trend__chart' aria-hidden='true' />
          ) : (
            <Text className='lab-trend__note'>仅有一次检验结果，暂无趋势</Text>
          )}
        </View>
        <View className='lab-trend__table'>
          <Text className='lab-trend__table-title'>{`历次结果（共 ${t.points.length} 次）`}</Text>
          {[...t.points].reverse().map((p) => (
            <View key={p.reportId} className='lab-trend__row'>
              <Text className='lab-trend__date'>{localTime(p.reportedAt).slice(0, 10)}</Text>
              <Text className={`lab-trend__value lab-trend__value--${p.flag || 'none'}`}>{`${p.value}${t.unit ? ` ${t.unit}` : ''}`}</Text>
              <Text className={`lab-trend__flag lab-trend__flag--${p.flag || 'none'}`}>{flagText(p.flag) || (p.flag === 'N' ? '正常' : '')}</Text>
            </View>
          ))}
        </View>
      </View>
    )
  }
  return (
    <PageShell title='指标趋势' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(LabTrendPage)
