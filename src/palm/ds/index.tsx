import Taro from '@tarojs/taro'
import { View, Text, Image, Input, ScrollView } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { NoHospital } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { fieldName } from '@/components/FormField/fieldName'

import { EMERGENCY_PHONE, MAX_TRIAGE_TEXT, TRIAGE_DISCLAIMER, TRIAGE_EXAMPLES, TRIAGE_GREETING, type TriageMessage } from '@/stores/TriageStore'
import { assetUrl } from '@/ui/assets'
import type { TriageAnswer, TriageDepartment } from '../../../types/api/triage'
import './index.scss'
import { deptScheduleUrl, doctorUrl } from '@/pageUrls'
import { useTriageStore } from '@/stores/TriageStore'
import { useRegisterStore } from '@/stores/RegisterStore'

const msgAnchor = (id: number) => `triage-msg-${id}`
const THINKING_ANCHOR = 'triage-thinking'

interface AnswerProps {
  id: number
  answer: TriageAnswer
  onDept: (dept: TriageDepartment) => void
  onDoctor: (id: number) => void
}

/** One answer of the agent: the reply (in red with 拨打120 for an emergency), the departments and their doctors. */
function AgentAnswer({ id, answer, onDept, onDoctor }: AnswerProps) {
  const call = () => void Taro.makePhoneCall({ phoneNumber: EMERGENCY_PHONE }).catch(() => undefined)
  return (
    <View id={msgAnchor(id)} className='triage__row triage__row--agent'>
      <View className={`triage__bubble${answer.emergency ? ' triage__bubble--emergency' : ''}`} role={answer.emergency ? 'alert' : undefined}>
        <Text className='triage__reply'>{answer.reply}</Text>
        {answer.emergency && (
          <View className='triage__call'>
            <Button type='danger' size='small' onClick={call}>
              拨打120
            </Button>
          </View>
        )}
        {answer.departments.map((d) => (
          <View key={d.id} className='triage__dept'>
            <Tappable className='triage__dept-main' onTap={() => onDept(d)}>
              <View className='triage__dept-head'>
                <Text className='triage__dept-name'>{d.deptName}</Text>
                <Text className='triage__dept-go'>预约挂号</Text>
              </View>
              {d.reason && <Text className='triage__dept-reason'>{d.reason}</Text>}
            </Tappable>
            {d.doctors.length > 0 && (
              <View className='triage__doctors' aria-label={`${d.deptName}医生`}>
                {d.doctors.map((doc) => (
                  <Tappable key={doc.id} className='triage__doctor' onTap={() => onDoctor(doc.id)}>
                    {doc.avatar ? <Image className='triage__avatar' src={assetUrl(doc.avatar)} aria-hidden='true' /> : <View className='triage__avatar' />}
                    <Text className='triage__doctor-name'>{doc.doctorName}</Text>
                    <Text className='triage__doctor-title'>{doc.title}</Text>
                  </Tappable>
                ))}
              </View>
            )}
          </View>
        ))}
        <Text className='triage__disclaimer'>{answer.disclaimer}</Text>
      </View>
    </View>
  )
}

/**
 * 智能导诊 (spec §2 /palm/ds/index, the doctor AI agent): the patient describes a complaint and the agent recommends
 * departments of the hospital and their doctors, to book from here. It does not diagnose or prescribe; the disclaimer
 * stays on top and comes with every answer.
 */
function Triage() {
  const triage = useTriageStore()
  const register = useRegisterStore()
  const last = triage.messages[triage.messages.length - 1]
  const anchor = triage.sending ? THINKING_ANCHOR : last ? msgAnchor(last.id) : undefined

  const openDept = (dept: TriageDepartment) => {
    register.catalogue.chooseDept({ id: dept.id, deptName: dept.deptName })
    void Taro.navigateTo({ url: deptScheduleUrl(dept) })
  }
  const openDoctor = (id: number) => void Taro.navigateTo({ url: doctorUrl(id) })

  const message = (m: TriageMessage) =>
    m.from === 'agent' ? (
      <AgentAnswer key={m.id} id={m.id} answer={m.answer} onDept={openDept} onDoctor={openDoctor} />
    ) : (
      <View key={m.id} id={msgAnchor(m.id)} className='triage__row triage__row--patient'>
        <View className='triage__bubble triage__bubble--patient'>
          <Text>{m.text}</Text>
        </View>
        {m.status === 'failed' && (
          <Tappable inline className='triage__failed' onTap={() => void triage.resend(m.id)}>
            发送失败，点击重试
          </Tappable>
        )}
      </View>
    )

  return (
    <PageShell title='智能导诊' onReady={() => triage.open()}>
      <View className='triage'>
        <View className='triage__notice' role='note'>
          <Text>{TRIAGE_DISCLAIMER}</Text>
        </View>
        {!triage.hospital ? (
          <NoHospital />
        ) : (
          <>
            <ScrollView className='triage__list' scrollY scrollIntoView={anchor}>
              <View className='triage__row triage__row--agent'>
                <View className='triage__bubble'>
                  <Text className='triage__reply'>{TRIAGE_GREETING}</Text>
                  <Text className='triage__examples-title'>您可以这样问：</Text>
                  <View className='triage__examples'>
                    {TRIAGE_EXAMPLES.map((e) => (
                      <Tappable inline key={e} className='triage__example' onTap={() => void triage.send(e)}>
                        {e}
                      </Tappable>
                    ))}
                  </View>
                </View>
              </View>
              {triage.messages.map(message)}
              {triage.sending && (
                <View id={THINKING_ANCHOR} className='triage__row triage__row--agent'>
                  <View className='triage__bubble triage__bubble--thinking' role='status'>
                    <Text>正在为您分析，请稍候…</Text>
                  </View>
                </View>
              )}
            </ScrollView>
            <View className='triage__bar'>
              <Input
                className='triage__input'
                placeholder='请描述您的症状，如：头痛两天，伴有发热'
                {...fieldName('描述症状')}
                maxlength={MAX_TRIAGE_TEXT}
                confirmType='send'
                value={triage.draft}
                onInput={(e) => triage.setDraft(e.detail.value)}
                onConfirm={() => void triage.send()}
              />
              <View className='triage__send'>
                <Button type='primary' size='small' disabled={!triage.canSend} onClick={() => void triage.send()}>
                  发送
                </Button>
              </View>
            </View>
          </>
        )}
      </View>
    </PageShell>
  )
}

export default observer(Triage)
