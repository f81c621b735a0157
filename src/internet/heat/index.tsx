import { useRef } from 'react'
import Taro, { useDidShow } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { NoHospital } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { EXPOSURE_QUESTION, FEVER_NOTE_MAX, FEVER_QUESTION, FEVER_SYMPTOMS, RED_FLAGS, RED_FLAG_ADVICE } from '@/stores/FeverStore'
import { inquiryPrice } from '@/stores/InquiryStore'
import { ConsentLine, DescriptionField, FormCard, PatientField, PictureField, SubmitBar, useInquiryFlow } from '../inquiry/form'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'
import { useInquiryStore } from '@/stores/InquiryStore'
import { useFeverStore } from '@/stores/FeverStore'

/** 是 / 否 for one screening question. */
function YesNo({ label, value, locked, onChange }: { label: string; value: boolean | null; locked: boolean; onChange: (v: boolean) => void }) {
  return (
    <View className='heat__options' role='radiogroup' aria-label={label}>
      {[true, false].map((v) => (
        <Tappable
          key={String(v)}
          role='radio'
          checked={value === v}
          className={`heat__option${value === v ? ' heat__option--on' : ''}`}
          disabled={locked}
          onTap={() => onChange(v)}
        >
          {v ? '是' : '否'}
        </Tappable>
      ))}
    </View>
  )
}

/** Chips to tick any of. */
function Chips<T extends string>(p: { label: string; items: readonly T[]; chosen: T[]; locked: boolean; danger?: boolean; onToggle: (v: T) => void }) {
  const { label, items, chosen, locked, danger, onToggle } = p
  return (
    <View className='heat__chips' role='group' aria-label={label}>
      {items.map((item) => {
        const on = chosen.includes(item)
        return (
          <Tappable
            key={item}
            role='checkbox'
            checked={on}
            className={`heat__chip${on ? ` heat__chip--on${danger ? ' heat__chip--danger' : ''}` : ''}`}
            disabled={locked}
            onTap={() => onToggle(item)}
          >
            {item}
          </Tappable>
        )
      })}
    </View>
  )
}

/**
 * 发热门诊 (spec §2 /internet/heat/index): danger signs first (they send the patient to the fever clinic or 120 at
 * once), then the screening, the patient and 快速问诊 with the fever or respiratory department (or the hospital's
 * doctors); the doctor the server chose is named, then the inquiry is paid like 图文问诊.
 */
function FeverClinic() {
  const fever = useFeverStore()
  const patients = usePatientStore()
  const inquiry = useInquiryStore()
  const ready = useRef(false)
  const form = fever.form
  const created = form.created
  const locked = !!created
  const { choose, submit, pay, modal } = useInquiryFlow(() => fever.submit(), locked)

  const load = async () => {
    await Promise.all([patients.load().catch(() => undefined), fever.open()])
    ready.current = true
  }
  useDidShow(() => {
    if (ready.current && !form.created) void patients.load().catch(() => undefined)
  })

  const dept = fever.dept
  const deptLine =
    fever.depts.state === 'failed' ? (
      <Tappable className='heat__dept heat__dept--warn' onTap={() => void fever.loadDepts()}>
        接诊科室加载失败，点击重试
      </Tappable>
    ) : fever.depts.state === 'done' ? (
      <Text className='heat__dept'>{dept ? `接诊科室：${dept.deptName}` : '接诊医生：本院在线医生'}</Text>
    ) : null

  const body = () => {
    if (!fever.hospital) return <NoHospital />
    return (
      <View className='inquiry heat'>
        <View className='heat__intro'>
          <Text className='heat__intro-title'>发热门诊 · 线上预检</Text>
          <Text className='heat__intro-text'>请如实回答以下问题，医生将根据您的情况给出就诊建议。</Text>
        </View>

        <FormCard title='是否有以下情况？'>
          <Chips label='危急情况' items={RED_FLAGS} chosen={fever.redFlags} locked={locked} danger onToggle={(f) => fever.toggleRedFlag(f)} />
          {fever.hasRedFlag && (
            <View className='heat__alarm' role='alert'>
              <Text className='heat__alarm-text'>{RED_FLAG_ADVICE}</Text>
              <Button type='danger' size='small' onClick={() => void Taro.makePhoneCall({ phoneNumber: '120' }).catch(() => undefined)}>
                拨打120
              </Button>
            </View>
          )}
        </FormCard>

        <FormCard title={FEVER_QUESTION}>
          <YesNo label='体温' value={fever.fever} locked={locked} onChange={(v) => fever.setFever(v)} />
        </FormCard>
        <FormCard title='目前有哪些症状？（可多选）'>
          <Chips label='症状' items={FEVER_SYMPTOMS} chosen={fever.symptoms} locked={locked} onToggle={(s) => fever.toggleSymptom(s)} />
        </FormCard>
        <FormCard title={EXPOSURE_QUESTION}>
          <YesNo label='旅居史或接触史' value={fever.exposure} locked={locked} onChange={(v) => fever.setExposure(v)} />
        </FormCard>

        <PatientField locked={locked} onChoose={choose} />
        <DescriptionField
          title='补充说明（选填）'
          value={form.description}
          max={FEVER_NOTE_MAX}
          locked={locked}
          placeholder='如最高体温、发热几天、已用过的药物等'
          onInput={(text) => form.setDescription(text)}
        />
        <PictureField photos={form.photos} locked={locked} />

        {created ? (
          <View className='heat__matched' role='status' aria-label='接诊医生'>
            <Text className='heat__matched-title'>已为您匹配医生</Text>
            <Text className='heat__matched-doctor'>
              {created.doctor.doctorName} {created.doctor.title} · {created.doctor.deptName}
            </Text>
            <Text className='heat__matched-price'>问诊费：{inquiryPrice(created.priceFen)}</Text>
          </View>
        ) : (
          <>
            {deptLine}
            <Text className='heat__dept heat__dept--note'>由系统为您匹配当前可接诊的医生，问诊费以该医生的图文问诊价格为准</Text>
          </>
        )}
        <ConsentLine agreed={form.agreed} locked={locked} onToggle={(on) => form.setAgreed(on)} />
        <SubmitBar
          created={created}
          blocker={fever.blocker}
          submitting={form.attempt.inFlight}
          paying={inquiry.payment.busy}
          label='快速问诊'
          onSubmit={submit}
          onPay={(made) => void pay(made)}
        />
      </View>
    )
  }

  return (
    <PageShell title='发热门诊' onReady={load}>
      {body()}
      {modal}
    </PageShell>
  )
}

export default observer(FeverClinic)
