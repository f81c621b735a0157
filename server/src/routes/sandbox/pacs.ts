import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { viewerSign } from '../../domain/reports'
import { escapeHtml, page } from './healthCard'

const viewerQuery = z.object({ study: z.string().min(1).max(128), expires: z.coerce.number().int().positive(), sign: z.string().regex(/^[0-9a-f]{64}$/) })

/**
 * One made-up slice of a study as an SVG: a body outline in grey tones with a lesion-like spot, so the viewer shows
 * something that looks like a film without shipping any real image. `n` picks the slice.
 */
export function sampleSlice(study: string, n: number): string {
  let seed = 0
  for (const c of `${study}:${n}`) seed = (seed * 31 + c.charCodeAt(0)) >>> 0
  const r = (max: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) % max)
  const lungs = [0, 1]
    .map((side) => `<ellipse cx="${side ? 330 : 182}" cy="250" rx="${72 + r(10)}" ry="${128 + r(12)}" fill="#1b1b1b"/>`)
    .join('')
  const vessels = Array.from({ length: 14 }, () => `<circle cx="${130 + r(250)}" cy="${150 + r(200)}" r="${2 + r(4)}" fill="#6d6d6d"/>`).join('')
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" role="img" aria-label="示例影像 第${n + 1}层">` +
    '<rect width="512" height="512" fill="#000"/>' +
    `<ellipse cx="256" cy="256" rx="${214 + r(8)}" ry="${170 + r(8)}" fill="#9a9a9a"/>` +
    `<ellipse cx="256" cy="256" rx="${196 + r(6)}" ry="${152 + r(6)}" fill="#4a4a4a"/>` +
    lungs +
    vessels +
    `<ellipse cx="256" cy="${290 + r(10)}" rx="46" ry="40" fill="#b5b5b5"/>` +
    `<circle cx="256" cy="${380 + r(6)}" r="24" fill="#e6e6e6"/>` +
    `<text x="16" y="30" fill="#ddd" font-size="16" font-family="monospace">IM: ${n + 1}</text>` +
    '<text x="16" y="496" fill="#ddd" font-size="14" font-family="monospace">SANDBOX PACS · 示例影像</text>' +
    '</svg>'
  )
}

/**
 * The sandbox cloud film viewer (云影像) of a demo server: what PACS_VIEWER_URL points at in a hospital. The app's
 * link carries the study, an expiry and a signature (domain/reports.ts viewerParam); the page shows made-up slices.
 */
export async function sandboxPacsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>()
  const html = 'text/html; charset=utf-8'

  const valid = (q: z.infer<typeof viewerQuery>) => {
    if (q.expires * 1000 < Date.now()) return false
    const want = Buffer.from(viewerSign(app.ctx.config.secret, q.study, q.expires))
    const got = Buffer.from(q.sign)
    return want.length === got.length && timingSafeEqual(want, got)
  }

  r.get('/sandbox/pacs/viewer', { schema: { hide: true, querystring: viewerQuery } }, async (req, reply) => {
    if (!valid(req.query)) return reply.status(403).type(html).send(page('影像链接已失效', '<div class="err"><h1>影像链接已失效</h1><p>请返回报告重新打开云影像</p></div>'))
    const { study, expires, sign } = req.query
    const slices = Array.from({ length: 6 }, (_, n) => {
      const src = `/sandbox/pacs/slice?study=${encodeURIComponent(study)}&n=${n}&expires=${expires}&sign=${sign}`
      return `<figure><img src="${escapeHtml(src)}" alt="示例影像 第${n + 1}层" width="512" height="512"><figcaption>第${n + 1}层</figcaption></figure>`
    }).join('')
    return reply.type(html).send(
      page(
        '云影像',
        `<div class="top"><h1>云影像</h1><p>检查号 ${escapeHtml(study)}</p></div><main class="card" aria-label="影像">` +
          `<style>figure{margin:8px 0}img{width:100%;height:auto;background:#000;border-radius:6px}figcaption{font-size:14px;color:#666}</style>${slices}</main>` +
          '<p class="tag">演示环境：示例影像，非真实患者影像</p>',
      ),
    )
  })

  r.get('/sandbox/pacs/slice', { schema: { hide: true, querystring: viewerQuery.extend({ n: z.coerce.number().int().min(0).max(63) }) } }, async (req, reply) => {
    if (!valid(req.query)) return reply.status(403).send('')
    return reply.type('image/svg+xml').header('cache-control', 'private, max-age=600').send(sampleSlice(req.query.study, req.query.n))
  })
}
