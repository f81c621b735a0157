import { View, Text, Image } from '@tarojs/components'
import Tappable from '../Tappable'
import Taro from '@tarojs/taro'
import { MSG } from '@/ui/messages'
import { HOSPITAL_LIST_URL } from '@/pageUrls'
import emptyArt from '@/assets/empty.svg'
import failedArt from '@/assets/failed.svg'
import './index.scss'

/** What to do next from an empty or failed state: one action, named by what it does (去挂号, 重新加载, 选择医院). */
export interface EmptyAction {
  label: string
  onTap: () => void
}

interface Props {
  text: string
  action?: EmptyAction
  /** A load that failed: a cloud instead of the empty clipboard. */
  failed?: boolean
}

/**
 * An honest empty or failed state: a picture, what is missing or went wrong in words, and where there is one, the
 * one thing to do next as a button (not a bare word), so that a patient is never left on a blank page.
 */
export default function Empty({ text, action, failed }: Props) {
  return (
    <View className='empty'>
      <Image className='empty__art' src={failed ? failedArt : emptyArt} mode='aspectFit' aria-hidden='true' />
      <Text className='empty__text'>{text}</Text>
      {action && (
        <Tappable className='empty__action' onTap={action.onTap}>
          {action.label}
        </Tappable>
      )}
    </View>
  )
}

/** A load that failed (spec §8 加载失败), with 重新加载 (or the caller's own retry, e.g. 重新搜索). */
export function LoadFailed({ onRetry, text = MSG.listFailed, retryLabel = '重新加载' }: { onRetry: () => void; text?: string; retryLabel?: string }) {
  return <Empty failed text={text} action={{ label: retryLabel, onTap: onRetry }} />
}

/** A page that needs the hospital before anything else (the hospital is chosen on 首页 or the hospital list). */
export function NoHospital() {
  return <Empty text='请先选择医院' action={{ label: '选择医院', onTap: () => void Taro.navigateTo({ url: HOSPITAL_LIST_URL }) }} />
}

/** A page's content on its way (spec §8 加载中...). */
export function Loading() {
  return <Text className='empty__loading'>{MSG.listLoading}</Text>
}
