import { useState } from 'react'
import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@/components/Button'
import PageShell from '@/components/PageShell'
import { useStores } from '@/stores'
import './index.scss'
import { HOME_URL } from '@/pageUrls'

/** The return from WeChat / Alipay authorisation (/h5/pages/login/login?code&state): sign in once, go back. */
export default function AuthReturn() {
  const root = useStores()
  const [error, setError] = useState('')

  const complete = async () => {
    try {
      const target = await root.user.returnFromAuthorization()
      await Taro.reLaunch({ url: target })
    } catch (e) {
      setError(e instanceof Error ? e.message : '登录失败')
    }
  }

  return (
    <PageShell title='登录中' back={false} onReady={complete}>
      {error ? (
        <View>
          <Text className='login__error'>{error}</Text>
          <Button className='login__submit' type='primary' block onClick={() => void Taro.reLaunch({ url: HOME_URL })}>
            重新进入
          </Button>
        </View>
      ) : (
        <Text className='login__error'>正在登录...</Text>
      )}
    </PageShell>
  )
}
