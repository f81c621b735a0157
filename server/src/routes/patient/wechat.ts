import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { randomToken } from '../../crypto'
import { appId } from '../schemas'

/** WeChat JS-SDK signature (stack notes): keys in ASCII order, URL without `#`, values not URL-encoded. */
export function jsapiSignature(ticket: string, nonceStr: string, timestamp: number, url: string): string {
  const plain = `jsapi_ticket=${ticket}&noncestr=${nonceStr}&timestamp=${timestamp}&url=${url.split('#')[0]}`
  return createHash('sha1').update(plain).digest('hex')
}

export async function wechatRoutes(app: FastifyInstance) {
  route(app, {
    method: 'GET',
    url: '/dld-weixin/jsapi/jsapiSignature/:appId',
    summary: 'Signature for wx.config on the given page URL',
    auth: 'none',
    params: z.object({ appId }),
    query: z.object({ url: z.string().url().max(2000) }),
    data: z.object({ appId: z.string(), timestamp: z.number(), nonceStr: z.string(), signature: z.string() }),
    handler: async ({ params, query }) => {
      const ticket = await app.ctx.providers.wechat.jsapiTicket(params.appId)
      const nonceStr = randomToken(12)
      const timestamp = Math.floor(Date.now() / 1000)
      return { appId: params.appId, timestamp, nonceStr, signature: jsapiSignature(ticket, nonceStr, timestamp, query.url) }
    },
  })
}
