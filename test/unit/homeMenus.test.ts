import { ELDER_GROUP, elderMenus, groupMenus } from '../../src/utils/homeMenus'
import type { MenuEntry } from '../../types/api/hospital'

const entry = (name: string, icon: string, group?: string): MenuEntry => ({ name, icon, url: `/x/${icon}`, role: 'all', group })

/** The demo hospital's menus, in the order it configured them. */
const MENUS = [
  entry('预约挂号', 'register', '门诊服务'),
  entry('门诊缴费', 'payment', '门诊服务'),
  entry('报告查询', 'report', '门诊服务'),
  entry('排队叫号', 'queue', '门诊服务'),
  entry('住院服务', 'inpatient', '住院服务'),
  entry('价格公示', 'price', '便民服务'),
  entry('就诊人管理', 'patient', '便民服务'),
  entry('在线问诊', 'inquiry', '互联网医院'),
  entry('我的医生', 'doctor', '互联网医院'),
]

const names = (groups: [string, MenuEntry[]][]) => groups.map(([g, items]) => [g, items.map((m) => m.name)])

describe('home menus', () => {
  test('groups keep the configured order; an entry without a group is a 服务', () => {
    expect(names(groupMenus([entry('A', 'a', '甲'), entry('B', 'b'), entry('C', 'c', '甲')]))).toEqual([
      ['甲', ['A', 'C']],
      ['服务', ['B']],
    ])
  })

  test('elder mode: the six most used services first, in their order, then the rest without them', () => {
    expect(names(elderMenus(MENUS))).toEqual([
      [ELDER_GROUP, ['预约挂号', '门诊缴费', '报告查询', '住院服务', '在线问诊', '就诊人管理']],
      ['门诊服务', ['排队叫号']],
      ['便民服务', ['价格公示']],
      ['互联网医院', ['我的医生']],
    ])
  })

  test('a hospital with fewer of them shows what it has; none of them leaves the groups as they are', () => {
    expect(names(elderMenus([entry('价格公示', 'price', '便民'), entry('在线问诊', 'inquiry', '互联网')]))).toEqual([
      [ELDER_GROUP, ['在线问诊']],
      ['便民', ['价格公示']],
    ])
    const plain = [entry('价格公示', 'price', '便民')]
    expect(elderMenus(plain)).toEqual(groupMenus(plain))
  })
})
