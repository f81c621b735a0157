import { View, Text } from '@tarojs/components'
import './index.scss'

/** 检查前准备: what the patient must do before an examination (空腹, 憋尿, 去除金属物品 ...), numbered, never colour alone. */
export default function ExamPreparation({ notes }: { notes: string[] }) {
  if (!notes.length) return null
  return (
    <View className='exam-preparation' role='note' aria-label='检查前准备'>
      <Text className='exam-preparation__heading'>检查前准备</Text>
      {notes.map((n, i) => (
        <Text key={n} className='exam-preparation__item'>{`${i + 1}. ${n}`}</Text>
      ))}
    </View>
  )
}
