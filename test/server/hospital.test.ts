import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { eq, isNotNull } from 'drizzle-orm'
import { ads, articles, consultations, doctors, hospitals } from '../../server/src/db/schema'
import { startTestApp, signInWechat, signInUser, envelopeOf, until, DEMO, type TestApp } from './harness'
import { isBuiltPage } from '../../src/routes'

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

const get = (url: string, query?: Record<string, string>, headers?: Record<string, string>) =>
  t.app.inject({ method: 'GET', url, query, headers }).then((r) => envelopeOf(r))

interface HospitalDto {
  id: number
  hospitalCode: string
  hospitalName: string
  brandId: number | null
  appId: string | null
  configDto: { isInternet: boolean; isPalm: boolean }
}
interface Menu {
  name: string
  url: string
  role: 'palm' | 'internet' | 'all'
}

async function hospitalByCode(code: string) {
  const list = (await get('/dld-hospital/hospital/list')).data as HospitalDto[]
  const h = list.find((x) => x.hospitalCode === code)
  assert.ok(h, code)
  return h
}

const WRONG_ID = ['abc', '0', '-1', '1.5']

describe('GET /dld-hospital/hospital/list', () => {
  it('rejects a keyword over 50 characters', async () => {
    const env = await get('/dld-hospital/hospital/list', { keyword: '医'.repeat(51) })
    assert.equal(env.code, 400)
    assert.match(env.msg, /^参数错误/)
  })

  it('lists the demo hospitals with their service families', async () => {
    const env = await get('/dld-hospital/hospital/list')
    assert.equal(env.code, 200)
    const list = env.data as HospitalDto[]
    assert.deepEqual(
      list.map((h) => [h.hospitalCode, h.configDto]),
      [
        ['10392', { isInternet: true, isPalm: true }],
        ['10388', { isInternet: false, isPalm: true }],
        ['10412', { isInternet: true, isPalm: false }],
        ['10387', { isInternet: false, isPalm: true }],
        ['aixin', { isInternet: true, isPalm: false }],
      ],
    )
    assert.equal(list[0]!.hospitalName, '示范市第一人民医院')
    assert.equal(list[0]!.appId, DEMO.both.appId)
  })

  it('filters by part of the name or by the exact code', async () => {
    const byName = (await get('/dld-hospital/hospital/list', { keyword: '中医' })).data as HospitalDto[]
    assert.deepEqual(
      byName.map((h) => h.hospitalCode),
      ['10388'],
    )
    const byCode = (await get('/dld-hospital/hospital/list', { keyword: '10412' })).data as HospitalDto[]
    assert.deepEqual(
      byCode.map((h) => h.hospitalCode),
      ['10412'],
    )
    const shared = (await get('/dld-hospital/hospital/list', { keyword: '示范市' })).data as HospitalDto[]
    assert.deepEqual(
      shared.map((h) => h.hospitalCode),
      ['10392', '10388', '10387'],
    )
    assert.deepEqual((await get('/dld-hospital/hospital/list', { keyword: '不存在的医院' })).data, [])
    // a blank keyword is no filter
    assert.equal(((await get('/dld-hospital/hospital/list', { keyword: '  ' })).data as HospitalDto[]).length, 5)
  })
})

describe('GET /dld-hospital/common/hospitalList/:id', () => {
  it('rejects an id that is not a positive integer', async () => {
    for (const id of WRONG_ID) {
      const env = await get(`/dld-hospital/common/hospitalList/${id}`)
      assert.equal(env.code, 400, id)
      assert.match(env.msg, /^参数错误/)
    }
  })

  it('lists the hospitals of brand 1; an unknown brand has none', async () => {
    const env = await get('/dld-hospital/common/hospitalList/1')
    assert.equal(env.code, 200)
    assert.deepEqual(
      (env.data as HospitalDto[]).map((h) => [h.hospitalCode, h.brandId]),
      [
        ['10392', 1],
        ['10388', 1],
        ['10412', 1],
      ],
    )
    assert.deepEqual((await get('/dld-hospital/common/hospitalList/99')).data, [])
  })
})

describe('GET /dld-hospital/hospital/getByAppId', () => {
  it('requires an app id', async () => {
    const env = await get('/dld-hospital/hospital/getByAppId')
    assert.equal(env.code, 400)
    assert.match(env.msg, /^参数错误/)
  })

  it('finds the hospital of its own official account', async () => {
    const env = await get('/dld-hospital/hospital/getByAppId', { appId: DEMO.palm.appId })
    assert.equal(env.code, 200)
    assert.equal(env.data.hospitalCode, '10388')
    assert.equal(env.data.appId, DEMO.palm.appId)
  })

  it('answers null for the platform’s shared account (main mode)', async () => {
    const env = await get('/dld-hospital/hospital/getByAppId', { appId: DEMO.defaultAppId })
    assert.equal(env.code, 200)
    assert.equal(env.data, null)
  })

  it('prefers hospitalCode, and answers 404 for an unknown one', async () => {
    const env = await get('/dld-hospital/hospital/getByAppId', { appId: DEMO.defaultAppId, hospitalCode: '10412' })
    assert.equal(env.code, 200)
    assert.equal(env.data.hospitalCode, '10412')
    assert.deepEqual(env.data.configDto, { isInternet: true, isPalm: false })
    const unknown = await get('/dld-hospital/hospital/getByAppId', { appId: DEMO.both.appId, hospitalCode: '99999' })
    assert.equal(unknown.code, 404)
    assert.equal(unknown.msg, '医院不存在')
    assert.equal(unknown.data, null)
  })
})

describe('GET /dld-hospital/common/isSupervision', () => {
  it('needs a hospital code: 400 without one, 404 for an unknown one', async () => {
    assert.equal((await get('/dld-hospital/common/isSupervision')).code, 400)
    assert.equal((await get('/dld-hospital/common/isSupervision', { hospitalCode: '99999' })).code, 404)
  })

  it('an internet hospital names the regulator’s platform it reports to; a palm-only one reports to none', async () => {
    const internet = await get('/dld-hospital/common/isSupervision', { hospitalCode: DEMO.internet.code })
    assert.equal(internet.code, 200)
    assert.deepEqual(internet.data, { supervised: true, platformName: '示范省互联网医疗服务监管平台' })
    const palm = await get('/dld-hospital/common/isSupervision', { hospitalCode: DEMO.palm.code })
    assert.deepEqual(palm.data, { supervised: false, platformName: '' })
  })
})

describe('GET /dld-hospital/common/ad', () => {
  it('answers 404 for an unknown hospital and 400 for a malformed code', async () => {
    assert.equal((await get('/dld-hospital/common/ad', { hospitalCode: '99999' })).code, 404)
    assert.equal((await get('/dld-hospital/common/ad', { hospitalCode: 'x'.repeat(40) })).code, 400)
  })

  it('without a hospital, answers the platform’s own banners, to anyone', async () => {
    const env = await get('/dld-hospital/common/ad')
    assert.equal(env.code, 200)
    assert.deepEqual(
      (env.data as { title: string }[]).map((a) => a.title),
      ['智慧医疗 便民服务'],
    )
  })

  it('answers a hospital’s enabled banners within their dates, in order, each opening its page', async () => {
    const h = await hospitalByCode(DEMO.palm.code)
    const db = t.database.db
    const day = 24 * 3600_000
    await db.insert(ads).values([
      { hospitalId: h.id, title: '已停用', sort: 0, enabled: false },
      { hospitalId: h.id, title: '已过期', sort: 0, endsAt: new Date(Date.now() - day) },
      { hospitalId: h.id, title: '未开始', sort: 0, startsAt: new Date(Date.now() + day) },
      { hospitalId: h.id, title: '进行中', sort: 0, url: '/palm/report/index', startsAt: new Date(Date.now() - day), endsAt: new Date(Date.now() + day) },
    ])
    const env = await get('/dld-hospital/common/ad', { hospitalCode: DEMO.palm.code })
    assert.equal(env.code, 200)
    const list = env.data as { id: number; title: string; url: string }[]
    assert.deepEqual(list[0], { id: list[0]!.id, title: '进行中', image: '', url: '/palm/report/index' })
    assert.equal(list[1]!.title, '市中医院 · 线上就医更便捷')
    assert.ok(list.some((a) => a.url === '/palm/register/index'))
    assert.ok(!list.some((a) => ['已停用', '已过期', '未开始'].includes(a.title)))
    // a palm-only hospital offers no online consultation
    assert.ok(!list.some((a) => a.url.startsWith('/internet/')))
  })
})

describe('GET /dld-hospital/common/homePageConfig', () => {
  it('answers 404 for an unknown hospital', async () => {
    const env = await get('/dld-hospital/common/homePageConfig', { hospitalCode: '99999' })
    assert.equal(env.code, 404)
  })

  it('without a hospital, answers the platform’s own page with the hospital picker', async () => {
    const env = await get('/dld-hospital/common/homePageConfig')
    assert.equal(env.code, 200)
    assert.equal(env.data.main, true)
    assert.equal(env.data.hospital, null)
    assert.ok((env.data.menus as Menu[]).some((m) => m.url === '/pages/hospital/index'))
    assert.equal('banners' in env.data, false, 'banners are common/ad’s')
  })

  it('a palm-only hospital shows palm (and shared) entries only', async () => {
    const env = await get('/dld-hospital/common/homePageConfig', { hospitalCode: DEMO.palm.code })
    assert.equal(env.data.main, false)
    assert.equal(env.data.hospital.hospitalCode, '10388')
    const menus = env.data.menus as Menu[]
    assert.ok(menus.length > 0)
    assert.ok(menus.every((m) => m.role === 'palm' || m.role === 'all'))
    assert.ok(menus.some((m) => m.url === '/palm/register/index'))
    assert.equal(typeof env.data.notice, 'string')
  })

  it('every entry of every demo hospital opens a page of the app: none says 该服务暂未开放', async () => {
    for (const code of [DEMO.both.code, DEMO.palm.code, DEMO.internet.code, DEMO.maternity.code, DEMO.aixin.code, undefined]) {
      const env = await get('/dld-hospital/common/homePageConfig', code ? { hospitalCode: code } : undefined)
      assert.equal(env.code, 200, env.msg)
      const unbuilt = (env.data.menus as Menu[]).filter((m) => !isBuiltPage(m.url)).map((m) => `${code ?? 'main'} ${m.name} ${m.url}`)
      assert.deepEqual(unbuilt, [])
    }
  })

  it('a hospital changed in the database (an operator’s own SQL) shows on the next home page and hospital card', async () => {
    const code = DEMO.palm.code
    const before = await get('/dld-hospital/common/homePageConfig', { hospitalCode: code })
    assert.equal((await get('/dld-hospital/hospital/getByAppId', { appId: 'x', hospitalCode: code })).code, 200)
    const [row] = await t.app.ctx.db.select().from(hospitals).where(eq(hospitals.code, code))
    const notice = `${row!.homePageConfig.notice} 今日停诊：皮肤科`
    try {
      await t.app.ctx.db
        .update(hospitals)
        .set({ name: `${row!.name}（新院区）`, homePageConfig: { ...row!.homePageConfig, notice } })
        .where(eq(hospitals.id, row!.id))
      // the change is announced to every server process; on PostgreSQL it may arrive a moment after the update
      const seen = await until(async () => (await get('/dld-hospital/common/homePageConfig', { hospitalCode: code })).data.notice === notice)
      assert.ok(seen, `still ${before.data.notice}`)
      const card = await get('/dld-hospital/hospital/getByAppId', { appId: 'x', hospitalCode: code })
      assert.equal(card.data.hospitalName, `${row!.name}（新院区）`)
    } finally {
      await t.app.ctx.db.update(hospitals).set({ name: row!.name, homePageConfig: row!.homePageConfig }).where(eq(hospitals.id, row!.id))
    }
    assert.ok(await until(async () => (await get('/dld-hospital/common/homePageConfig', { hospitalCode: code })).data.notice === before.data.notice))
  })

  it('an internet-only hospital shows internet entries only', async () => {
    const env = await get('/dld-hospital/common/homePageConfig', { hospitalCode: DEMO.internet.code })
    const menus = env.data.menus as Menu[]
    assert.ok(menus.length > 0)
    assert.ok(menus.every((m) => m.role === 'internet'))
  })
})

describe('GET /dld-hospital/common/menuConfig/:id', () => {
  it('rejects a malformed id and answers 404 for an unknown hospital', async () => {
    assert.equal((await get('/dld-hospital/common/menuConfig/abc')).code, 400)
    const env = await get('/dld-hospital/common/menuConfig/99999')
    assert.equal(env.code, 404)
    assert.equal(env.msg, '医院不存在')
  })

  it('lists both families for the hospital that has both', async () => {
    const h = await hospitalByCode(DEMO.both.code)
    const env = await get(`/dld-hospital/common/menuConfig/${h.id}`)
    assert.equal(env.code, 200)
    const roles = new Set((env.data as Menu[]).map((m) => m.role))
    assert.deepEqual([...roles].sort(), ['all', 'internet', 'palm'])
  })
})

describe('GET /dld-hospital/common/textConfig/:id', () => {
  it('rejects a malformed id and answers 404 for an unknown hospital', async () => {
    assert.equal((await get('/dld-hospital/common/textConfig/abc')).code, 400)
    assert.equal((await get('/dld-hospital/common/textConfig/99999')).code, 404)
  })

  it('answers the hospital’s texts by key', async () => {
    const h = await hospitalByCode(DEMO.palm.code)
    const env = await get(`/dld-hospital/common/textConfig/${h.id}`)
    assert.equal(env.code, 200)
    assert.match(env.data.registerNotice, /示范市中医院/)
    assert.equal(typeof env.data.privacyPolicy, 'string')
  })
})

describe('GET /dld-hospital/brand/list', () => {
  it('lists the demo brand with its three hospitals', async () => {
    const env = await get('/dld-hospital/brand/list')
    assert.equal(env.code, 200)
    assert.equal(env.data.length, 1)
    assert.equal(env.data[0].id, 1)
    assert.equal(env.data[0].name, '示范医疗集团')
    assert.equal(env.data[0].hospitalCount, 3)
  })
})

describe('GET /dld-hospital/brand/dept/:id', () => {
  it('rejects a malformed id', async () => {
    assert.equal((await get('/dld-hospital/brand/dept/abc')).code, 400)
  })

  it('lists only featured departments across the brand’s hospitals; an unknown brand has none', async () => {
    const env = await get('/dld-hospital/brand/dept/1')
    assert.equal(env.code, 200)
    const depts = env.data as { deptName: string; hospitalCode: string }[]
    assert.equal(depts.length, 9)
    assert.deepEqual([...new Set(depts.map((d) => d.deptName))].sort(), ['儿科', '呼吸与危重症医学科', '心血管内科'].sort())
    assert.deepEqual([...new Set(depts.map((d) => d.hospitalCode))].sort(), ['10388', '10392', '10412'])
    assert.deepEqual((await get('/dld-hospital/brand/dept/99')).data, [])
  })
})

describe('GET /dld-hospital/brand/hospitalInfo', () => {
  it('requires a hospital code and answers 404 for an unknown one', async () => {
    assert.equal((await get('/dld-hospital/brand/hospitalInfo')).code, 400)
    assert.equal((await get('/dld-hospital/brand/hospitalInfo', { hospitalCode: '99999' })).code, 404)
  })

  it('answers the hospital with its brand', async () => {
    const env = await get('/dld-hospital/brand/hospitalInfo', { hospitalCode: DEMO.internet.code })
    assert.equal(env.code, 200)
    assert.equal(env.data.hospital.hospitalCode, '10412')
    assert.equal(env.data.brand.id, 1)
    assert.equal(env.data.brand.name, '示范医疗集团')
  })
})

describe('GET /dld-hospital/userinfo', () => {
  it('answers 401 without a token', async () => {
    const env = await get('/dld-hospital/userinfo')
    assert.equal(env.code, 401)
    assert.equal(env.data, null)
  })

  it('answers id 0 for an identity not bound to a mobile', async () => {
    const s = await signInWechat(t.app, { appId: DEMO.palm.appId })
    const env = await get('/dld-hospital/userinfo', undefined, s.headers)
    assert.equal(env.code, 200)
    assert.equal(env.data.id, 0)
    assert.equal(env.data.mobile, '')
    assert.deepEqual(env.data.roles, [])
    assert.equal(env.data.appId, DEMO.palm.appId)
    assert.equal(env.data.provider, 'wechat')
  })

  it('answers the user id and the masked mobile once bound', async () => {
    const u = await signInUser(t.app, '13912345678')
    const env = await get('/dld-hospital/userinfo', undefined, u.headers)
    assert.equal(env.code, 200)
    assert.equal(env.data.id, u.userId)
    assert.equal(env.data.mobile, '139****5678')
    assert.doesNotMatch(JSON.stringify(env), /13912345678/)
  })
})

describe('PUT /dld-hospital/userinfo', () => {
  const put = (payload: unknown, headers?: Record<string, string>) =>
    t.app.inject({ method: 'PUT', url: '/dld-hospital/userinfo', payload: payload as object, headers }).then((r) => envelopeOf(r))

  it('answers 401 without a token', async () => {
    assert.equal((await put({ nickname: '新名字' })).code, 401)
  })

  it('answers 403 to an identity without a bound mobile', async () => {
    const s = await signInWechat(t.app)
    const env = await put({ nickname: '新名字' }, s.headers)
    assert.equal(env.code, 403)
    assert.equal(env.msg, '请先绑定手机号')
  })

  it('rejects an empty nickname and an avatar that is neither an upload nor https', async () => {
    const u = await signInUser(t.app)
    const blank = await put({ nickname: '   ' }, u.headers)
    assert.equal(blank.code, 400)
    assert.match(blank.msg, /请输入昵称/)
    assert.equal((await put({ nickname: '名'.repeat(21) }, u.headers)).code, 400)
    for (const avatar of ['http://example.com/a.png', 'javascript:alert(1)', '/dld-file/files/../../etc/passwd', '/dld-file/files/short.png']) {
      const env = await put({ nickname: '小王', avatar }, u.headers)
      assert.equal(env.code, 400, avatar)
      assert.match(env.msg, /头像地址不正确/)
    }
    assert.equal((await get('/dld-hospital/userinfo', undefined, u.headers)).data.nickname, '')
  })

  it('changes only the caller’s nickname and avatar', async () => {
    const u = await signInUser(t.app)
    const other = await signInUser(t.app)
    const avatar = `/dld-file/files/${'a'.repeat(22)}.png`
    const env = await put({ nickname: ' 小王 ', avatar }, u.headers)
    assert.equal(env.code, 200)
    assert.deepEqual(env.data, { id: u.userId, nickname: '小王', wechatAvatar: avatar })
    const me = await get('/dld-hospital/userinfo', undefined, u.headers)
    assert.equal(me.data.nickname, '小王')
    assert.equal(me.data.wechatAvatar, avatar)
    assert.equal((await get('/dld-hospital/userinfo', undefined, other.headers)).data.nickname, '')
  })
})

describe('GET /dld-hospital/api/patient/article/list', () => {
  it('rejects a page size of 0 or over 50, and page 0', async () => {
    for (const query of [{ size: '0' }, { size: '51' }, { size: 'x' }, { page: '0' }] as Record<string, string>[]) {
      const env = await get('/dld-hospital/api/patient/article/list', query)
      assert.equal(env.code, 400, JSON.stringify(query))
      assert.match(env.msg, /^参数错误/)
    }
  })

  it('pages the articles, newest first', async () => {
    const all = await get('/dld-hospital/api/patient/article/list', { size: '50' })
    assert.equal(all.data.total, 6)
    const dates = (all.data.records as { publishedAt: string }[]).map((r) => Date.parse(r.publishedAt))
    assert.equal(dates.length, 6)
    assert.deepEqual(
      dates,
      [...dates].sort((a, b) => b - a),
    )

    const page1 = await get('/dld-hospital/api/patient/article/list', { size: '2' })
    assert.equal(page1.code, 200)
    assert.equal(page1.data.records.length, 2)
    assert.equal(page1.data.total, 6)
    assert.equal(page1.data.page, 1)
    assert.equal(page1.data.size, 2)
    assert.deepEqual(
      page1.data.records.map((r: { id: number }) => r.id),
      all.data.records.slice(0, 2).map((r: { id: number }) => r.id),
    )
    const page3 = await get('/dld-hospital/api/patient/article/list', { size: '2', page: '3' })
    assert.deepEqual(
      page3.data.records.map((r: { id: number }) => r.id),
      all.data.records.slice(4, 6).map((r: { id: number }) => r.id),
    )
    const past = await get('/dld-hospital/api/patient/article/list', { size: '2', page: '4' })
    assert.deepEqual(past.data.records, [])
    assert.equal(past.data.total, 6)
  })

  it('filters by category', async () => {
    const env = await get('/dld-hospital/api/patient/article/list', { category: '慢病管理' })
    assert.equal(env.data.total, 2)
    assert.ok(env.data.records.every((r: { category: string }) => r.category === '慢病管理'))
  })
  it('answers one doctor’s articles (医生文章), which the hospital’s knowledge list shows too', async () => {
    assert.equal((await get('/dld-hospital/api/patient/article/list', { doctorId: 'x' })).code, 400)
    const [authored] = await t.database.db.select({ doctorId: articles.doctorId }).from(articles).where(isNotNull(articles.doctorId)).limit(1)
    const doctorId = authored!.doctorId!
    const mine = await get('/dld-hospital/api/patient/article/list', { doctorId: String(doctorId) })
    assert.equal(mine.code, 200)
    assert.ok(mine.data.total >= 1)
    assert.ok(mine.data.records.every((r: { doctorId: number }) => r.doctorId === doctorId))
    const none = await get('/dld-hospital/api/patient/article/list', { doctorId: '999999' })
    assert.deepEqual([none.data.records, none.data.total], [[], 0])
    const [h] = await t.database.db.select({ code: hospitals.code }).from(doctors).innerJoin(hospitals, eq(hospitals.id, doctors.hospitalId)).where(eq(doctors.id, doctorId))
    const knowledge = await get('/dld-hospital/api/patient/article/list', { hospitalCode: h!.code, size: '50' })
    const ids = new Set(knowledge.data.records.map((r: { id: number }) => r.id))
    assert.ok(mine.data.records.every((r: { id: number }) => ids.has(r.id)))
  })
})

describe('GET /dld-hospital/api/patient/article/:id', () => {
  it('rejects a malformed id and answers 404 for an unknown article', async () => {
    assert.equal((await get('/dld-hospital/api/patient/article/abc')).code, 400)
    const env = await get('/dld-hospital/api/patient/article/99999')
    assert.equal(env.code, 404)
    assert.equal(env.msg, '文章不存在')
  })

  it('answers the article with its content and counts each read', async () => {
    const list = await get('/dld-hospital/api/patient/article/list', { size: '1' })
    const { id, title } = list.data.records[0]
    const first = await get(`/dld-hospital/api/patient/article/${id}`)
    assert.equal(first.code, 200)
    assert.equal(first.data.id, id)
    assert.equal(first.data.title, title)
    assert.ok(first.data.content.length > 50)
    const second = await get(`/dld-hospital/api/patient/article/${id}`)
    assert.equal(second.data.views, first.data.views + 1)
  })
})

describe('GET /dld-hospital/im/patient/record/list', () => {
  it('answers 401 without a token', async () => {
    assert.equal((await get('/dld-hospital/im/patient/record/list')).code, 401)
  })

  it('answers 403 to an identity without a bound mobile', async () => {
    const s = await signInWechat(t.app)
    const env = await get('/dld-hospital/im/patient/record/list', undefined, s.headers)
    assert.equal(env.code, 403)
    assert.equal(env.msg, '请先绑定手机号')
  })

  it('lists only the caller’s consultations, newest first, optionally for one hospital', async () => {
    const me = await signInUser(t.app)
    const other = await signInUser(t.app)
    const empty = await get('/dld-hospital/im/patient/record/list', undefined, me.headers)
    assert.equal(empty.code, 200)
    assert.deepEqual(empty.data, [])

    const rows = await t.database.db.select({ id: hospitals.id, code: hospitals.code }).from(hospitals)
    const idOf = (code: string) => rows.find((r) => r.code === code)!.id
    const at = (min: number) => new Date(Date.UTC(2026, 0, 1, 8, min))
    await t.database.db.insert(consultations).values([
      { userId: me.userId, hospitalId: idOf('10392'), orderNo: 'REC-1', doctorName: '甲医生', status: 'ongoing', updatedAt: at(1) },
      { userId: me.userId, hospitalId: idOf('10412'), orderNo: 'REC-2', doctorName: '乙医生', status: 'finished', updatedAt: at(2) },
      { userId: other.userId, hospitalId: idOf('10392'), orderNo: 'REC-3', doctorName: '丙医生', status: 'ongoing', updatedAt: at(3) },
    ])

    const mine = await get('/dld-hospital/im/patient/record/list', undefined, me.headers)
    assert.deepEqual(
      mine.data.map((r: { orderNo: string; hospitalCode: string }) => [r.orderNo, r.hospitalCode]),
      [
        ['REC-2', '10412'],
        ['REC-1', '10392'],
      ],
    )
    const filtered = await get('/dld-hospital/im/patient/record/list', { hospitalCode: '10392' }, me.headers)
    assert.deepEqual(
      filtered.data.map((r: { orderNo: string }) => r.orderNo),
      ['REC-1'],
    )
    const theirs = await get('/dld-hospital/im/patient/record/list', undefined, other.headers)
    assert.deepEqual(
      theirs.data.map((r: { orderNo: string }) => r.orderNo),
      ['REC-3'],
    )
  })
})
