import Taro, { useReachBottom } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Empty, { LoadFailed } from '@/components/Empty'
import Tappable from '@/components/Tappable'
import { useStores } from '@/stores'
import { INQUIRY_TABS, inquiryPrice, inquiryStatusClass } from '@/stores/InquiryStore'
import { MSG } from '@/ui/messages'
import { localTime } from '@/utils/register'
import './index.scss'
import { inquiryDetailUrl, doctorListUrl } from '@/pageUrls'
import { useInquiryStore } from '@/stores/InquiryStore'

/** 问诊订单 (spec §2 /pages/order/inquiry/index): tabs 全部 / 待支付 / 待接诊 / 问诊中 / 已结束, a page at a time. */
function InquiryOrders() {
  const { hospital } = useStores()
  const inquiry = useInquiryStore()
  useReachBottom(() => void inquiry.list.loadMore())
  const state = inquiry.list.state

  return (
    <PageShell title='问诊订单' onReady={() => inquiry.list.reload()}>
      <View className='inquiries__tabs' role='tablist'>
        {INQUIRY_TABS.map((t) => (
          <Tappable
            key={t.key}
            role='tab'
            selected={inquiry.tab === t.key}
            className={`inquiries__tab${inquiry.tab === t.key ? ' inquiries__tab--on' : ''}`}
            onTap={() => void inquiry.switchTab(t.key)}
          >
            {t.label}
          </Tappable>
        ))}
      </View>
      {state === 'done' && inquiry.list.items.length === 0 ? (
        <Empty text='暂无问诊订单' action={{ label: '找医生问诊', onTap: () => void Taro.navigateTo({ url: doctorListUrl(hospital.hospital?.hospitalCode) }) }} />
      ) : state === 'failed' && inquiry.list.items.length === 0 ? (
        <LoadFailed onRetry={() => void inquiry.list.loadMore(true)} />
      ) : (
        <View className='inquiries'>
          {inquiry.list.items.map((i) => (
            <Tappable key={i.id} className='inquiry-order' onTap={() => void Taro.navigateTo({ url: inquiryDetailUrl(i.id) })}>
              <View className='inquiry-order__head'>
                <Text className='inquiry-order__doctor'>
                  {i.doctor.doctorName} <Text className='inquiry-order__title'>{i.doctor.title}</Text>
                </Text>
                <Text className={`inquiry-order__status inquiry-order__status--${inquiryStatusClass(i)}`}>{i.statusText}</Text>
              </View>
              <Text className='inquiry-order__line'>
                {i.serviceName} · {i.doctor.deptName}
              </Text>
              <Text className='inquiry-order__line'>就诊人：{i.patientName}</Text>
              <Text className='inquiry-order__desc'>{i.description}</Text>
              <View className='inquiry-order__foot'>
                <Text className='inquiry-order__time'>{localTime(i.createdAt)}</Text>
                <Text className='inquiry-order__fee'>{inquiryPrice(i.priceFen)}</Text>
              </View>
            </Tappable>
          ))}
          <Tappable className='inquiries__more' onTap={() => void inquiry.list.loadMore(true)}>
            {state === 'loading' ? MSG.listLoading : state === 'done' ? MSG.listNoMore : state === 'failed' ? MSG.listFailed : MSG.loadMore}
          </Tappable>
        </View>
      )}
    </PageShell>
  )
}

export default observer(InquiryOrders)
