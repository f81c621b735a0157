import { useEffect } from 'react'
import { View, Text, Input } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import CountedTextarea from '@/components/CountedTextarea'
import Sheet from '@/components/Sheet'
import { openPage } from '@/components/PageShell'
import Tappable from '@/components/Tappable'
import { fieldName } from '@/components/FormField/fieldName'
import { MEDICINES_MAX, MEDICINE_NAME_MAX } from '@/stores/FollowUpStore'
import { RENEWAL_NOTE_MAX } from '@/stores/RoomToolsStore'
import './tools.scss'
import { useRoomToolsStore } from '@/stores/RoomToolsStore'
import { useRecordStore } from '@/stores/RecordStore'

/**
 * The room's tools while the consultation is open: 发送病历 (a case chosen on the history cases page is shared when the
 * patient comes back) and 续方申请 (a panel over the room).
 */
function RoomTools() {
  const tools = useRoomToolsStore()
  const records = useRecordStore()

  const chosen = records.chosenCase
  useEffect(() => {
    if (chosen) void tools.shareChosenCase()
  }, [chosen, tools])

  const chooseCase = () => {
    const url = tools.chooseCase()
    if (url) openPage(url)
  }

  return (
    <>
      <View className='room-tools' role='toolbar' aria-label='问诊工具'>
        <Tappable className='room-tools__item' onTap={chooseCase}>
          发送病历
        </Tappable>
        <Tappable className='room-tools__item' onTap={tools.openRenewal}>
          续方申请
        </Tappable>
      </View>
      {tools.renewalOpen && <RenewalPanel />}
    </>
  )
}

/** 续方申请: 1–10 medicine names and an optional note, sent to the doctor as one message. */
const RenewalPanel = observer(function RenewalPanel() {
  const tools = useRoomToolsStore()
  return (
    <Sheet title='续方申请' aside={<Text className='room-renewal__note'>{`${tools.medicines.length}/${MEDICINES_MAX}`}</Text>} onClose={tools.closeRenewal}>
      <View role='list' aria-label='续方药品'>
        {tools.medicines.map((name, i) => (
          <View key={i} className='room-renewal__medicine' role='listitem'>
            <Input
              className='room-renewal__input'
              value={name}
              maxlength={MEDICINE_NAME_MAX}
              placeholder='药品名称，如：苯磺酸氨氯地平片'
              {...fieldName(`第${i + 1}个药品名称`)}
              onInput={(e) => tools.setMedicine(i, e.detail.value)}
            />
            {tools.medicines.length > 1 && (
              <Tappable className='room-renewal__remove' label={`删除第${i + 1}个药品`} onTap={() => tools.removeMedicine(i)}>
                删除
              </Tappable>
            )}
          </View>
        ))}
      </View>
      {tools.canAddMedicine && (
        <Tappable className='room-renewal__add' onTap={tools.addMedicine}>
          + 添加药品
        </Tappable>
      )}
      <CountedTextarea
        className='room-renewal__textarea'
        value={tools.note}
        max={RENEWAL_NOTE_MAX}
        placeholder='补充说明（选填），如用药后的情况'
        label='补充说明'
        onInput={(v) => tools.setNote(v)}
      />
      <View className='room-renewal__actions'>
        <Button size='small' onClick={tools.closeRenewal}>
          取消
        </Button>
        <Button size='small' type='primary' disabled={tools.sending} onClick={() => void tools.sendRenewal()}>
          发送
        </Button>
      </View>
    </Sheet>
  )
})

export default observer(RoomTools)
