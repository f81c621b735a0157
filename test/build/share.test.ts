/**
 * Scanning and sharing in the COMPILED mini-programs (BUILD_ROOT/weapp, BUILD_ROOT/alipay, run in ./harness.ts; the
 * source is tested under doubles in test/page/scanShare.test.tsx): the home shows 扫一扫; the doctor's home and a
 * health-knowledge article answer the share menu (the page's onShareAppMessage, which a page has only when its config
 * sets enableShareAppMessage) with their title and path; a page that shares nothing has no answer, so the menu keeps
 * 转发 greyed out there.
 */
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, test } from 'node:test'
import type { Article, HomePageConfig } from '../../types/api/hospital'
import type { OnlineDoctorInfo } from '../../types/api/internet'
import { loadMiniProgram, type Answer, type MiniPage, type MiniPlatform, type MiniProgram } from './harness'

const API = 'https://api.hospital.example'
const APP_ID = process.env.TARO_APP_DEFAULT_APP_ID ?? 'wxdemo0000000000'

const DOCTOR: OnlineDoctorInfo = {
  id: 100,
  doctorName: '李明',
  title: '主任医师',
  avatar: '/static/doctors/100.svg',
  deptId: 11,
  deptName: '心血管内科',
  hospitalCode: 'H0001',
  hospitalName: '测试市第一人民医院',
  level: 5,
  stars: { full: 5, half: false, empty: 0 },
  priceFen: 3000,
  avgReplySeconds: 900,
  replyTimeText: '15分钟',
  servedCount: 1000,
  goodRate: 98,
  online: true,
  speciality: '冠心病',
  imAccount: 'd_100',
  intro: '从事临床工作二十年。',
  services: [{ type: 'text', name: '图文问诊', priceFen: 3000 }],
  fansCount: 10,
  followed: false,
}
const ARTICLE: Article = {
  id: 3,
  title: '高血压患者的日常饮食',
  summary: '少盐、少油、多蔬果',
  cover: '',
  category: '慢病管理',
  author: '营养科',
  doctorId: null,
  views: 120,
  publishedAt: '2026-03-01T08:00:00Z',
  content: '<p>每日食盐不超过5克。</p>',
}

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data } })

/** A sandbox server in main mode, signed-in patient 7; what these pages ask beyond that is answered 404. */
const server: Answer = (req) => {
  const { pathname } = new URL(req.url)
  if (/^\/sandbox\/(wechat|alipay)\/mini-code$/.test(pathname)) return { statusCode: 200, data: { code: 'sandbox-code' } }
  switch (pathname) {
    case '/dld-auth/token/weapp':
    case '/dld-auth/token/alipay/mini':
      return ok({ token: 'token-1', refreshToken: 'refresh-1', expireTime: Date.now() + 7_200_000, appId: APP_ID, userId: 7 })
    case '/dld-hospital/userinfo':
      return ok({ id: 7, nickname: '王小明', wechatAvatar: '', mobile: '138****0000', roles: [], appId: APP_ID, provider: 'wechat' })
    case '/dld-hospital/hospital/getByAppId':
      return ok(null)
    case '/dld-hospital/common/homePageConfig':
      return ok({ main: true, hospital: null, menus: [], demo: true } satisfies HomePageConfig)
    case '/dld-hospital/hospital/list':
      return ok([])
    case '/dld-im/im/user-sig':
      return ok({ driver: 'local', sdkAppId: 0, imAccount: '0_7', userSig: 'sig-1', expire: 0 })
    case '/dld-hospital/doctor/info':
      return ok(DOCTOR)
    case `/dld-hospital/api/patient/article/${ARTICLE.id}`:
      return ok(ARTICLE)
    default:
      return { statusCode: 404, data: { code: 404, msg: 'Not Found' } }
  }
}

/** What the page answers when the patient opens the share menu (as plain data), or undefined if it has no answer. */
function shareMenu(mp: MiniProgram): unknown {
  const page = mp.current() as (MiniPage & { onShareAppMessage?: (o: unknown) => unknown }) | undefined
  if (typeof page?.onShareAppMessage !== 'function') return undefined
  return JSON.parse(JSON.stringify(page.onShareAppMessage.call(page, { from: 'menu' })))
}

for (const platform of ['weapp', 'alipay'] as const) {
  describe(platform, () => {
    if (!existsSync(resolve(__dirname, '..', '..', process.env.BUILD_ROOT ?? 'dist', platform, 'app.json'))) {
      test('build output', () => assert.fail(`${platform}/app.json is missing: build it first (TARO_APP_API_BASE=${API} npx taro build --type ${platform})`))
      return
    }
    const load = () => loadMiniProgram(platform as MiniPlatform, server)

    test('the home shows 扫一扫 (both mini-programs have a scanner)', async () => {
      const mp = load()
      await mp.open('pages/sys/index')
      assert.deepEqual(mp.pages().map((p) => p.route), ['pages/sys/merge/index'])
      assert.ok(mp.text().includes('扫一扫'), `the home shows: ${mp.text().join(' | ')}`)
    })

    test("the doctor's home shares the doctor's card, which opens that doctor's home", async () => {
      const mp = load()
      await mp.open('internet/doctor/index', { id: String(DOCTOR.id) })
      assert.ok(mp.text().includes('冠心病'), `the page shows: ${mp.text().join(' | ')}`)
      assert.deepEqual(shareMenu(mp), { title: '李明 主任医师', path: '/internet/doctor/index?id=100' })
    })

    test('an article shares its title, and opens the article', async () => {
      const mp = load()
      await mp.open('pages/sys/knowledge/detail', { id: String(ARTICLE.id) })
      assert.ok(mp.text().includes(ARTICLE.title), `the page shows: ${mp.text().join(' | ')}`)
      assert.deepEqual(shareMenu(mp), { title: ARTICLE.title, path: '/pages/sys/knowledge/detail?id=3' })
    })

    test('a page that shares nothing has no answer for the share menu', async () => {
      const mp = load()
      await mp.open('pages/sys/knowledge/index')
      assert.equal(shareMenu(mp), undefined)
    })
  })
}
