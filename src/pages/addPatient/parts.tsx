import Taro from '@tarojs/taro'
import { Switch } from '@nutui/nutui-react-taro'
import { FormField } from '@/components/FormField'
import { PATIENT_LIST_URL } from '@/pageUrls'

/** After saving: back to the page that asked; opened on its own (e.g. back from the health card), to the list. */
export function leavePage() {
  if (Taro.getCurrentPages().length > 1) return Taro.navigateBack()
  return Taro.redirectTo({ url: PATIENT_LIST_URL })
}

export function DefaultSwitch({ checked, onChange }: { checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <FormField label='设为默认'>
      <Switch checked={checked} onChange={onChange} ariaLabel='设为默认就诊人' />
    </FormField>
  )
}

/** A query value as text, whether or not the router decoded it already. */
export function queryText(value: string | undefined): string {
  if (!value) return ''
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
