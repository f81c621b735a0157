import type { AlipaySettings } from '../../config'
import { rsaVerify } from './rsa'
import { fenToYuan } from '@/utils/number'
import { alipayGateway, alipaySignContent, alipayTime, fromAlipayTime } from './alipay'
import { returnWithOrderNo, yuanToFen, type FetchLike, type PayProvider } from './pay'

/**
 * Alipay for patients inside Alipay: `alipay.trade.wap.pay` as a signed page redirect (the web app), or
 * `alipay.trade.create` for the signed-in buyer, paid with my.tradePay (the mini-program); RSA2 notifications,
 * `alipay.trade.query` and `alipay.trade.refund` (synchronous: its answer is final).
 */
export function alipayPay(cfg: AlipaySettings, publicUrl: string, fetchImpl: FetchLike = fetch): PayProvider & { readonly appId: string } {
  const gateway = alipayGateway(cfg, fetchImpl)
  const base = publicUrl.replace(/\/$/, '')
  const notifyUrl = `${base}/dld-pay/notify/alipay`
  const call = (method: string, biz: Record<string, unknown>) => gateway.call(method, { biz_content: JSON.stringify(biz) })

  return {
    channel: 'alipay',
    appId: cfg.appId,
    async pay(req) {
      if (req.alipayBuyer) {
        // a user id (2088…) or, for apps created since Alipay's open id, an open id
        const buyer = /^2088\d{12}$/.test(req.alipayBuyer) ? { buyer_id: req.alipayBuyer } : { buyer_open_id: req.alipayBuyer }
        const a = await gateway.call('alipay.trade.create', {
          notify_url: notifyUrl,
          biz_content: JSON.stringify({
            out_trade_no: req.orderNo,
            total_amount: fenToYuan(req.amountFen),
            subject: `${req.hospitalName}-${req.subject}`.slice(0, 128),
            product_code: 'JSAPI_PAY',
            op_app_id: cfg.appId,
            time_expire: alipayTime(req.expiresAt),
            ...buyer,
          }),
        })
        if (a.code !== '10000' || !a.trade_no) throw new Error(`Alipay trade.create answered ${a.code ?? '?'} ${a.sub_msg ?? a.msg ?? ''}`)
        return { kind: 'tradePay', channel: 'alipay', tradeNo: a.trade_no }
      }
      const back = `${base}${returnWithOrderNo(req.returnUrl, req.orderNo)}`
      const params = gateway.signed('alipay.trade.wap.pay', {
        notify_url: notifyUrl,
        return_url: back,
        biz_content: JSON.stringify({
          out_trade_no: req.orderNo,
          total_amount: fenToYuan(req.amountFen),
          subject: `${req.hospitalName}-${req.subject}`.slice(0, 128),
          product_code: 'QUICK_WAP_WAY',
          time_expire: alipayTime(req.expiresAt),
          quit_url: back,
        }),
      })
      return { kind: 'redirect', channel: 'alipay', url: `${gateway.url}?${new URLSearchParams(params).toString()}` }
    },
    verifyNotification(_headers, rawBody) {
      const form = Object.fromEntries(new URLSearchParams(rawBody).entries())
      if (form.sign_type !== 'RSA2' || !form.sign || !rsaVerify(alipaySignContent(form, true), form.sign, cfg.alipayPublicKey)) return null
      if (form.app_id !== cfg.appId || !form.notify_id || !form.out_trade_no) return null
      const { sign: _sign, ...payload } = form
      if (form.out_biz_no && form.refund_fee) {
        return {
          kind: 'refund',
          notifyId: form.notify_id,
          payload,
          refundNo: form.out_biz_no,
          orderNo: form.out_trade_no,
          providerRefundNo: form.trade_no ?? null,
          amountFen: yuanToFen(form.refund_fee),
          succeeded: true,
        }
      }
      if (form.trade_status !== 'TRADE_SUCCESS' && form.trade_status !== 'TRADE_FINISHED') return { kind: 'ignored', notifyId: form.notify_id, payload }
      const amountFen = yuanToFen(form.total_amount ?? '')
      if (!form.trade_no || Number.isNaN(amountFen)) return null
      return { kind: 'paid', notifyId: form.notify_id, payload, orderNo: form.out_trade_no, tradeNo: form.trade_no, amountFen, currency: 'CNY', paidAt: fromAlipayTime(form.gmt_payment) }
    },
    async query(orderNo) {
      const a = await call('alipay.trade.query', { out_trade_no: orderNo })
      if (a.code !== '10000' || a.out_trade_no !== orderNo || !a.trade_no) return null
      if (a.trade_status !== 'TRADE_SUCCESS' && a.trade_status !== 'TRADE_FINISHED') return null
      return { orderNo, tradeNo: a.trade_no, amountFen: yuanToFen(a.total_amount ?? ''), currency: 'CNY', paidAt: fromAlipayTime(a.send_pay_date) }
    },
    async refund(req) {
      const a = await call('alipay.trade.refund', {
        ...(req.tradeNo ? { trade_no: req.tradeNo } : { out_trade_no: req.orderNo }),
        refund_amount: fenToYuan(req.amountFen),
        refund_reason: req.reason,
        out_request_no: req.refundNo,
      })
      // 10000 is final (asked again with the same out_request_no it answers the same refund); 40004 is a refusal
      if (a.code === '10000') return { status: 'succeeded', providerRefundNo: a.trade_no ?? null }
      if (a.code === '40004') return { status: 'failed', providerRefundNo: null }
      throw new Error(`Alipay refund answered ${a.code ?? '?'}`)
    },
    ack: (ok) => ({ status: 200, contentType: 'text/plain; charset=utf-8', body: ok ? 'success' : 'fail' }),
  }
}
