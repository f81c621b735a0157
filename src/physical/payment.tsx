import Taro, { useRouter } from '@tarojs/taro'
import { useEffect } from 'react'
import { Loading } from '@/components/Empty'
import PageShell from '@/components/PageShell'

/** /physical/payment (spec §2 names the page twice): the same appointment at /palm/physical/payment, query kept. */
export default function PhysicalPaymentAlias() {
  const { params } = useRouter()
  useEffect(() => {
    const query = Object.entries(params)
      .filter(([k, v]) => k !== '$taroTimestamp' && v !== undefined)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join('&')
    void Taro.redirectTo({ url: `/palm/physical/payment${query ? `?${query}` : ''}` })
  }, [params])
  return (
    <PageShell title='体检缴费'>
      <Loading />
    </PageShell>
  )
}
