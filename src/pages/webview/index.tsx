import { useEffect } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { WebView } from '@tarojs/components'
import Empty from '@/components/Empty'
import { WEBVIEW_CLOSED } from '@/pageUrls'

/**
 * A page of this hospital's server inside a mini-program (the sandbox cashier, the server's own pages): `?url=` is
 * shown only when it is on the allow-list, the server's own origin (API_BASE) and the sites the build names
 * (WEBVIEW_ORIGINS: the cloud film viewer), which are also what the hospital whitelists as web-view business domains
 * (README); anything else is refused, so a link cannot turn the
 * mini-program into a window on any site. When the page comes back to an address of this app (a cashier's return URL
 * under /h5/), the web-view closes by itself; either way, closing tells whoever opened it (WEBVIEW_CLOSED), and the
 * app carries on where it was: the order's own page asks the server how the payment went.
 */
export const allowedWebPage = (url: string) => !url.includes('@') && [API_BASE, ...WEBVIEW_ORIGINS].some((origin) => !!origin && url.startsWith(`${origin}/`))

export default function WebViewPage() {
  const { params } = useRouter()
  const url = decodeURIComponent(params.url ?? '')
  const allowed = allowedWebPage(url)

  useEffect(() => () => void Taro.eventCenter.trigger(WEBVIEW_CLOSED), [])

  if (!allowed) return <Empty text='无法打开该页面' action={{ label: '返回', onTap: () => void Taro.navigateBack() }} />
  return (
    <WebView
      src={url}
      onLoad={(e) => {
        const src = (e.detail as { src?: string }).src ?? ''
        if (src.startsWith(`${API_BASE}/h5/`)) void Taro.navigateBack()
      }}
    />
  )
}
