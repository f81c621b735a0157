import { NICKNAME_DELIMITER, packNickname, unpackNickname } from '../../src/utils/nickname'

const D = NICKNAME_DELIMITER

describe('IM profile nickname (spec §3)', () => {
  test('packs nick, sex, age and orderType in that order with one delimiter', () => {
    expect(packNickname({ nick: '张三', sex: '男', age: '34', orderType: '1' })).toBe(`张三${D}男${D}34${D}1`)
  })

  test('round trip', () => {
    const parts = { nick: '张三', sex: '女', age: '7', orderType: '2' }
    expect(unpackNickname(packNickname(parts))).toEqual(parts)
    const empty = { nick: '李四', sex: '', age: '', orderType: '' }
    expect(unpackNickname(packNickname(empty))).toEqual(empty)
  })

  test('a nick containing the delimiter loses it, and the other fields stay in place', () => {
    const packed = packNickname({ nick: `王${D}五`, sex: '男', age: '60', orderType: '3' })
    expect(packed.split(D)).toHaveLength(4)
    expect(unpackNickname(packed)).toEqual({ nick: '王五', sex: '男', age: '60', orderType: '3' })
  })

  test('a plain nickname is all nick', () => {
    expect(unpackNickname('赵六')).toEqual({ nick: '赵六', sex: '', age: '', orderType: '' })
    expect(unpackNickname('')).toEqual({ nick: '', sex: '', age: '', orderType: '' })
    // too few fields to be packed: read as written
    expect(unpackNickname(`a${D}b`)).toEqual({ nick: `a${D}b`, sex: '', age: '', orderType: '' })
  })

  test('extra fields from a packer that kept the delimiter belong to the nick', () => {
    expect(unpackNickname(`王${D}五${D}男${D}60${D}3`)).toEqual({ nick: `王${D}五`, sex: '男', age: '60', orderType: '3' })
  })
})
