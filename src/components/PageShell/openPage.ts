import Taro from '@tarojs/taro'
import { isBuiltPage } from '@/routes'
import { MSG } from '@/services/messages'

export function openPage(url: string) {
  if (!isBuiltPage(url)) {
    void Taro.showToast({ title: MSG.comingSoon, icon: 'none', duration: 2000 })
    return
  }
  void Taro.navigateTo({ url })
}
