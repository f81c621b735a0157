import { useReachBottom } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { moreText } from '@/stores/RecordStore'
import { localTime } from '@/utils/register'
import './index.scss'
import { useRecordStore } from '@/stores/RecordStore'

/**
 * 访问记录 (under mine; not in the spec, the patient's right under PIPL to know who used their data): who at the
 * hospital, a doctor or an assistant at the workbench or an administrator, opened or changed the records of the
 * account's patients and chat, newest first, a page at a time. The patient's own reads are not listed.
 */
function AccessLog() {
  const records = useRecordStore()
  const list = records.accessLog
  useReachBottom(() => void list.loadMore())
  return (
    <PageShell title='访问记录' onReady={() => list.reload()}>
      <Text className='access-log__intro'>医院工作人员查看或修改您和就诊人的信息时，都会记录在这里。</Text>
      {list.empty ? (
        <Empty text='暂无医院工作人员访问您的信息' />
      ) : list.failedEmpty ? (
        <LoadFailed onRetry={() => void list.loadMore(true)} />
      ) : (
        <View className='access-log' role='list'>
          {list.items.map((r) => (
            <View key={r.id} className='access-log__item' role='listitem'>
              <Text className='access-log__what'>
                {r.who}
                {r.what}
              </Text>
              <Text className='access-log__time'>{localTime(r.at)}</Text>
            </View>
          ))}
          <Tappable className='access-log__more' onTap={() => void list.loadMore(true)}>
            {moreText(list.state)}
          </Tappable>
        </View>
      )}
    </PageShell>
  )
}

export default observer(AccessLog)
