import { useState } from 'react'
import { View, Text, Input } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Button } from '@/components/Button'
import { FormField, FormGroup, FormValue } from '@/components/FormField'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { toastError, toastSuccess } from '@/ui/feedback'
import { maskIdCard, maskName } from '@/utils/mask'
import { firstProblem, idCardProblem, nameProblem } from '@/utils/personForm'

/**
 * 实名认证 (POST /dld-user/user/modifyiIdentify): the account holder's own real name and identity number, checked by
 * the identity-card rules here and again on the server, which keeps them encrypted and answers them masked. Once
 * saved only the masked values are shown; the typed number leaves the form.
 */
function IdentitySection() {
  const { user } = useStores()
  const [name, setName] = useState('')
  const [idCard, setIdCard] = useState('')
  const [redo, setRedo] = useState(false)
  const saved = redo ? null : user.identity

  const submit = async () => {
    const number = idCard.trim().toUpperCase()
    const problem = firstProblem(nameProblem(name, '真实'), idCardProblem(number))
    if (problem) return toastError(problem)
    await user.identitySaving.run(async () => {
      await user.saveIdentity({ name: name.trim(), idCard: number })
      setName('')
      setIdCard('')
      setRedo(false)
      toastSuccess('实名认证成功')
    })
  }

  return (
    <View className='edit-user__identity'>
      <FormGroup title='实名认证'>
        {saved ? (
          <>
            <FormField label='真实姓名'>
              <FormValue value={maskName(saved.name)} />
            </FormField>
            <FormField label='身份证号'>
              <FormValue value={maskIdCard(saved.idCard)} />
            </FormField>
            <FormField label='认证状态'>
              <Text className='edit-user__verified'>{saved.verified ? '已认证' : '未通过'}</Text>
            </FormField>
          </>
        ) : (
          <>
            <FormField label='真实姓名'>
              <Input className='edit-user__field' placeholder='请输入本人真实姓名' maxlength={20} value={name} onInput={(e) => setName(e.detail.value)} />
            </FormField>
            <FormField label='身份证号'>
              <Input className='edit-user__field' type='idcard' placeholder='请输入本人身份证号' maxlength={18} value={idCard} onInput={(e) => setIdCard(e.detail.value.trim())} />
            </FormField>
          </>
        )}
      </FormGroup>
      <Text className='edit-user__note'>用于核验账号本人身份，身份证号加密保存，页面仅显示部分号码。</Text>
      {saved ? (
        <Tappable row className='edit-user__redo' onTap={() => setRedo(true)}>
          重新认证
        </Tappable>
      ) : (
        <View className='edit-user__actions'>
          <Button className='edit-user__save' type='primary' block loading={user.identitySaving.busy} onClick={() => void submit().catch(() => undefined)}>
            提交实名认证
          </Button>
        </View>
      )}
    </View>
  )
}

export default observer(IdentitySection)
