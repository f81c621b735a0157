import { useEffect, useState, type ReactNode } from 'react'
import { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useStores } from '@/stores'
import { ELDER_CLASS } from '@/stores/PreferencesStore'
import { MSG } from '@/ui/messages'
import { pathOf } from '@/utils/routeRules'
import NavBar from '../NavBar'
import TabBar from '../TabBar'
import DemoMark from './DemoMark'
import Tappable from '../Tappable'
import './index.scss'

/** spec §2, §9: the loading placeholder shows after 200 ms, the load-error one after 60 s. */
export const LOADING_DELAY_MS = 200
export const LOAD_TIMEOUT_MS = 60_000

interface Props {
  title: string
  /** Tab pages show the bottom tab bar of the hospital's role. */
  tab?: boolean
  back?: boolean
  /** Loads the page's data once the startup and the login gate have passed. */
  onReady?: () => Promise<unknown> | void
  children: ReactNode
}

/** Parameters Taro's H5 router adds to every page. */
const ROUTER_PARAMS = ['$taroTimestamp', 'stamp']

type Phase = 'starting' | 'ready' | 'redirecting' | 'failed'

function urlOf(path: string, params: Record<string, string | undefined>) {
  const query = Object.entries(params)
    .filter(([k, v]) => v !== undefined && !ROUTER_PARAMS.includes(k))
    .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`)
    .join('&')
  return `${path}${query ? `?${query}` : ''}`
}

/** Every page's frame: navigation bar, startup and login gate, delayed placeholders, tab bar. */
function PageShell({ title, tab, back, onReady, children }: Props) {
  const root = useStores()
  const router = useRouter()
  const [phase, setPhase] = useState<Phase>('starting')
  const [slow, setSlow] = useState(false)
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    let alive = true
    setPhase('starting')
    const slowTimer = setTimeout(() => alive && setSlow(true), LOADING_DELAY_MS)
    const failTimer = setTimeout(() => alive && setPhase((p) => (p === 'starting' ? 'failed' : p)), LOAD_TIMEOUT_MS)
    const path = pathOf(router.path)
    root
      .enterPage(urlOf(path, router.params), router.params)
      .then(async (result) => {
        if (!alive) return
        if (result === 'ready' && onReady) await onReady()
        if (alive) setPhase(result)
      })
      .catch(() => alive && setPhase('failed'))
    return () => {
      alive = false
      clearTimeout(slowTimer)
      clearTimeout(failTimer)
    }
    // onReady is the page's loader; rerun only on retry
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attempt])

  return (
    <View className={`page-shell${tab ? ' page-shell--tab' : ''}${root.preferences.elderMode ? ` ${ELDER_CLASS}` : ''}`}>
      <NavBar title={title} back={back} home={!tab && back !== false} />
      <DemoMark />
      {phase === 'ready' && children}
      {phase === 'starting' && slow && (
        <View className='page-shell__placeholder' role='status'>
          <View className='page-shell__spinner' />
          <Text>{MSG.pageLoading}</Text>
        </View>
      )}
      {phase === 'failed' && (
        <View className='page-shell__placeholder' role='alert'>
          <Text>{MSG.pageLoadFailed}</Text>
          <Tappable className='page-shell__retry' onTap={() => setAttempt((n) => n + 1)}>
            重新加载
          </Tappable>
        </View>
      )}
      {tab && phase === 'ready' && <TabBar />}
    </View>
  )
}

export default observer(PageShell)

export { openPage } from './openPage'
