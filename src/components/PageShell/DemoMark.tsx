import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useStores } from '@/stores'
import platform from '@/platform'
import './DemoMark.scss'

export const DEMO_MARK_TEXT = '演示环境'
/** Its accessible name: what the mark means, for someone who cannot see where it sits. */
export const DEMO_MARK_NAME = '演示环境：本系统仅供演示和培训使用'

/**
 * The 演示环境 mark of a demo or training server (the server says so in homePageConfig's `demo`): a small note in the
 * navigation bar's right end, which holds nothing else, so it covers no button and never the tab bar; taps go through it.
 *
 * PageShell renders it, once per page frame, rather than App: in Taro 4's H5 build App's children are the page
 * containers of the router, whose stylesheet hides a shown page that is not the container's last child
 * (`.taro_page_stationed:not(:last-child)`), so an element after them would blank the page; and the mini-programs
 * render nothing of App's own. Every page is framed by PageShell (the page tests check it).
 */
function DemoMark() {
  const { hospital } = useStores()
  if (!hospital.demo) return null
  // a mini-program's capsule menu button holds the bar's right end: the mark goes just below the bar instead
  const frame = platform.navBarFrame()
  return (
    <View className='demo-mark' role='note' aria-label={DEMO_MARK_NAME} style={frame ? { top: `${frame.top + frame.height + 4}px` } : undefined}>
      <Text className='demo-mark__text'>{DEMO_MARK_TEXT}</Text>
    </View>
  )
}

export default observer(DemoMark)
