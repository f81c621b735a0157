import Taro, { useReachBottom } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { RECORD_TABS } from '@/stores/RegisterStore'
import { MSG } from '@/ui/messages'
import { statusClass, yuan } from '@/utils/register'
import './index.scss'
import { detailUrl, REGISTER_URL } from '@/pageUrls'
import { useRegisterStore } from '@/stores/RegisterStore'

/** 挂号记录 (spec §2 /pages/order/register/index): tabs 全部 / 待支付 / 预约成功 / 已取消, a page at a time. */
function RegisterRecords() {
  const register = useRegisterStore()
  useReachBottom(() => void register.records.list.loadMore())
  const state = register.records.list.state

  return (
    <PageShell title='挂号记录' onReady={() => register.records.list.reload()}>
      <View className='records__tabs' role='tablist'>
        {RECORD_TABS.map((t) => (
          <Tappable
            key={t.key}
            role='tab'
            selected={register.records.tab === t.key}
            className={`records__tab${register.records.tab === t.key ? ' records__tab--on' : ''}`}
            onTap={() => void register.records.switchTab(t.key)}
          >
            {t.label}
          </Tappable>
        ))}
      </View>
      {state === 'done' && register.records.list.items.length === 0 ? (
        <Empty text='暂无挂号记录' action={{ label: '去挂号', onTap: () => void Taro.navigateTo({ url: REGISTER_URL }) }} />
      ) : state === 'failed' && register.records.list.items.length === 0 ? (
        <LoadFailed onRetry={() => void register.records.list.loadMore(true)} />
      ) : (
        <View className='records'>
          {register.records.list.items.map((r) => (
            <Tappable key={r.id} className='record' onTap={() => void Taro.navigateTo({ url: detailUrl(r.id) })}>
              <View className='record__head'>
                <Text className='record__dept'>{r.deptName}</Text>
                <Text className={`record__status record__status--${statusClass(r)}`}>{r.statusText}</Text>
              </View>
              <Text className='record__line'>
                就诊人：{r.patientName}
                {r.hisMedCardNo ? `（${r.hisMedCardNo}）` : ''}
              </Text>
              <Text className='record__line'>
                医生：{r.doctorName} {r.title}
              </Text>
              <Text className='record__line'>
                就诊时间：{r.visitDate} {r.week} {r.segmentText} {r.timeRange}
              </Text>
              <View className='record__foot'>
                <Text className='record__hospital'>{r.hospitalName}</Text>
                <Text className='record__fee'>{yuan(r.order?.amountFen ?? r.feeFen)}</Text>
              </View>
            </Tappable>
          ))}
          <Tappable className='records__more' onTap={() => void register.records.list.loadMore(true)}>
            {state === 'loading' ? MSG.listLoading : state === 'done' ? MSG.listNoMore : state === 'failed' ? MSG.listFailed : MSG.loadMore}
          </Tappable>
        </View>
      )}
    </PageShell>
  )
}

export default observer(RegisterRecords)
