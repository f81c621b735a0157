import { isStaffOf } from '../../src/utils/staffRules'
import { menusFor } from '../../src/utils/homeMenus'
import { kindOf } from '../../src/pages/hospitalConfig/settingKinds'
import type { MenuEntry } from '../../types/api/hospital'

const entry = (name: string, role: MenuEntry['role']): MenuEntry => ({ name, icon: name, url: `/x/${name}`, role })
const MENUS = [entry('预约挂号', 'palm'), entry('在线问诊', 'internet'), entry('就诊人管理', 'all')]

describe('the entries a service family shows (spec §6)', () => {
  test('a palm-only or internet-only hospital shows its family and the shared entries; one with both shows all', () => {
    expect(menusFor(MENUS, 'palm').map((m) => m.name)).toEqual(['预约挂号', '就诊人管理'])
    expect(menusFor(MENUS, 'internet').map((m) => m.name)).toEqual(['在线问诊', '就诊人管理'])
    expect(menusFor(MENUS, 'all')).toEqual(MENUS)
  })
})

describe('医院设置 checks a value before it is saved (the server silently falls back on one it cannot read)', () => {
  test('hold minutes: a whole number from 1 to 120', () => {
    const problem = kindOf('register.holdMinutes').problem!
    expect(['1', '15', '120'].map(problem)).toEqual([null, null, null])
    expect(['0', '121', '1.5', '半小时', ''].map(problem).every((p) => p === '请输入1至120的整数')).toBe(true)
  })

  test('the cancel deadline: HH:mm on a 24-hour clock', () => {
    const problem = kindOf('register.cancelDeadline').problem!
    expect(['17:00', '00:00', '23:59'].map(problem)).toEqual([null, null, null])
    expect(['24:00', '7:00', '17点'].map(problem).every((p) => p !== null)).toBe(true)
  })

  test('a key the page does not know is named by itself and saved as typed', () => {
    expect(kindOf('custom.notice')).toEqual({ label: 'custom.notice', hint: '' })
  })
})

describe('who is staff of a hospital (the one rule the server’s requireStaff and the app share)', () => {
  test('its own staff and platform administrators; not another hospital’s staff, not a patient', () => {
    expect(isStaffOf(['staff:10392'], '10392')).toBe(true)
    expect(isStaffOf(['admin'], '10392')).toBe(true)
    expect(isStaffOf(['staff:10388'], '10392')).toBe(false)
    expect(isStaffOf([], '10392')).toBe(false)
    expect(isStaffOf(['staff:103920'], '10392')).toBe(false)
  })
})
