import { View } from '@tarojs/components'
import Tappable from '../Tappable'
import './index.scss'

interface Props<V extends string> {
  options: { label: string; value: V }[]
  value: V
  onChange: (value: V) => void
  /** What the choice is about (身份证 / 无证儿童 / 电子健康卡: 就诊人证件): the tab list's name. */
  label: string
}

/**
 * A few views of one page side by side (按日期 / 按医生): a tab list whose tabs a screen reader and a keyboard can
 * use, through Tappable. NutUI's Segmented draws plain text that neither can reach.
 */
export default function Segmented<V extends string>({ options, value, onChange, label }: Props<V>) {
  return (
    <View className='segmented' role='tablist' aria-label={label}>
      {options.map((o) => (
        <Tappable key={o.value} role='tab' selected={o.value === value} className={`segmented__item${o.value === value ? ' segmented__item--on' : ''}`} onTap={() => onChange(o.value)}>
          {o.label}
        </Tappable>
      ))}
    </View>
  )
}
