import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import ActionBar from '@/components/ActionBar'
import { Button } from '@/components/Button'
import Empty, { Loading, LoadFailed } from '@/components/Empty'
import { HealthToolsStore } from '@/stores/HealthToolsStore'
import { hbQueryOf, HEALTH_TOOL_DISCLAIMER } from '@/utils/healthTools'
import { pathOf } from '@/utils/routeRules'
import { HEPATITIS_TEST_URL } from './urls'
import './hepatitis-result.scss'

/** Back to the form when it is the page below (its choices are still there), else the form in this page's place. */
function testAgain() {
  const below = Taro.getCurrentPages().slice(-2, -1)[0]?.route
  if (below && pathOf(`/${below.replace(/^\//, '')}`) === HEPATITIS_TEST_URL) void Taro.navigateBack()
  else void Taro.redirectTo({ url: HEPATITIS_TEST_URL })
}

/**
 * 乙肝两对半自测结果 (spec §2 /internet/hepatitisTest/hepatitis-result?HBsAg=…): what the five markers mean together,
 * in words (the category is written, not only coloured), with the advice and the disclaimer.
 */
function HepatitisResult() {
  const { params } = useRouter()
  const [tools] = useState(() => new HealthToolsStore())
  const query = hbQueryOf(params)
  const load = () => (query ? tools.hepatitis.load(query).catch(() => undefined) : undefined)
  const result = tools.hepatitis.value

  const body = () => {
    if (!query) return <Empty text='请先选择乙肝两对半五项的结果' action={{ label: '去自测', onTap: () => void Taro.redirectTo({ url: HEPATITIS_TEST_URL }) }} />
    if (tools.hepatitis.state === 'failed') return <LoadFailed onRetry={() => void load()} />
    if (!result) return <Loading />
    return (
      <View className='hb-result'>
        <View className={`hb-result__summary hb-result__summary--${result.category}`}>
          <Text className='hb-result__category'>{result.categoryText}</Text>
          <View className='hb-result__title' role='heading' aria-level={2}>
            {result.title}
          </View>
        </View>

        <View className='hb-result__card'>
          <View className='hb-result__heading' role='heading' aria-level={2}>
            您选择的结果
          </View>
          {result.markers.map((m) => (
            <View key={m.key} className='hb-result__row'>
              <Text className='hb-result__label'>
                {m.name}（{m.abbr}）
              </Text>
              <Text className={`hb-result__value hb-result__value--${m.result}`}>{m.resultText}</Text>
            </View>
          ))}
        </View>

        <View className='hb-result__card'>
          <View className='hb-result__heading' role='heading' aria-level={2}>
            结果解读
          </View>
          <Text className='hb-result__text'>{result.meaning}</Text>
        </View>

        <View className='hb-result__card'>
          <View className='hb-result__heading' role='heading' aria-level={2}>
            建议
          </View>
          {result.advice.map((a, i) => (
            <Text key={a} className='hb-result__advice'>
              {i + 1}. {a}
            </Text>
          ))}
        </View>

        <Text className='hb-result__disclaimer'>{result.disclaimer}。如有不适或疑问，请到医院就诊。</Text>
        <ActionBar>
          <Button type='primary' block onClick={testAgain}>
            重新自测
          </Button>
        </ActionBar>
      </View>
    )
  }

  return (
    <PageShell title='自测结果' onReady={load}>
      {body()}
      {!result && <Text className='hb-result__disclaimer'>{HEALTH_TOOL_DISCLAIMER}</Text>}
    </PageShell>
  )
}

export default observer(HepatitisResult)
