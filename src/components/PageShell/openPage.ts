import Taro from '@tarojs/taro'
import platform from '@/platform'
import { isBuiltPage } from '@/routes'
import { MSG } from '@/ui/messages'

/** Opens a page of the app from a menu entry; one that is not built yet says so instead of a blank page. */
export function openPage(url: string) {
  if (!isBuiltPage(url)) {
    void Taro.showToast({ title: MSG.comingSoon, icon: 'none', duration: 2000 })
    platform.announce(MSG.comingSoon)
    return
  }
  void Taro.navigateTo({ url })
}
