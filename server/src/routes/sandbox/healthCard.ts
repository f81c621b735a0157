import { createReadStream, existsSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { hospitalByCode } from '../../domain/hospital'
import { isAppPagePath } from '../../domain/patientRules'
import { SANDBOX_HEALTH_CARD_HOLDERS, issueSandboxHealthCode } from '../../plugins/providers/healthCard'
import { maskIdCard } from '@/utils/mask'

/** The demo identity-card pictures the sandbox OCR reads (fictional people, marked 演示 / SANDBOX). */
export const DEMO_CARDS_DIR = join(__dirname, '..', '..', 'seed', 'cards')

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** A sandbox provider's page: a coloured header over one white card (health card, insurance voucher). */
export function page(title: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{margin:0;font-family:-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f2f4f7;color:#222}
.top{background:#1aad5c;color:#fff;padding:22px 20px 28px}.top h1{font-size:19px;margin:0 0 6px}.top p{margin:0;font-size:13px;opacity:.9}
.card{margin:-14px 16px 16px;background:#fff;border-radius:12px;padding:8px 16px}
form{margin:0}button.holder{display:block;width:100%;text-align:left;background:none;border:0;border-bottom:1px solid #eee;padding:14px 0;font-size:16px;color:#222}
button.holder:last-child{border-bottom:0}button.holder b{display:block;font-size:17px;margin-bottom:4px}
button.holder span{font-size:13px;color:#888}.cancel{display:block;text-align:center;color:#576b95;font-size:15px;margin:18px}
.tag{font-size:12px;color:#999;text-align:center;margin:12px}.err{padding:40px 20px;text-align:center}</style></head><body>${body}</body></html>`
}

const authorizeQuery = z.object({ hospitalCode: z.string().min(1).max(32), redirect: z.string().min(1).max(500) })
const chooseBody = authorizeQuery.extend({ holder: z.string().min(1).max(64) })

/**
 * Sandbox electronic-health-card authorisation (电子健康卡), under the real page's contract: the browser leaves the
 * app, the person picks one of their cards, and comes back to `/h5{redirect}` with a one-time `healthCode`.
 * Also serves the demo identity-card pictures for trying the OCR by hand.
 */
export async function sandboxHealthCardRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>()
  const refuse = (why: string) => page('授权失败', `<div class="err"><h1>电子健康卡授权失败</h1><p>${escapeHtml(why)}</p></div>`)

  r.get('/sandbox/ehealth/authorize', { schema: { hide: true, querystring: authorizeQuery } }, async (req, reply) => {
    const { hospitalCode, redirect } = req.query
    if (!isAppPagePath(redirect)) return reply.status(400).type('text/html; charset=utf-8').send(refuse('回跳页面不正确'))
    const hospital = await hospitalByCode(app.ctx.db, hospitalCode)
    if (!hospital) return reply.status(400).type('text/html; charset=utf-8').send(refuse('医院不存在'))
    const hidden = (k: string, v: string) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`
    const holders = SANDBOX_HEALTH_CARD_HOLDERS.map(
      (h) =>
        `<button class="holder" type="submit" name="holder" value="${escapeHtml(h.healthCardId)}"><b>${escapeHtml(h.name)}</b>` +
        `<span>${maskIdCard(h.idCard)} · ${h.mobile ? '已留手机号' : '未留手机号'}</span></button>`,
    ).join('')
    return reply.type('text/html; charset=utf-8').send(
      page(
        '电子健康卡授权',
        `<div class="top"><h1>选择电子健康卡</h1><p>${escapeHtml(hospital.name)} 申请使用你的电子健康卡信息（姓名、证件号码、手机号）</p></div>
<div class="card"><form method="post" action="/sandbox/ehealth/authorize">${hidden('hospitalCode', hospitalCode)}${hidden('redirect', redirect)}${holders}</form></div>
<a class="cancel" href="/h5${escapeHtml(redirect)}">取消</a><p class="tag">电子健康卡授权沙箱 · 不会连接真实健康卡平台</p>`,
      ),
    )
  })

  r.post('/sandbox/ehealth/authorize', { schema: { hide: true, body: chooseBody } }, async (req, reply) => {
    const { redirect, holder: chosen } = req.body
    if (!isAppPagePath(redirect)) return reply.status(400).type('text/html; charset=utf-8').send(refuse('回跳页面不正确'))
    const holder = SANDBOX_HEALTH_CARD_HOLDERS.find((h) => h.healthCardId === chosen)
    if (!holder) return reply.status(400).type('text/html; charset=utf-8').send(refuse('请选择电子健康卡'))
    const code = await issueSandboxHealthCode(app.ctx.db, app.ctx.cipher, holder)
    // the redirect keeps its own query; healthCode is added to it
    const back = new URL(redirect, 'http://app.invalid')
    back.searchParams.set('healthCode', code)
    return reply.redirect(`/h5${back.pathname}${back.search}`, 302)
  })

  r.get('/sandbox/cards/:name', { schema: { hide: true, params: z.object({ name: z.string().regex(/^demo-idcard-\d+\.png$/) }) } }, async (req, reply) => {
    const path = join(DEMO_CARDS_DIR, req.params.name)
    if (!existsSync(path)) return reply.status(404).send({ code: 404, msg: '演示证件不存在', data: null })
    return reply
      .header('cache-control', 'public, max-age=86400')
      .header('content-disposition', `attachment; filename="${req.params.name}"`)
      .type('image/png')
      .send(createReadStream(path))
  })
}
