import { View, Text, Input } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import Tappable from '@/components/Tappable'
import { fieldName } from '@/components/FormField/fieldName'
import { MAX_KEYWORD } from '@/stores/KeywordSearch'
import type { DiseasePicker as Picker } from '@/stores/InquiryForm'
import { MSG } from '@/ui/messages'
import './DiseasePicker.scss'

/**
 * 从医院疾病目录选择: the patient types part of the diagnosis they were given, and the hospital's diseases of that name
 * are offered (500 ms after the last key); a tap adds one to the diagnosis, another tap takes it out.
 */
function DiseasePicker(p: { picker: Picker; hospitalCode: string; diagnosis: string; onPick: (name: string) => void }) {
  const { picker } = p
  const search = picker.search
  const found = search.result ?? []

  const results = () => {
    if (search.state === 'loading') return <Text className='disease-picker__hint'>{MSG.listLoading}</Text>
    if (search.state === 'failed')
      return (
        <Tappable inline className='disease-picker__hint' onTap={() => void search.run()}>
          {MSG.listFailed}，点击重试
        </Tappable>
      )
    if (search.empty) return <Text className='disease-picker__hint'>未找到该疾病，可直接在上方填写诊断</Text>
    if (!found.length) return null
    return (
      <View className='disease-picker__chips' role='group' aria-label='疾病目录'>
        {found.map((d) => {
          const picked = picker.isPicked(p.diagnosis, d.name)
          return (
            <Tappable
              key={d.code}
              role='checkbox'
              checked={picked}
              label={`${d.name}（${d.deptName}）`}
              className={`disease-picker__chip${picked ? ' disease-picker__chip--on' : ''}`}
              onTap={() => p.onPick(d.name)}
            >
              <Text className='disease-picker__name'>{d.name}</Text>
              <Text className='disease-picker__dept'>{d.deptName}</Text>
            </Tappable>
          )
        })}
      </View>
    )
  }

  return (
    <View className='disease-picker'>
      <Text className='disease-picker__caption'>也可从医院疾病目录中查找选择</Text>
      <Input
        className='disease-picker__search'
        value={search.keyword}
        maxlength={MAX_KEYWORD}
        placeholder='从医院疾病目录查找，如：高血压'
        {...fieldName('从医院疾病目录查找诊断')}
        onInput={(e) => picker.setKeyword(e.detail.value, p.hospitalCode)}
      />
      {results()}
    </View>
  )
}

export default observer(DiseasePicker)
