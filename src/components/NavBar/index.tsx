import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import './index.scss'

interface Props {
  title: string
  /** Show the back arrow; defaults to "there is a page to go back to". */
  back?: boolean
}

/** spec §2: every page has a custom navigation bar, white text on #E0F2FC. */
export default function NavBar({ title, back }: Props) {
  const canGoBack = back ?? Taro.getCurrentPages().length > 1
  return (
    <View className='nav-bar'>
      {canGoBack && (
        <View className='nav-bar__back' aria-label='返回' onClick={() => void Taro.navigateBack()}>
          <Text className='nav-bar__arrow' />
        </View>
      )}
      <Text className='nav-bar__title'>{title}</Text>
    </View>
  )
}
