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
})
