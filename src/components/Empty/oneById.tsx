import Empty, { LoadFailed, Loading } from '.'
import type { Loadable } from '@/stores/base/Loadable'

/**
 * A page of one thing named by the id in its address, read through a Loadable: the value once it is that one (not the
 * one shown before), its load for the page's onReady, and what shows until then (no id, 加载中..., 加载失败 with a retry).
 */
export function oneById<T extends { id: number }>(loadable: Loadable<T, [number]>, id: number, missing: string) {
  const value = loadable.value?.id === id ? loadable.value : null
  const load = async () => {
    if (!id) return
    if (!value) loadable.reset()
    await loadable.load(id).catch(() => undefined)
  }
  const placeholder = !id ? <Empty text={missing} /> : value ? null : loadable.state === 'failed' ? <LoadFailed onRetry={() => void load()} /> : <Loading />
  return { value, load, placeholder }
}
