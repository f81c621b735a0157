import { Children, cloneElement, isValidElement, type ReactNode } from 'react'
import { View, Text, Input, Textarea } from '@tarojs/components'
import Tappable from '../Tappable'
import { fieldName, textareaName } from './fieldName'
import './index.scss'

export { fieldName, textareaName }

type FieldElement = { 'aria-label'?: string; nativeProps?: Record<string, unknown> }

/**
 * spec §5 form defaults: label on the left at a fixed width, a bottom border under each row. The label names the
 * Input or Textarea it holds (one that brings its own name keeps it).
 */
export function FormField({ label, children, extra }: { label: string; children: ReactNode; extra?: ReactNode }) {
  const named = Children.map(children, (child) => {
    if (!isValidElement<FieldElement>(child)) return child
    if (child.type === Input) return cloneElement(child, fieldName(child.props['aria-label'] ?? label))
    if (child.type === Textarea) return cloneElement(child, { nativeProps: { ...textareaName(label).nativeProps, ...child.props.nativeProps } })
    return child
  })
  return (
    <View className='form-field'>
      <Text className='form-field__label'>{label}</Text>
      <View className='form-field__body'>{named}</View>
      {extra}
    </View>
  )
}

/** A white card of form rows. */
export function FormGroup({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <View className='form-group'>
      {title && <Text className='form-group__title'>{title}</Text>}
      {children}
    </View>
  )
}

/** A value shown in a form row that cannot be edited there (e.g. what an identity number says). */
export function FormValue({ value, placeholder }: { value: string; placeholder?: string }) {
  return <Text className={`form-field__value${value ? '' : ' form-field__value--empty'}`}>{value || placeholder}</Text>
}

/** A few choices shown at once (relation, sex): one tap picks, the picked one is marked. */
export function Choice({ options, value, onChange, label }: { options: string[]; value: string; onChange: (v: string) => void; label: string }) {
  return (
    <View className='choice' role='radiogroup' aria-label={label}>
      {options.map((o) => (
        <Tappable key={o} className={`choice__item${o === value ? ' choice__item--on' : ''}`} role='radio' checked={o === value} onTap={() => onChange(o)}>
          {o}
        </Tappable>
      ))}
    </View>
  )
}
