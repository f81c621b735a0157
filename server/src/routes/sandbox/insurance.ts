import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { hospitalByCode } from '../../domain/hospital'
import { isAppPagePath } from '../../domain/patientRules'
import { SANDBOX_INSURED, issueSandboxInsuranceCode } from '../../plugins/providers/insurance'
import { maskIdCard, maskName } from '@/utils/mask'
import { escapeHtml, page } from './healthCard'

const authorizeQuery = z.object({ channel: z.enum(['wechat', 'alipay']), hospitalCode: z.string().min(1).max(32), redirect: z.string().min(1).max(500) })
const chooseBody = authorizeQuery.extend({ person: z.string().regex(/^\d{17}[\dX]$/) })

/**
 * Sandbox insurance voucher authorisation (医保电子凭证授权), under the real page's contract: the browser leaves the
 * app, the insured person confirms, and comes back to `/h5{redirect}` with a one-time `authCode`.
 */
export async function sandboxInsuranceRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>()
  const html = 'text/html; charset=utf-8'
  const refuse = (why: string) => page('授权失败', `<div class="err"><h1>医保电子凭证授权失败</h1><p>${escapeHtml(why)}</p></div>`)

  r.get('/sandbox/insurance/authorize', { schema: { hide: true, querystring: authorizeQuery } }, async (req, reply) => {
    const { channel, hospitalCode, redirect } = req.query
    if (!isAppPagePath(redirect)) return reply.status(400).type(html).send(refuse('回跳页面不正确'))
    const hospital = await hospitalByCode(app.ctx.db, hospitalCode)
    if (!hospital) return reply.status(400).type(html).send(refuse('医院不存在'))
    const hidden = (k: string, v: string) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`
    const people = SANDBOX_INSURED.map(
      (p) =>
        `<button class="holder" type="submit" name="person" value="${p.idCard}"><b>${escapeHtml(maskName(p.name))}</b>` +
        `<span>${maskIdCard(p.idCard)} · ${escapeHtml(p.insuTypeName)}</span></button>`,
    ).join('')
    return reply.type(html).send(
      page(
        '医保电子凭证授权',
        `<div class="top"><h1>医保电子凭证授权</h1><p>${escapeHtml(hospital.name)} 申请使用你的医保电子凭证进行医保结算（${channel === 'alipay' ? '支付宝' : '微信'}）</p></div>
<div class="card"><form method="post" action="/sandbox/insurance/authorize">${hidden('channel', channel)}${hidden('hospitalCode', hospitalCode)}${hidden('redirect', redirect)}${people}</form></div>
<a class="cancel" href="/h5${escapeHtml(redirect)}">取消</a><p class="tag">医保移动支付沙箱 · 不会连接真实医保平台</p>`,
      ),
    )
  })

  r.post('/sandbox/insurance/authorize', { schema: { hide: true, body: chooseBody } }, async (req, reply) => {
    const { redirect, person } = req.body
    if (!isAppPagePath(redirect)) return reply.status(400).type(html).send(refuse('回跳页面不正确'))
    const insured = SANDBOX_INSURED.find((p) => p.idCard === person)
    if (!insured) return reply.status(400).type(html).send(refuse('未查询到参保信息'))
    const code = await issueSandboxInsuranceCode(app.ctx.db, app.ctx.cipher, insured)
    const back = new URL(redirect, 'http://app.invalid')
    back.searchParams.set('authCode', code)
    return reply.redirect(`/h5${back.pathname}${back.search}`, 302)
  })
}
