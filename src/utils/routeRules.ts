/** spec §4 / §6: pages anyone may open; every other page needs a bound user (id != 0). */
export const OPEN_PAGES = [
  '/pages/sys/index',
  '/pages/sys/merge/index',
  '/pages/sys/palm/index',
  '/pages/sys/internet/index',
  '/pages/sys/knowledge/index',
  '/pages/sys/knowledge/detail',
  '/pages/sys/user/index',
  '/pages/login/index',
  '/pages/login/login',
  '/pages/permission',
  '/pages/notFound/index',
  '/pages/hospital/index',
  '/pages/about/index',
  '/pages/about/rich',
  '/pages/about/consent',
  '/pages/introduce/index',
  '/pages/introduce/html',
  '/pages/introduce/doctor',
  '/pages/introduce/dept',
  // the health tools answer anyone: a visitor may use them without binding a mobile
  '/internet/hepatitisTest/hepatitis-test',
  '/internet/hepatitisTest/hepatitis-result',
  '/internet/babyBlood/index',
  '/internet/inspectRead/inspect-read',
  '/internet/inspectRead/inspect-detail',
]

/**
 * Pages that run without the startup check (spec §2: login and about), and the no-permission page: it is where
 * a 2999 answer leads, so it must not depend on the calls of startup, which may be the ones answering 2999.
 */
export const NO_STARTUP_PAGES = ['/pages/login/index', '/pages/login/login', '/pages/about/index', '/pages/about/rich', '/pages/about/consent', '/pages/permission']

/** The page path of a URL, without its query and without the H5 base /h5 that Taro's router reports. */
export const pathOf = (url: string) => {
  const path = (url.split('?')[0] || '/').replace(/^\/h5(?=\/|$)/, '') || '/'
  return path === '/' ? '/pages/sys/index' : path.startsWith('/') ? path : `/${path}`
}

export const isOpenPage = (url: string) => OPEN_PAGES.includes(pathOf(url))
export const skipsStartup = (url: string) => NO_STARTUP_PAGES.includes(pathOf(url))

/**
 * spec §4 sourceType of the bind page: internet pages 5; palm and custom pages 0; physical payment 4;
 * palm waitPay via scanCode 2; shop pages 9; otherwise 8.
 */
export function sourceTypeFor(url: string): number {
  const path = pathOf(url)
  const query = new URLSearchParams(url.split('?')[1] ?? '')
  if (path === '/palm/physical/payment' || path === '/physical/payment') return 4
  if (path === '/palm/payment/waitPay' && query.get('source') === 'scanCode') return 2
  if (path.startsWith('/internet/')) return 5
  if (path.startsWith('/palm/') || path.startsWith('/custom/')) return 0
  if (path.startsWith('/pages/shop/') || path === '/pages/storePayment/index' || path.startsWith('/pages/order/shop/')) return 9
  return 8
}
