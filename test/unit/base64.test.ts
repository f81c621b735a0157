import { decodeBase64, encodeBase64, mapSensitive } from '../../src/utils/base64'

describe('sensitive-field encoding (spec §3, §9)', () => {
  test('matches standard base64 for ASCII and Chinese text', () => {
    for (const s of ['110101199003074514', '3201021975061500 1X', '张三', '🙂 a', '']) {
      expect(encodeBase64(s)).toBe(Buffer.from(s, 'utf8').toString('base64'))
      expect(decodeBase64(encodeBase64(s))).toBe(s)
    }
  })

  test('converts only the listed fields, at any depth', () => {
    const out = mapSensitive({ idCard: '1101', name: '李四', list: [{ patientIdCard: 'ab', mobile: '138' }] }, encodeBase64)
    expect(out).toEqual({ idCard: 'MTEwMQ==', name: '李四', list: [{ patientIdCard: 'YWI=', mobile: '138' }] })
  })

  test('changes nothing it is given, and copies only what leads to a changed field', () => {
    const given = { hospital: { name: '市一院', tags: ['三甲'] }, list: [{ name: '甲' }, { idCard: '1101', name: '乙' }] }
    const before = JSON.parse(JSON.stringify(given))
    const out = mapSensitive(given, encodeBase64)
    expect(given).toEqual(before)
    expect(out).toEqual({ hospital: { name: '市一院', tags: ['三甲'] }, list: [{ name: '甲' }, { idCard: 'MTEwMQ==', name: '乙' }] })
    expect(out).not.toBe(given)
    expect(out.list).not.toBe(given.list)
    expect(out.hospital).toBe(given.hospital)
    expect(out.list[0]).toBe(given.list[0])
  })

  test('gives back an answer without sensitive fields as it is', () => {
    const answer = { menus: [{ name: '预约挂号', url: '/pages/register/index' }], idCard: '', at: new Date(0) }
    expect(mapSensitive(answer, encodeBase64)).toBe(answer)
  })
})
