/**
 * Hospital-supplied rich text is sanitised before a phone gets it (domain/richText.ts): the guide and introduction
 * (textConfig keys ending in Html) and articles; plain-text keys are answered as they are.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { eq } from 'drizzle-orm'
import { articles, hospitals } from '../../server/src/db/schema'
import { sanitizeRichText } from '../../server/src/domain/richText'
import { callApi, startTestApp, type TestApp } from './harness'

const ATTACKS = [
  '<script>alert(1)</script>',
  '<img src="x.png" onerror="alert(1)">',
  '<a href="javascript:alert(1)">点我</a>',
  '<iframe src="https://evil.example/"></iframe>',
  '<p style="position:fixed;top:0">遮挡</p>',
  '<form action="https://evil.example/"><input name="idCard"></form>',
  '<a href="http://plain.example/">明文链接</a>',
]

describe('sanitizeRichText', () => {
  it('removes scripts, event handlers, javascript and plain-http links, frames, forms and styles', () => {
    const out = sanitizeRichText(ATTACKS.join(''))
    for (const bad of ['<script', 'alert(1)', 'onerror', 'javascript:', '<iframe', '<form', '<input', 'style=', 'http://']) assert.ok(!out.includes(bad), `${bad} is gone: ${out}`)
    assert.ok(out.includes('点我') && out.includes('遮挡'), 'the words stay')
  })

  it('keeps what an article needs', () => {
    const html = '<h2>标题</h2><p>正文<strong>重点</strong></p><ol><li>一</li></ol><img src="https://cdn.example/a.png" alt="图" /><a href="https://www.example/">链接</a>'
    assert.equal(sanitizeRichText(html), html)
  })
})

describe('served rich text', () => {
  let t: TestApp
  before(async () => {
    t = await startTestApp()
  })
  after(() => t.close())

  it('textConfig answers the guide and introduction sanitised, plain texts as they are', async () => {
    const [h] = await t.database.db.select().from(hospitals).where(eq(hospitals.code, '10392'))
    const env = await callApi<Record<string, string>>(t.app, 'GET', `/dld-hospital/common/textConfig/${h!.id}`)
    assert.equal(env.code, 200)
    assert.match(h!.textConfig.guideHtml!, /<script>/, 'the demo guide carries a script on purpose')
    assert.match(env.data.guideHtml!, /<ol><li>线上预约挂号/)
    assert.ok(!/<script|onclick|alert/.test(env.data.guideHtml!))
    assert.match(env.data.introduceHtml!, /<h2>示范市第一人民医院<\/h2>/)
    assert.equal(env.data.registerNotice, h!.textConfig.registerNotice)
  })

  it('an article is answered sanitised', async () => {
    const [row] = await t.database.db.insert(articles).values({ category: '健康科普', title: '冬季防流感', content: `<p>勤洗手</p>${ATTACKS.join('')}` }).returning()
    const env = await callApi<{ content: string }>(t.app, 'GET', `/dld-hospital/api/patient/article/${row!.id}`)
    assert.equal(env.code, 200)
    assert.match(env.data.content, /^<p>勤洗手<\/p>/)
    assert.ok(!/<script|onerror|javascript:|<iframe/.test(env.data.content))
  })
})
