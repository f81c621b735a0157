import { Text, Textarea } from '@tarojs/components'
import { textareaName } from '../FormField/fieldName'
import './index.scss'

interface Props {
  value: string
  /** the most characters it takes; the count under the box runs up to it */
  max: number
  placeholder: string
  /** The box's name for a screen reader (the heading above it, usually): a placeholder is not one. */
  label: string
  disabled?: boolean
  /** the page's own class for the box: its height */
  className: string
  onInput: (text: string) => void
}

/** A text box with its count of characters under it (e.g. 12/500). */
export default function CountedTextarea({ value, max, placeholder, label, disabled, className, onInput }: Props) {
  return (
    <>
      <Textarea
        className={`counted-textarea ${className}`}
        value={value}
        maxlength={max}
        disabled={disabled}
        placeholder={placeholder}
        {...textareaName(label)}
        onInput={(e) => onInput(e.detail.value)}
      />
      <Text className='counted-textarea__count'>
        {value.length}/{max}
      </Text>
    </>
  )
}
