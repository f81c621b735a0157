import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { Button } from '@/components/Button'
import { Loading, LoadFailed } from '@/components/Empty'
import { Choice, FormField, FormGroup } from '@/components/FormField'
import { HealthToolsStore } from '@/stores/HealthToolsStore'
import { ABO_LABEL, ABO_TYPES, HEALTH_TOOL_DISCLAIMER, RH_LABEL, RH_TYPES } from '@/utils/healthTools'
import type { AboType, BabyBloodQuery, BloodChance, RhType } from '../../../types/api/healthTools'
import './index.scss'

type Parent = 'father' | 'mother'
type Choices = Partial<Record<`${Parent}Abo`, AboType> & Record<`${Parent}Rh`, RhType>>

const PARENTS: { key: Parent; name: string }[] = [
  { key: 'father', name: '爸爸' },
  { key: 'mother', name: '妈妈' },
]

const aboOf = (label: string) => ABO_TYPES.find((t) => ABO_LABEL[t] === label)!
const rhOf = (label: string) => RH_TYPES.find((t) => RH_LABEL[t] === label)!

/** What is still to choose, as the note under the button says it; null when all four are chosen. */
function missingOf(c: Choices): string | null {
  for (const p of PARENTS) {
    if (!c[`${p.key}Abo`]) return `请选择${p.name}的ABO血型`
    if (!c[`${p.key}Rh`]) return `请选择${p.name}的Rh血型`
  }
  return null
}

/** One type the child may have: its name, its likelihood in words, and a bar that only repeats the words. */
function ChanceRow<T extends string>({ chance }: { chance: BloodChance<T> }) {
  return (
    <View className={`baby-blood__chance${chance.possible ? '' : ' baby-blood__chance--never'}`}>
      <View className='baby-blood__chance-line'>
        <Text className='baby-blood__chance-type'>{chance.label}</Text>
        <Text className='baby-blood__chance-text'>{chance.possible ? `可能，${chance.percentText}` : '不可能'}</Text>
      </View>
      <View className='baby-blood__bar' aria-hidden>
        <View className='baby-blood__bar-fill' style={{ width: `${Math.round(chance.probability * 100)}%` }} />
      </View>
    </View>
  )
}

/**
 * 宝宝血型 (spec §2 /internet/babyBlood/index): both parents' ABO and Rh types in, the child's possible types out with
 * their likelihoods (Mendelian inheritance, src/utils/healthTools.ts), what the estimate assumes, and the notes that
 * matter for these parents (an Rh-negative mother, an O mother).
 */
function BabyBlood() {
  const [tools] = useState(() => new HealthToolsStore())
  const [choices, setChoices] = useState<Choices>({})
  const missing = missingOf(choices)
  const answer = tools.babyBlood

  const choose = <K extends keyof Choices>(key: K, value: Choices[K]) => {
    setChoices((c) => ({ ...c, [key]: value }))
    // a result for other parents must not stay on show
    answer.reset()
  }
  const compute = () => {
    if (!missing) void answer.load(choices as BabyBloodQuery).catch(() => undefined)
  }

  const result = answer.value
  const possibleAbo = result?.abo.filter((c) => c.possible).map((c) => c.label) ?? []
  const possibleRh = result?.rh.filter((c) => c.possible).map((c) => c.label) ?? []

  return (
    <PageShell title='宝宝血型'>
      <View className='baby-blood'>
        <View className='baby-blood__intro'>
          <Text className='baby-blood__intro-title'>宝宝可能是什么血型？</Text>
          <Text className='baby-blood__intro-text'>选择爸爸和妈妈的ABO血型和Rh血型，按遗传规律估算宝宝可能的血型。</Text>
        </View>

        {PARENTS.map((p) => (
          <FormGroup key={p.key} title={p.name}>
            <FormField label='ABO血型'>
              <Choice
                label={`${p.name}的ABO血型`}
                options={ABO_TYPES.map((t) => ABO_LABEL[t])}
                value={choices[`${p.key}Abo`] ? ABO_LABEL[choices[`${p.key}Abo`]!] : ''}
                onChange={(label) => choose(`${p.key}Abo`, aboOf(label))}
              />
            </FormField>
            <FormField label='Rh血型'>
              <Choice
                label={`${p.name}的Rh血型`}
                options={RH_TYPES.map((t) => RH_LABEL[t])}
                value={choices[`${p.key}Rh`] ? RH_LABEL[choices[`${p.key}Rh`]!] : ''}
                onChange={(label) => choose(`${p.key}Rh`, rhOf(label))}
              />
            </FormField>
          </FormGroup>
        ))}
        <Text className='baby-blood__hint'>我国约99.7%的人是Rh阳性。不清楚自己的血型时，请以验血结果为准。</Text>

        <View className='baby-blood__action'>
          {missing && (
            <View className='baby-blood__missing' role='status'>
              {missing}
            </View>
          )}
          <Button type='primary' block disabled={!!missing} loading={answer.state === 'loading'} onClick={compute}>
            查看宝宝可能的血型
          </Button>
        </View>

        {answer.state === 'loading' && <Loading />}
        {answer.state === 'failed' && <LoadFailed onRetry={compute} />}
        {result && (
          <View className='baby-blood__result'>
            <View className='baby-blood__summary' role='status'>
              宝宝可能是{possibleAbo.join('、')}，{possibleRh.join('或')}
            </View>
            <View className='baby-blood__card'>
              <View className='baby-blood__heading' role='heading' aria-level={2}>
                宝宝的ABO血型
              </View>
              {result.abo.map((c) => (
                <ChanceRow key={c.type} chance={c} />
              ))}
            </View>
            <View className='baby-blood__card'>
              <View className='baby-blood__heading' role='heading' aria-level={2}>
                宝宝的Rh血型
              </View>
              {result.rh.map((c) => (
                <ChanceRow key={c.type} chance={c} />
              ))}
            </View>
            <View className='baby-blood__card'>
              <View className='baby-blood__heading' role='heading' aria-level={2}>
                说明
              </View>
              <Text className='baby-blood__text'>{result.assumption}</Text>
              {result.notes.map((n) => (
                <Text key={n} className='baby-blood__text'>
                  {n}
                </Text>
              ))}
            </View>
          </View>
        )}
        <Text className='baby-blood__disclaimer'>{HEALTH_TOOL_DISCLAIMER}。宝宝的血型以出生后验血结果为准。</Text>
      </View>
    </PageShell>
  )
}

export default observer(BabyBlood)
