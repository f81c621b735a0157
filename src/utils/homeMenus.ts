import type { MenuEntry } from '../../types/api/hospital'

/**
 * 长辈模式's home puts the services older patients use most in one group at the top, at most this many, in this
 * order (the menu's icon key names the service): book, pay, read reports, the inpatient deposit, consult a doctor,
 * manage patients, then the rest.
 */
export const ELDER_SERVICES_MAX = 6
export const ELDER_SERVICE_ORDER = ['register', 'payment', 'report', 'inpatient', 'inquiry', 'patient', 'queue', 'prescription', 'record', 'doctor'] as const
export const ELDER_GROUP = '常用服务'

/**
 * The entries one service family shows (spec §6: the menu list sets visible roles): a palm-only or internet-only
 * hospital shows its own family's entries and those for both; a hospital with both shows them all.
 */
export function menusFor(menus: MenuEntry[], role: MenuEntry['role']): MenuEntry[] {
  return role === 'all' ? menus : menus.filter((m) => m.role === role || m.role === 'all')
}

/** The home's menu groups, in the order the hospital configured them (an entry without a group is a 服务). */
export function groupMenus(menus: MenuEntry[]): [string, MenuEntry[]][] {
  const groups = new Map<string, MenuEntry[]>()
  for (const m of menus) groups.set(m.group ?? '服务', [...(groups.get(m.group ?? '服务') ?? []), m])
  return [...groups.entries()]
}

/**
 * The groups an elder sees: 常用服务 first with the most used services the hospital offers, then the other groups
 * without them (nothing shows twice, and a group left empty is left out).
 */
export function elderMenus(menus: MenuEntry[]): [string, MenuEntry[]][] {
  const rank = (m: MenuEntry) => ELDER_SERVICE_ORDER.indexOf(m.icon as (typeof ELDER_SERVICE_ORDER)[number])
  const featured = menus
    .filter((m) => rank(m) >= 0)
    .sort((a, b) => rank(a) - rank(b))
    .slice(0, ELDER_SERVICES_MAX)
  const rest = groupMenus(menus.filter((m) => !featured.includes(m))).filter(([, items]) => items.length > 0)
  return featured.length ? [[ELDER_GROUP, featured], ...rest] : rest
}
