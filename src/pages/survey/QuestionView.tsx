import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Check, Star } from '@nutui/icons-react-taro'
import CountedTextarea from '@/components/CountedTextarea'
import Tappable from '@/components/Tappable'
import { questionLabel, type SurveyForm } from '@/stores/SurveyForm'
import { SURVEY_RATING_MAX, SURVEY_RATING_TEXT } from '@/utils/surveyRules'
import type { SurveyQuestion } from '../../../types/api/survey'

const KIND_TEXT = { single: '单选', multiple: '多选', rating: '评分', text: '填空' } as const

/** One question of the form: radios, checkboxes, five named stars, or words with their count. */
function QuestionView({ form, q }: { form: SurveyForm; q: SurveyQuestion }) {
  const label = `${questionLabel(form.questions, q)} ${q.title}`
  const headingId = `survey-q-${q.id}`
  const chosen = form.options[q.id] ?? []
  const stars = form.ratings[q.id] ?? 0
  return (
    <View className='survey__card survey-question'>
      <View className='survey-question__head' id={headingId}>
        <Text className='survey-question__title'>{label}</Text>
        <Text className='survey-question__kind'>{`${KIND_TEXT[q.kind]}${q.required ? '·必答' : '·选填'}`}</Text>
      </View>
      {(q.kind === 'single' || q.kind === 'multiple') && (
        <View className='survey-question__options' role={q.kind === 'single' ? 'radiogroup' : 'group'} aria-labelledby={headingId}>
          {q.options.map((o) => {
            const on = chosen.includes(o.id)
            return (
              <Tappable key={o.id} role={q.kind === 'single' ? 'radio' : 'checkbox'} checked={on} row className={`survey-option${on ? ' survey-option--on' : ''}`} onTap={() => form.pick(q, o.id)}>
                <View className={`survey-option__box survey-option__box--${q.kind}`} aria-hidden='true'>
                  {on && <Check size={14} />}
                </View>
                <Text>{o.text}</Text>
              </Tappable>
            )
          })}
        </View>
      )}
      {q.kind === 'rating' && (
        <View>
          <View className='survey-question__stars' role='radiogroup' aria-labelledby={headingId}>
            {Array.from({ length: SURVEY_RATING_MAX }, (_, i) => i + 1).map((n) => (
              <Tappable key={n} role='radio' label={`${n}星 ${SURVEY_RATING_TEXT[n]}`} checked={stars === n} className={`survey-star${n <= stars ? ' survey-star--on' : ''}`} onTap={() => form.rate(q, n)}>
                <Star size={28} />
              </Tappable>
            ))}
          </View>
          <Text className='survey-question__score'>{stars ? SURVEY_RATING_TEXT[stars] : '请点击星星评分'}</Text>
        </View>
      )}
      {q.kind === 'text' && (
        <CountedTextarea
          className='survey-question__textarea'
          value={form.texts[q.id] ?? ''}
          max={q.maxLength}
          placeholder={q.required ? '请填写' : '请填写（选填）'}
          label={label}
          onInput={(v) => form.write(q, v)}
        />
      )}
    </View>
  )
}

export default observer(QuestionView)
