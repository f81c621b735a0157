import { isOpenPage, pathOf, skipsStartup, sourceTypeFor } from '../../src/utils/routeRules'
import { isBuiltPage } from '../../src/routes'

describe('sourceType of the bind page (spec §4)', () => {
  test.each([
    ['/internet/doctorList/index', 5],
    ['/palm/register/index', 0],
    ['/custom/10392/nucleic/index', 0],
    ['/palm/physical/payment', 4],
    ['/physical/payment', 4],
    ['/palm/payment/waitPay?source=scanCode', 2],
    ['/palm/payment/waitPay?source=list', 0],
    ['/pages/shop/list/index', 9],
    ['/pages/shop/cart/index', 9],
    ['/pages/storePayment/index', 9],
    ['/pages/editUser/index', 8],
    ['/pages/sys/conversation/index', 8],
  ])('%s → %i', (url, expected) => {
    expect(sourceTypeFor(url)).toBe(expected)
  })
})

describe('page rules', () => {
  test('the H5 base and the query are not part of the page path', () => {
    expect(pathOf('/h5/pages/sys/user/index?stamp=AA')).toBe('/pages/sys/user/index')
    expect(pathOf('/h5/')).toBe('/pages/sys/index')
    expect(pathOf('/')).toBe('/pages/sys/index')
  })

  test('home, knowledge and login pages are open; profile and consultations need a bound user', () => {
    expect(isOpenPage('/pages/sys/merge/index')).toBe(true)
    expect(isOpenPage('/pages/sys/knowledge/detail?id=1')).toBe(true)
    // the health tools answer anyone
    expect(isOpenPage('/internet/babyBlood/index')).toBe(true)
    expect(isOpenPage('/internet/hepatitisTest/hepatitis-result?HBsAg=1')).toBe(true)
    expect(isOpenPage('/internet/inquiry/index')).toBe(false)
    expect(isOpenPage('/pages/editUser/index')).toBe(false)
    expect(isOpenPage('/pages/sys/conversation/index')).toBe(false)
  })

  test('login and about pages run without the startup check', () => {
    expect(skipsStartup('/pages/login/login?code=x')).toBe(true)
    expect(skipsStartup('/pages/about/rich?key=about')).toBe(true)
    expect(skipsStartup('/pages/sys/user/index')).toBe(false)
  })

  test('a menu entry leads somewhere only when its page is built', () => {
    expect(isBuiltPage('/pages/hospital/index')).toBe(true)
    expect(isBuiltPage('/palm/register/index')).toBe(true)
    expect(isBuiltPage('/palm/payment/list')).toBe(true)
    expect(isBuiltPage('/palm/report/index')).toBe(true)
    expect(isBuiltPage('/internet/diagnosisTemplate/index')).toBe(false)
  })
})
