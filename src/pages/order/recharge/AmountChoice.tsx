import { View, Text, Input } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import Tappable from '@/components/Tappable'
import ActionBar from '@/components/ActionBar'
import { Button } from '@/components/Button'
import { fenToYuan } from '@/utils/number'
import { yuan } from '@/utils/register'
import type { RechargeStore } from '@/stores/RechargeStore'
import './AmountChoice.scss'

/**
 * 充值金额: the choices as radios (one tap picks; a screen reader hears which is picked), and an amount of the
 * patient's own in yuan, checked as it is typed against the server's limits.
 */
function AmountChoice({ store }: { store: RechargeStore }) {
  const error = store.amountError
  return (
    <View className='amount-choice'>
      <Text className='amount-choice__heading' id='amount-choice-heading'>
        充值金额
      </Text>
      <View className='amount-choice__grid' role='radiogroup' aria-labelledby='amount-choice-heading'>
        {store.choices.map((fen) => (
          <Tappable
            key={fen}
            role='radio'
            checked={store.chosenFen === fen}
            label={`${fenToYuan(fen).replace(/\.00$/, '')}元`}
            className={`amount-choice__item${store.chosenFen === fen ? ' amount-choice__item--on' : ''}`}
            onTap={() => store.choose(fen)}
          >
            <Text className='amount-choice__value'>{fenToYuan(fen).replace(/\.00$/, '')}</Text>
            <Text className='amount-choice__unit'>元</Text>
          </Tappable>
        ))}
      </View>
      <View className={`amount-choice__own${store.chosenFen === null && store.ownText ? ' amount-choice__own--on' : ''}`}>
        <Text className='amount-choice__own-label'>其他金额</Text>
        <Input
          className='amount-choice__input'
          type='digit'
          placeholder={`请输入${fenToYuan(store.limits.minFen).replace(/\.00$/, '')}-${fenToYuan(store.limits.maxFen).replace(/\.00$/, '')}元`}
          maxlength={11}
          value={store.ownText}
          aria-label='其他金额（元）'
          aria-invalid={error ? 'true' : 'false'}
          onInput={(e) => store.setOwn(e.detail.value)}
        />
        <Text className='amount-choice__own-unit'>元</Text>
      </View>
      {error ? (
        <View className='amount-choice__note amount-choice__note--warn' role='alert'>
          {error}
        </View>
      ) : (
        <Text className='amount-choice__note'>
          单笔充值{yuan(store.limits.minFen)}至{yuan(store.limits.maxFen)}
        </Text>
      )}
    </View>
  )
}

export default observer(AmountChoice)

/** The foot of a top-up page: the amount chosen and 立即充值 (paying is the page's: `onPay`). */
function TopUpBarView({ store, onPay }: { store: RechargeStore; onPay: () => void }) {
  const amount = store.amountFen
  return (
    <ActionBar amount={{ label: '充值金额', value: amount === null ? '¥0.00' : yuan(amount) }} note={amount === null ? '请选择或输入充值金额' : null}>
      <Button type='primary' block disabled={amount === null} loading={store.payment.busy} onClick={onPay}>
        立即充值
      </Button>
    </ActionBar>
  )
}

export const TopUpBar = observer(TopUpBarView)
