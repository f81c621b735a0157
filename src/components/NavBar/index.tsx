import { useRef } from 'react'
import Taro, { useDidShow } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import platform from '@/platform'
import Tappable from '../Tappable'
import { HOME_URL } from '@/pageUrls'
import './index.scss'

interface Props {
  title: string
  /** Show the back arrow; defaults to "there is a page to go back to". */
  back?: boolean
  /**
   * With no page to go back to (a page opened from a link, or back from the cashier), a way home instead: every page
   * but the tab pages, which have the tab bar.
   */
  home?: boolean
}

/**
 * The page's heading (Taro's Text has no `role` in its types; the attributes reach the element in H5), focusable
 * by script only (H5) so that focus can be put on it, not a stop of the Tab order.
 */
const HEADING: Record<string, unknown> = { role: 'heading', 'aria-level': '1', ...(platform.keyboard ? { tabIndex: -1 } : {}) }

/**
 * spec §2: every page has a custom navigation bar on #E0F2FC; its title is in the primary colour, not the spec's
 * white, which cannot be read on it (src/styles/tokens.scss). The title is the page's heading, and on H5
 * focus goes to it whenever the page is shown (opened, or come back to), so a screen reader reads the new page.
 * In a mini-program the bar sits below the status bar, as tall as the capsule menu button's row and clear of it
 * (platform.navBarFrame).
 */
export default function NavBar({ title, back, home }: Props) {
  const canGoBack = back ?? Taro.getCurrentPages().length > 1
  const titleRef = useRef<unknown>(null)
  // as the page shows: opened, or come back to
  useDidShow(() => platform.focusTitle(titleRef.current))

  const frame = platform.navBarFrame()
  return (
    <View className='nav-bar' style={frame ? { paddingTop: `${frame.top}px` } : undefined}>
      {/* clear of the capsule on the right, and as far from the left edge, so the title stays centred */}
      <View className='nav-bar__bar' style={frame ? { height: `${frame.height}px`, padding: `0 ${frame.right}px` } : undefined}>
        {canGoBack && (
          <Tappable className='nav-bar__back' label='返回' onTap={() => void Taro.navigateBack()}>
            <Text className='nav-bar__arrow' />
          </Tappable>
        )}
        {!canGoBack && home && (
          <Tappable className='nav-bar__home' onTap={() => void Taro.reLaunch({ url: HOME_URL })}>
            返回首页
          </Tappable>
        )}
        <Text ref={titleRef} className='nav-bar__title' {...HEADING}>
          {title}
        </Text>
      </View>
    </View>
  )
}
