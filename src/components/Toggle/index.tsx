import { View } from '@tarojs/components'
import Tappable from '../Tappable'
import './index.scss'

interface Props {
  checked: boolean
  onChange: (on: boolean) => void
  /** What it switches (长辈模式, 设为默认地址): its accessible name. */
  label: string
  disabled?: boolean
}

/**
 * An on/off switch: a switch role with its state and name, and Enter / Space on H5, through Tappable. NutUI's Switch
 * writes an invalid ARIA attribute and cannot be reached with the keyboard, so the app draws its own.
 */
export default function Toggle({ checked, onChange, label, disabled }: Props) {
  return (
    <Tappable role='switch' checked={checked} disabled={disabled} label={label} className={`toggle${checked ? ' toggle--on' : ''}`} onTap={() => onChange(!checked)}>
      <View className='toggle__thumb' />
    </Tappable>
  )
}
