import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { Button } from '@/components/Button'
import PageShell from '@/components/PageShell'
import Empty from '@/components/Empty'
import ActionBar from '@/components/ActionBar'
import { maskName } from '@/utils/mask'
import { yuan } from '@/utils/register'
import { afterPay } from '../../../pages/order/payment/afterPay'
import { SELF_SERVICE_URL } from '@/pageUrls'
import './index.scss'
import { useSelfServiceStore } from '@/stores/SelfServiceStore'

/**
 * 确认开单 (spec §2 /palm/selfService/confirm/index): the tests chosen on /palm/selfService/index, the patient, what to
 * know before coming (空腹 ...); 确认并支付 asks the server for the bill (it checks every rule again) and pays it as
 * any bill is paid, landing on the paid record, which says where to go.
 */
function SelfServiceConfirm() {
  const selfService = useSelfServiceStore()
  const chosen = selfService.chosen
  const patient = selfService.patient

  const pay = async () => {
    const result = await selfService.pay().catch(() => null) // the request layer has shown the server's reason
    afterPay(result)
  }

  const body = () => {
    if (!chosen.length || !patient)
      return <Empty text='请先选择检验项目' action={{ label: '去选择', onTap: () => void Taro.redirectTo({ url: SELF_SERVICE_URL }) }} />
    return (
      <View className='self-confirm'>
        <View className='self-confirm__card'>
          <View className='self-confirm__row'>
            <Text className='self-confirm__label'>就诊人</Text>
            <Text>{maskName(patient.name)}</Text>
          </View>
          <View className='self-confirm__row'>
            <Text className='self-confirm__label'>检验项目</Text>
            <Text>{chosen.length}项</Text>
          </View>
        </View>
        <View className='self-confirm__card' role='list' aria-label='已选检验项目'>
          {chosen.map((item) => (
            <View key={item.code} className='self-confirm__item' role='listitem'>
              <View className='self-confirm__top'>
                <Text className='self-confirm__name'>{item.name}</Text>
                <Text className='self-confirm__price'>{yuan(item.priceFen)}</Text>
              </View>
              <Text className='self-confirm__notes'>{item.notes}</Text>
            </View>
          ))}
        </View>
        <View className='self-confirm__card self-confirm__notice' role='note' aria-label='检验须知'>
          <Text className='self-confirm__heading'>检验须知</Text>
          {selfService.fasting && <Text className='self-confirm__line self-confirm__line--strong'>所选项目含需空腹检验的项目，请空腹8小时以上再来采血</Text>}
          {selfService.notices.map((n) => (
            <Text key={n} className='self-confirm__line'>
              · {n}
            </Text>
          ))}
          <Text className='self-confirm__line'>· 缴费成功后请按缴费记录中的指引到检验科采血或留取标本</Text>
          <Text className='self-confirm__line'>· 自助开单项目未经医生诊查，检验结果请咨询医生解读</Text>
        </View>
        <ActionBar amount={{ label: '合计', value: yuan(selfService.totalFen) }}>
          <Button type='primary' block disabled={selfService.payment.busy} onClick={() => void pay()}>
            {selfService.payment.busy ? '支付中...' : '确认并支付'}
          </Button>
        </ActionBar>
      </View>
    )
  }

  return <PageShell title='确认开单'>{body()}</PageShell>
}

export default observer(SelfServiceConfirm)
