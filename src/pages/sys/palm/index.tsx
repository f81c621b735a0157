import { useEffect } from 'react'
import { reaction } from 'mobx'
import HomePage from '@/components/HomePage'
import { useStores } from '@/stores'

/**
 * 掌上医院's home: its entries are the hospital's menu config (GET /common/menuConfig/{hospitalId}), read once startup
 * knows the hospital and again when it changes; HomePage draws them by the hospital's role and the rules of
 * utils/homeMenus.ts, as every home does.
 */
export default function PalmHome() {
  const root = useStores()
  useEffect(
    () =>
      reaction(
        () => (root.started ? root.hospital.hospital?.id : undefined),
        (hospitalId) => {
          if (hospitalId) void root.hospital.loadMenus()
        },
        { fireImmediately: true },
      ),
    [root],
  )
  return <HomePage title='掌上医院' />
}
