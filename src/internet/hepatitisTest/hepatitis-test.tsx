import { useState } from 'react'
import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import PageShell from '@/components/PageShell'
import ActionBar from '@/components/ActionBar'
import { Button } from '@/components/Button'
import { Choice, FormField, FormGroup } from '@/components/FormField'
import { HB_MARKERS, HEALTH_TOOL_DISCLAIMER, RESULT_WORDS } from '@/utils/healthTools'
import type { HbMarker, HbSurveyQuery, MarkerResult } from '../../../types/api/healthTools'
import { hepatitisResultUrl } from './urls'
import './hepatitis-test.scss'

/** The two answers of each marker, in words with their sign (阴性（-） / 阳性（+）), as lab sheets print them. */
const OPTIONS: MarkerResult[] = ['negative', 'positive']
const resultOf = (words: string) => OPTIONS.find((r) => RESULT_WORDS[r] === words)!

/**
 * 乙肝两对半自测 (spec §2 /internet/hepatitisTest/hepatitis-test): the patient copies the five markers off the lab
 * sheet, each 阴性 or 阳性, and 查看解读 opens the interpretation with the five in its address.
 */
export default function HepatitisTest() {
  const [chosen, setChosen] = useState<Partial<HbSurveyQuery>>({})
  const missing = HB_MARKERS.find((m) => !chosen[m.key])
  const choose = (key: HbMarker, words: string) => setChosen((c) => ({ ...c, [key]: resultOf(words) }))

  const submit = () => {
    if (!missing) void Taro.navigateTo({ url: hepatitisResultUrl(chosen as HbSurveyQuery) })
  }

  return (
    <PageShell title='乙肝两对半自测'>
      <View className='hb-test'>
        <View className='hb-test__intro'>
          <Text className='hb-test__intro-title'>对照检验单，选择每一项的结果</Text>
          <Text className='hb-test__intro-text'>
            乙肝两对半也叫乙肝五项。检验单上一般标有“阳性（+）”或“阴性（-）”；只有数值时，请对照检验单上的参考值判断，拿不准的请咨询医生。
          </Text>
        </View>
        <FormGroup title='乙肝两对半（乙肝五项）'>
          {HB_MARKERS.map((m) => {
            const label = `${m.name}（${m.abbr}）`
            const value = chosen[m.key]
            return (
              <FormField key={m.key} label={label}>
                <Choice label={label} options={OPTIONS.map((r) => RESULT_WORDS[r])} value={value ? RESULT_WORDS[value] : ''} onChange={(w) => choose(m.key, w)} />
              </FormField>
            )
          })}
        </FormGroup>
        <Text className='hb-test__disclaimer'>{HEALTH_TOOL_DISCLAIMER}。自测只能帮助您读懂检验单，是否感染、是否需要治疗，请以医生的判断为准。</Text>
        <ActionBar note={missing ? `请选择${missing.name}（${missing.abbr}）的结果` : null}>
          <Button type='primary' block disabled={!!missing} onClick={submit}>
            查看解读
          </Button>
        </ActionBar>
      </View>
    </PageShell>
  )
}
