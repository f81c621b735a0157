import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { LoadFailed, Loading, NoHospital } from '@/components/Empty'
import PatientPicker from '@/components/PatientPicker'
import ActionBar from '@/components/ActionBar'
import Tappable from '@/components/Tappable'
import { Button } from '@/components/Button'
import { useStores } from '@/stores'
import { toastError } from '@/ui/feedback'
import { yuan } from '@/utils/register'
import type { nucleicUrls } from '@/pageUrls'
import './index.scss'
import { usePatientStore } from '@/stores/PatientStore'
import { useNucleicStore } from '@/stores/NucleicStore'

/**
 * 核酸检测开单 (spec §2 /palm/nucleic/purchase; a hospital's own 自助登记): the patient, the test, the notice, and
 * 立即支付 through the payment core; the cashier comes back to the order list, which shows the sampling QR code.
 */
function NucleicPurchase({ urls }: { urls: ReturnType<typeof nucleicUrls> }) {
  const { hospital } = useStores()
  const patients = usePatientStore()
  const store = useNucleicStore()
  const kinds = store.kinds.value
  const kind = store.kind

  const load = async () => {
    await Promise.all([patients.load().catch(() => undefined), store.loadKinds()])
  }

  const pay = async () => {
    const done = await store.buy(`/h5${urls.orderList}`).catch(() => null)
    if (!done) return
    if (done.outcome === 'cancelled') toastError('支付已取消，可在我的订单中继续支付')
    if (done.outcome === 'paid' || done.outcome === null) void Taro.redirectTo({ url: urls.orderList })
  }

  return (
    <PageShell title='核酸检测开单' onReady={load}>
      {!hospital.hospital ? (
        <NoHospital />
      ) : (
        <View className='nucleic'>
          <View className='nucleic__card'>
            <Text className='nucleic__heading'>就诊人</Text>
            <PatientPicker onChoose={(p) => patients.choose(p)} />
          </View>
          <View className='nucleic__card'>
            <Text className='nucleic__heading'>检测项目</Text>
            {!kinds && store.kinds.state === 'failed' && <LoadFailed onRetry={() => void store.loadKinds()} />}
            {!kinds && store.kinds.state !== 'failed' && <Loading />}
            <View role='radiogroup' aria-label='检测项目'>
              {kinds?.map((k) => (
                <Tappable
                  key={k.code}
                  role='radio'
                  checked={store.kindCode === k.code}
                  className={`nucleic__choice${store.kindCode === k.code ? ' nucleic__choice--on' : ''}`}
                  label={`${k.name}，${yuan(k.priceFen)}`}
                  onTap={() => store.chooseKind(k.code)}
                >
                  <View className='nucleic__kind-head'>
                    <Text className='nucleic__kind-name'>{`${store.kindCode === k.code ? '● ' : '○ '}${k.name}`}</Text>
                    <Text className='nucleic__price'>{yuan(k.priceFen)}</Text>
                  </View>
                  <Text className='nucleic__line'>{k.description}</Text>
                </Tappable>
              ))}
            </View>
          </View>
          <View className='nucleic__card'>
            <Text className='nucleic__heading'>检测须知</Text>
            <Text className='nucleic__line'>1. 缴费成功后凭采样码到采样点采样，请携带身份证件。</Text>
            <Text className='nucleic__line'>2. 采样前30分钟内请勿进食、饮水、吸烟、嚼口香糖。</Text>
            <Text className='nucleic__line'>3. 采样前可在“我的订单”中取消，费用原路退回；采样后不能取消。</Text>
          </View>
          <ActionBar amount={kind ? { label: '合计', value: yuan(kind.priceFen) } : undefined} note={patients.current ? null : '请先选择就诊人'}>
            <Button type='primary' block disabled={!kind || !patients.current} loading={store.payment.busy} onClick={() => void pay()}>
              立即支付
            </Button>
          </ActionBar>
        </View>
      )}
    </PageShell>
  )
}

export default observer(NucleicPurchase)
