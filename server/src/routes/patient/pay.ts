import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { route } from '../../route'
import { CALLER_LIMITS } from '../../domain/limits'
import * as payment from '../../domain/payment'
import type { PayProvider } from '../../plugins/providers/pay'

/** P + YYYYMMDD + 12 digits (domain/payment newOrderNo). */
export const orderNo = z.string().trim().regex(/^P\d{20}$/, '订单号不正确')

export const payOrderDto = z.object({
  orderNo: z.string(),
  business: z.enum(['register', 'outpatient', 'recharge', 'clinic_recharge', 'inquiry', 'gift', 'pharmacy', 'physical', 'nucleic']),
  subject: z.string(),
  amountFen: z.number().int(),
  insuranceFen: z.number().int(),
  selfPayFen: z.number().int(),
  status: z.enum(['created', 'paying', 'paid', 'cancelled', 'refunding', 'refunded', 'closed']),
  channel: z.enum(['sandbox', 'wechat', 'alipay', 'account']).nullable(),
  expiresAt: z.string(),
  paidAt: z.string().nullable(),
  refundedFen: z.number().int(),
  createdAt: z.string(),
})

export const payActionDto = z.union([
  z.object({ kind: z.literal('redirect'), channel: z.enum(['sandbox', 'wechat', 'alipay']), url: z.string() }),
  z.object({
    kind: z.literal('jsapi'),
    channel: z.literal('wechat'),
    params: z.object({ appId: z.string(), timeStamp: z.string(), nonceStr: z.string(), package: z.string(), signType: z.string(), paySign: z.string() }),
  }),
  z.object({ kind: z.literal('tradePay'), channel: z.literal('alipay'), tradeNo: z.string() }),
])

export const payInput = z.object({
  orderNo,
  returnUrl: z.string().trim().min(1, '缺少返回页面').max(500, '返回页面不正确'),
})

/** Notifications are small; a provider never sends more than a few kilobytes. */
const NOTIFY_BODY_LIMIT = 64 * 1024

/**
 * The payment core, `/dld-pay`: how to pay an order, the order as it stands, and the providers' notifications
 * (spec §7 "Payment"; every paid flow pays through here).
 */
export async function payRoutes(app: FastifyInstance) {
  route(app, {
    method: 'POST',
    url: '/dld-pay/pay',
    callerLimit: CALLER_LIMITS.pay,
    summary: 'How to pay one of the caller’s unpaid orders (a cashier page or WeChat JSAPI parameters)',
    audit: 'payment',
    auth: 'user',
    body: payInput,
    data: payActionDto,
    handler: ({ body, auth }) => payment.startPayment(app.ctx.db, app.ctx.providers, auth, body),
  })

  route(app, {
    method: 'GET',
    url: '/dld-pay/order/:orderNo',
    summary: 'The caller’s order; asks the provider first while it is still paying',
    audit: 'payment',
    auth: 'user',
    params: z.object({ orderNo }),
    data: payOrderDto,
    handler: ({ params, auth }) => payment.refreshOrder(app.ctx.db, app.ctx.providers, auth.userId, params.orderNo),
  })

  // the signature covers the exact bytes the provider sent: this scope keeps every body as raw text
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: NOTIFY_BODY_LIMIT }, (_req, body, done) => done(null, body))
    const r = scope.withTypeProvider<ZodTypeProvider>()
    r.post(
      '/dld-pay/notify/:channel',
      {
        schema: {
          summary: 'Payment and refund notifications from the payment providers (signed; answered in each provider’s own format)',
          tags: ['dld-pay'],
          params: z.object({ channel: z.enum(['sandbox', 'wechat', 'alipay']) }),
        },
      },
      async (req, reply) => {
        const { channel } = req.params
        const provider: PayProvider | null = app.ctx.providers.pay[channel]
        const counted = (outcome: string) => app.ctx.metrics.paymentNotifications.inc({ provider: channel, outcome })
        if (!provider) {
          counted('not-configured')
          return reply.status(404).type('application/json').send(JSON.stringify({ code: 'FAIL', message: '未开通' }))
        }
        const answer = (ok: boolean, outcome: string) => {
          counted(outcome)
          const a = provider.ack(ok)
          return reply.status(a.status).type(a.contentType).send(a.body)
        }
        const raw = typeof req.body === 'string' ? req.body : ''
        let notification
        try {
          notification = provider.verifyNotification(req.headers, raw)
        } catch {
          notification = null
        }
        if (!notification) {
          req.log.warn({ channel }, 'payment notification refused: signature or format not valid')
          return answer(false, 'invalid')
        }
        try {
          const outcome = await payment.applyNotification(app.ctx.db, app.ctx.providers, channel, notification)
          if (outcome === 'double-payment') {
            // the provider took money twice for one order: the second payment is being returned (settlement.ts)
            req.log.warn({ channel, notifyId: notification.notifyId }, 'a second payment arrived for an order already paid: returning it')
          } else if (outcome === 'stuck') {
            req.log.error({ channel, notifyId: notification.notifyId }, 'a refund the patient is owed was refused again and again: staff must return the money')
          } else {
            req.log.info({ channel, kind: notification.kind, outcome }, 'payment notification applied')
          }
          return answer(true, outcome)
        } catch (err) {
          const refused = err instanceof payment.NotificationRefused
          if (refused) {
            req.log.warn({ channel, why: err.message }, 'payment notification refused')
          } else {
            req.log.error({ err, channel }, 'payment notification failed')
          }
          return answer(false, refused ? 'refused' : 'error')
        }
      },
    )
  })
}
