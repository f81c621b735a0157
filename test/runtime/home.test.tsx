import { fakeServer } from './server'
import { expectInOrder, findText, namesOf, openApp, pageText, tap, toastText } from './app'
import { APP_ID, HOSPITAL, signIn, startupRoutes } from './demo'
import type { RegisterRules } from '../../types/api/register'

const RULES: RegisterRules = {
  hospitalCode: HOSPITAL.hospitalCode,
  holdMinutes: 15,
  cancelRule: '就诊前一日17:00前可取消，逾期不可退号',
  bookDays: 14,
  insurance: true,
  notice: '欢迎使用示范市第一人民医院预约挂号服务。\n1. 预约成功后请按预约时段提前15分钟到院报到。\n2. 就诊当日可在取号机或分诊台签到。',
}

const server = fakeServer({
  ...startupRoutes,
  'POST /dld-palm/api/hospital/register': (c) => (c.body.hospitalCode === HOSPITAL.hospitalCode ? RULES : null),
  // the notice reads whether the hospital waives the fee for the elderly: this one does not say
  [`GET /dld-palm/api/hospital/config/${HOSPITAL.hospitalCode}/register.freeForElderly`]: () => ({ key: 'register.freeForElderly', value: null }),
})

beforeAll(async () => {
  signIn()
  await openApp(`/pages/sys/merge/index?appId=${APP_ID}`, server)
})

describe('首页 (the home tab of a hospital with both services)', () => {
  test('shows the hospital, its notice, its services by group and the four tabs', async () => {
    await findText('示范市第一人民医院')
    expectInOrder([
      '示范市第一人民医院',
      '三级甲等 · 示范市中山路1号',
      '门诊时间：周一至周日 8:00-17:00，急诊24小时开放。',
      '门诊服务',
      '预约挂号',
      '处方查询',
      '便民服务',
      '智能导诊',
      '就诊人管理',
      '互联网医院',
      '在线问诊',
      '发热门诊',
    ])
    expect(namesOf('tab')).toEqual(['首页', '我的问诊', '健康知识', '我的'])
    expect(server.unanswered).toEqual([])
  })

  test('the banners (common/ad) come after the page is drawn; one with a page is a link to it', async () => {
    await findText('互联网医院上线啦')
    expect(namesOf('link')).toContain('互联网医院上线啦')
    expect(pageText()).toContain('老年人就医绿色通道')
    expect(namesOf('link')).not.toContain('老年人就医绿色通道')
  })

  test('a service that is not open yet says so; 预约挂号 opens the hospital’s registration notice', async () => {
    await findText('处方查询')
    await tap('处方查询')
    expect(toastText()).toContain('该服务暂未开放，敬请期待')

    await tap('预约挂号')
    await findText('挂号须知')
    expectInOrder([
      '预约挂号',
      '挂号须知',
      '欢迎使用示范市第一人民医院预约挂号服务。',
      '1. 预约成功后请按预约时段提前15分钟到院报到。',
      '可预约未来14天内的号源',
      '预约后请在15分钟内完成支付，超时号源将自动释放',
      '取消规则：就诊前一日17:00前可取消，逾期不可退号',
      '我已阅读并同意',
      '开始挂号',
    ])
    expect(pageText()).not.toContain('门诊服务')
    expect(server.unanswered).toEqual([])
  })
})
