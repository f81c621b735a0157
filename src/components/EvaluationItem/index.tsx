import { View, Text } from '@tarojs/components'
import { localTime } from '@/utils/register'
import type { Evaluation } from '../../../types/api/evaluation'
import './index.scss'

/** A rating as stars out of five (read only). */
export function ScoreStars({ score, max = 5 }: { score: number; max?: number }) {
  return (
    <View className='score-stars' aria-label={`${score}星`}>
      {Array.from({ length: max }, (_, i) => (
        <Text key={i} className={`score-stars__star${i < score ? ' score-stars__star--on' : ''}`}>
          ★
        </Text>
      ))}
    </View>
  )
}

/** One patient's rating of a doctor (the doctor's home, the score page, all ratings): name, stars, tags, words, date. */
export default function EvaluationItem({ evaluation: e }: { evaluation: Evaluation }) {
  return (
    <View className='evaluation-item'>
      <View className='evaluation-item__head'>
        <Text className='evaluation-item__name'>{e.patientName}</Text>
        <ScoreStars score={e.score} />
        <Text className='evaluation-item__date'>{localTime(e.createdAt).slice(0, 10)}</Text>
      </View>
      {e.tags.length > 0 && (
        <View className='evaluation-item__tags'>
          {e.tags.map((t) => (
            <Text key={t} className='evaluation-item__tag'>
              {t}
            </Text>
          ))}
        </View>
      )}
      {e.content && <Text className='evaluation-item__content'>{e.content}</Text>}
    </View>
  )
}
