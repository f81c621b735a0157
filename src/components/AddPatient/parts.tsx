import { useState } from 'react'
import Taro from '@tarojs/taro'
import { Input } from '@tarojs/components'
import ActionBar from '@/components/ActionBar'
import { Button } from '@/components/Button'
import { FormField } from '@/components/FormField'
import Toggle from '@/components/Toggle'
import { ApiError } from '@/services/request'
import { useStores } from '@/stores'
import { isAccountMobile } from '@/utils/phoneCode'
import { codeProblem } from '@/utils/personForm'
import { toastSuccess } from '@/ui/feedback'
import { PATIENT_LIST_URL } from '@/pageUrls'

/** After saving: back to the page that asked; opened on its own (e.g. back from the health card), to the list. */
export function leavePage() {
  if (Taro.getCurrentPages().length > 1) return Taro.navigateBack()
  return Taro.redirectTo({ url: PATIENT_LIST_URL })
}

/** A save went through: say so (添加成功, 保存成功), then leave the form. */
export async function leaveSaved(text: string) {
  toastSuccess(text)
  await leavePage()
}

/**
 * The patient's mobile and its SMS code. The account's own mobile was verified when the account was bound: typed
 * again it needs no second code, and the code row says so. The server decides; should it ask for a code after all
 * (another number with the same mask), the code row comes back.
 */
export function usePatientMobile(initial = '') {
  const { user } = useStores()
  const [mobile, setMobile] = useState(initial)
  const [code, setCode] = useState('')
  const [askedForCode, setAskedForCode] = useState(false)
  const verified = !askedForCode && isAccountMobile(mobile, user.user?.mobile)
  return {
    mobile,
    /** What SmsCodeField takes. */
    field: { mobile, code, onMobileChange: setMobile, onCodeChange: setCode, verified },
    problem: () => (verified ? null : codeProblem(code)),
    /** The code to send: none for the account's own mobile. */
    code: verified ? undefined : code,
    /** A refused save: when the server asked for the code, the code row comes back. */
    refused(e: unknown): never {
      if (e instanceof ApiError && e.message === '请输入验证码') setAskedForCode(true)
      throw e
    },
  }
}

/** The form's one button, in the action bar; what went wrong has been shown already (a toast, the request layer). */
export function SubmitButton({ label, busy, disabled, onSubmit }: { label: string; busy: boolean; disabled?: boolean; onSubmit: () => Promise<unknown> }) {
  return (
    <ActionBar>
      <Button type='primary' block loading={busy} disabled={disabled} onClick={() => void onSubmit().catch(() => undefined)}>
        {label}
      </Button>
    </ActionBar>
  )
}

/** The guardian of a child bound without an identity card: name and the guardian's own identity number. */
export function GuardianFields(p: { name: string; idCard: string; onName: (v: string) => void; onIdCard: (v: string) => void }) {
  return (
    <>
      <FormField label='监护人'>
        <Input className='add-patient__input' placeholder='请输入监护人姓名' maxlength={20} value={p.name} onInput={(e) => p.onName(e.detail.value)} />
      </FormField>
      <FormField label='身份证号'>
        <Input
          className='add-patient__input'
          type='idcard'
          placeholder='请输入监护人身份证号'
          maxlength={18}
          value={p.idCard}
          onInput={(e) => p.onIdCard(e.detail.value.trim())}
        />
      </FormField>
    </>
  )
}

export function DefaultSwitch({ checked, onChange }: { checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <FormField label='设为默认'>
      <Toggle checked={checked} onChange={onChange} label='设为默认就诊人' />
    </FormField>
  )
}
