import { useState } from 'react'
import { View, Text, Input } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import { FormField, FormGroup } from '@/components/FormField'
import ActionBar from '@/components/ActionBar'
import { Button } from '@/components/Button'
import Tappable from '@/components/Tappable'
import Toggle from '@/components/Toggle'
import { useStores } from '@/stores'
import { toastError, toastSuccess } from '@/ui/feedback'
import { localTime } from '@/utils/register'
import type { HospitalSetting } from '../../../types/api/hospital'
import { SETTING_VALUE_MAX, kindOf } from './settingKinds'
import './index.scss'

/** A setting's value as staff read it: a switch's state in words, an empty value as 未设置. */
function shown(s: HospitalSetting) {
  if (kindOf(s.key).boolean) return s.value === 'true' ? '已开启' : '已关闭'
  return s.value || '未设置'
}

/**
 * 医院设置 (spec §7 GET/POST /dld-palm/admin/hospital-config): the settings of the current hospital, for its staff
 * (and platform administrators) only: each with what it is and when it last changed; one is changed at a time.
 * Reached from 我的, which shows the entry only to them; anyone else who opens it is told it is not theirs.
 */
function HospitalConfig() {
  const { hospital, user } = useStores()
  const staff = user.isStaffOf(hospital.hospital?.hospitalCode)
  const settings = hospital.settings
  const [editing, setEditing] = useState<HospitalSetting | null>(null)
  const [value, setValue] = useState('')

  // read when called: the shell calls the first render's loader, before startup knew the user
  const load = async () => {
    const code = hospital.hospital?.hospitalCode
    if (!code || !user.isStaffOf(code)) return
    settings.reset()
    await settings.load(code).catch(() => undefined)
  }

  const edit = (s: HospitalSetting) => {
    setEditing(s)
    setValue(s.value)
  }

  const save = async () => {
    if (!editing) return
    const kind = kindOf(editing.key)
    const next = kind.boolean ? value : value.trim()
    const problem = next.length > SETTING_VALUE_MAX ? `设置值不能超过${SETTING_VALUE_MAX}个字符` : (kind.problem?.(next) ?? null)
    if (problem) return toastError(problem)
    await hospital.savingSetting.run(async () => {
      await hospital.saveSetting(editing.key, next)
      toastSuccess('已保存')
      setEditing(null)
    })
  }

  const editor = (s: HospitalSetting) => {
    const kind = kindOf(s.key)
    return (
      <View className='hospital-config'>
        <FormGroup title={kind.label}>
          {kind.boolean ? (
            <FormField label='开启' extra={<Toggle checked={value === 'true'} onChange={(on) => setValue(on ? 'true' : 'false')} label={kind.label} />}>
              <Text className='hospital-config__state'>{value === 'true' ? '已开启' : '已关闭'}</Text>
            </FormField>
          ) : (
            <FormField label='设置值'>
              <Input className='hospital-config__input' value={value} placeholder='请输入设置值' maxlength={SETTING_VALUE_MAX} onInput={(e) => setValue(e.detail.value)} />
            </FormField>
          )}
        </FormGroup>
        {kind.hint && <Text className='hospital-config__hint'>{kind.hint}</Text>}
        <Text className='hospital-config__hint'>设置项：{s.key}</Text>
        <ActionBar>
          <View className='hospital-config__actions'>
            <Button block onClick={() => setEditing(null)}>
              取消
            </Button>
            <Button type='primary' block loading={hospital.savingSetting.busy} onClick={() => void save().catch(() => undefined)}>
              保存
            </Button>
          </View>
        </ActionBar>
      </View>
    )
  }

  const body = () => {
    if (!hospital.hospital) return <NoHospital />
    if (!staff) return <Empty text='医院设置仅供本院工作人员使用' />
    if (settings.state === 'failed' && !settings.value) return <LoadFailed onRetry={() => void load()} />
    if (!settings.value) return <Loading />
    if (editing) return editor(editing)
    if (settings.value.length === 0) return <Empty text='本院暂无设置项' />
    return (
      <View className='hospital-config'>
        <Text className='hospital-config__intro'>{hospital.hospital.hospitalName}的设置，修改后立即对患者生效。</Text>
        {settings.value.map((s) => {
          const kind = kindOf(s.key)
          return (
            <View key={s.key} className='hospital-config__item'>
              <View className='hospital-config__row'>
                <Text className='hospital-config__label'>{kind.label}</Text>
                <Text className='hospital-config__value'>{shown(s)}</Text>
              </View>
              {kind.hint && <Text className='hospital-config__hint hospital-config__hint--inline'>{kind.hint}</Text>}
              <Text className='hospital-config__meta'>
                {s.key} · 更新于{localTime(s.updatedAt)}
              </Text>
              <Tappable row className='hospital-config__edit' label={`修改${kind.label}`} onTap={() => edit(s)}>
                修改 ›
              </Tappable>
            </View>
          )
        })}
      </View>
    )
  }

  return (
    <PageShell title='医院设置' onReady={load}>
      {body()}
    </PageShell>
  )
}

export default observer(HospitalConfig)
