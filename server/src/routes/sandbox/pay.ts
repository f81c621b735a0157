import type { FastifyInstance, FastifyReply } from 'fastify'
import { z } from 'zod'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { isReturnUrl } from '../../domain/payment'
import { returnWithOrderNo } from '../../plugins/providers/pay'
import type { SandboxPay } from '../../plugins/providers/paySandbox'
import { fenToYuan } from '@/utils/number'

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function page(title: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{margin:0;font-family:-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f2f4f7;color:#222}
.top{background:#1677ff;color:#fff;padding:22px 20px 30px;text-align:center}.top p{margin:0;font-size:14px;opacity:.9}
.amount{font-size:38px;font-weight:600;margin:10px 0 0}.amount small{font-size:20px;margin-right:4px}
.card{margin:-14px 16px 16px;background:#fff;border-radius:12px;padding:4px 16px}
.row{display:flex;justify-content:space-between;padding:14px 0;border-bottom:1px solid #eee;font-size:15px}
.row:last-child{border-bottom:0}.row span:first-child{color:#888;flex:none;margin-right:16px}.row span:last-child{text-align:right}
form{margin:24px 16px}button{display:block;width:100%;border:0;border-radius:8px;padding:14px;font-size:17px;margin-bottom:12px}
.pay{background:#1677ff;color:#fff}.cancel{background:#fff;color:#576b95}
.tag{font-size:12px;color:#999;text-align:center;margin:12px}.err{padding:40px 20px;text-align:center}</style></head><body>${body}</body></html>`
}

const cashierQuery = z.object({
  orderNo: z.string().min(1).max(32),
  returnUrl: z.string().min(1).max(500),
  sign: z.string().min(1).max(128),
})
const cashierBody = cashierQuery.extend({ action: z.enum(['confirm', 'cancel']) })

/**
 * The sandbox cashier (收银台), standing in for the provider's own page: it shows what is being paid and takes the
 * money on 确认支付; the notification then reaches `/dld-pay/notify/sandbox` in the background, as a real provider's
 * would. Its URL is signed, so the page cannot be pointed at another order or sent back elsewhere.
 */
export async function sandboxPayRoutes(app: FastifyInstance, sandbox: SandboxPay) {
  const r = app.withTypeProvider<ZodTypeProvider>()
  const refuse = (reply: FastifyReply, why: string, status = 400) =>
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      .send(page('支付失败', `<div class="err"><h1>无法支付</h1><p>${escapeHtml(why)}</p></div><p class="tag">支付沙箱 · 不会产生真实扣款</p>`))

  const genuine = (q: z.infer<typeof cashierQuery>) => isReturnUrl(q.returnUrl) && sandbox.verifyCashier(q.orderNo, q.returnUrl, q.sign)

  r.get('/sandbox/pay/cashier', { schema: { hide: true, querystring: cashierQuery } }, async (req, reply) => {
    const q = req.query
    if (!genuine(q)) return refuse(reply, '支付链接无效')
    const trade = await sandbox.trade(q.orderNo)
    if (!trade) return refuse(reply, '支付单不存在或已失效，请返回重新发起支付')
    if (trade.tradeNo) return reply.redirect(returnWithOrderNo(q.returnUrl, q.orderNo), 303)
    const hidden = (k: string, v: string) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`
    return reply.type('text/html; charset=utf-8').send(
      page(
        '收银台',
        `<div class="top"><p>${escapeHtml(trade.hospitalName)}</p><div class="amount"><small>¥</small>${fenToYuan(trade.amountFen)}</div></div>
<div class="card"><div class="row"><span>商品</span><span>${escapeHtml(trade.subject)}</span></div>
<div class="row"><span>收款方</span><span>${escapeHtml(trade.hospitalName)}</span></div>
<div class="row"><span>订单号</span><span>${escapeHtml(trade.orderNo)}</span></div></div>
<form method="post" action="/sandbox/pay/cashier">${hidden('orderNo', q.orderNo)}${hidden('returnUrl', q.returnUrl)}${hidden('sign', q.sign)}
<button class="pay" type="submit" name="action" value="confirm">确认支付</button>
<button class="cancel" type="submit" name="action" value="cancel">取消支付</button></form>
<p class="tag">支付沙箱 · 不会产生真实扣款</p>`,
      ),
    )
  })

  r.post('/sandbox/pay/cashier', { schema: { hide: true, body: cashierBody } }, async (req, reply) => {
    const b = req.body
    if (!genuine(b)) return refuse(reply, '支付链接无效')
    const back = returnWithOrderNo(b.returnUrl, b.orderNo)
    if (b.action === 'cancel') return reply.redirect(back, 303)
    const result = await sandbox.confirm(b.orderNo)
    if (!result.ok) return refuse(reply, result.message)
    // the notification is on its way in the background; the app asks the order's state when it is back
    return reply.redirect(back, 303)
  })
}
