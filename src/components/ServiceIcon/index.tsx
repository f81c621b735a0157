import type { FunctionComponent } from 'react'
import { View } from '@tarojs/components'
import { Articles, Cart, Category, Clock, Comment, Doctor, Edit, Health, Heart, Home, List, List2, Notice, Order, Prices, Scan, Search, Service, ShieldCheck, Tips, ToPay, User, Wallet, Warning } from '@nutui/icons-react-taro'
import './index.scss'

/**
 * The icon of each service the hospital's menus name (MenuEntry.icon), from NutUI's icon package, imported one by
 * one. An icon the app does not know yet shows a neutral one; the service's name is always written beside it.
 */
const GLYPHS: Record<string, FunctionComponent<{ className?: string }>> = {
  register: Order,
  payment: ToPay,
  report: Articles,
  queue: Notice,
  inpatient: Health,
  physical: ShieldCheck,
  price: Prices,
  ai: Service,
  patient: User,
  inquiry: Comment,
  fever: Warning,
  prescription: Edit,
  doctor: Doctor,
  record: List,
  test: Tips,
  bloodType: Heart,
  inspectRead: Search,
  scan: Scan,
  selfService: List2,
  recharge: Wallet,
  introduce: Home,
  inspectReserve: Clock,
  nucleic: Tips,
  shop: Cart,
}

/** A service's icon in its coloured tile; decoration only (the name beside it is what a screen reader reads). */
export default function ServiceIcon({ name }: { name: string }) {
  const Glyph = GLYPHS[name] ?? Category
  return (
    <View className={`service-icon service-icon--${name}`} aria-hidden>
      <Glyph className='service-icon__glyph' />
    </View>
  )
}
