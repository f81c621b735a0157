import { useState } from 'react'
import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import { LoadFailed, NoHospital } from '@/components/Empty'
import AgreeCheck from '@/components/AgreeCheck'
import { useStores } from '@/stores'
import { MSG } from '@/ui/messages'

import './index.scss'
import { DEPT_LIST_URL } from '@/pageUrls'
import { useRegisterStore } from '@/stores/RegisterStore'

/** The hospital setting that turns on free 普通号 for older patients (the server's register.freeForElderly). */
const FREE_FOR_ELDERLY_KEY = 'register.freeForElderly'

/**
 * 预约挂号 notice (spec §2 /palm/register/index): the hospital's registration rules, read and agreed before booking,
 * and whether the hospital waives the 普通号 fee for older patients (its public setting, hospital/config).
 */
function RegisterNotice() {
  const { hospital } = useStores()
  const register = useRegisterStore()
  const [agreed, setAgreed] = useState(false)
  const [freeForElderly, setFreeForElderly] = useState(false)
  const rules = register.catalogue.rules.value

  const load = () =>
    register.catalogue.hospital
      ? Promise.all([
          register.catalogue.loadRules().catch(() => undefined),
          hospital.setting(FREE_FOR_ELDERLY_KEY).then((v) => setFreeForElderly(v === 'true')),
        ])
      : undefined

  return (
    <PageShell title='预约挂号' onReady={load}>
      {!register.catalogue.hospital ? (
        <NoHospital />
      ) : register.catalogue.rules.state === 'failed' ? (
        <LoadFailed onRetry={() => void load()} />
      ) : !rules ? (
        <Text className='register-notice__loading'>{MSG.listLoading}</Text>
      ) : (
        <View className='register-notice'>
          <View className='register-notice__card'>
            <Text className='register-notice__title'>挂号须知</Text>
            {rules.notice
              .split('\n')
              .filter((line) => line.trim())
              .map((line, i) => (
                <Text key={i} className='register-notice__line'>
                  {line}
                </Text>
              ))}
            <View className='register-notice__facts'>
              <Text className='register-notice__fact'>可预约未来{rules.bookDays}天内的号源</Text>
              <Text className='register-notice__fact'>预约后请在{rules.holdMinutes}分钟内完成支付，超时号源将自动释放</Text>
              <Text className='register-notice__fact'>取消规则：{rules.cancelRule}</Text>
              {freeForElderly && <Text className='register-notice__fact'>敬老服务：本院老年人预约普通号免挂号费，确认挂号时按就诊人年龄自动减免</Text>}
            </View>
          </View>
          <View className='register-notice__agree'>
            <AgreeCheck checked={agreed} onChange={setAgreed}>
              我已阅读并同意
            </AgreeCheck>
          </View>
          <View className='register-notice__next'>
            <Button type='primary' block disabled={!agreed} onClick={() => void Taro.navigateTo({ url: DEPT_LIST_URL })}>
              开始挂号
            </Button>
          </View>
        </View>
      )}
    </PageShell>
  )
}

export default observer(RegisterNotice)
