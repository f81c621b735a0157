import { addPatientUrl, doctorListUrl, editPatientUrl, ownPageUrl } from '../../src/pageUrls'
import { isBuiltPage } from '../../src/routes'
import { CARD_TYPES, GENERAL_VARIANT, PATIENT_KINDS, addPatientVariant, cardTypeOf } from '../../src/utils/hospitalVariants'

describe('each hospital’s own pages (spec §1, §2 customer-specific pages)', () => {
  test.each([
    ['10392', '/custom/10392/addPatient/index', '/custom/10392/addPatient/index?id=5&business=edit', '/internet/doctorList/index'],
    ['10387', '/custom/10387/addPatient/index', '/custom/10387/addPatient/index?id=5&business=edit', '/internet/doctorList/index'],
    ['10388', '/custom/10388/addPatient/index', '/custom/10388/addPatient/index?id=5&business=edit', '/internet/doctorList/index'],
    ['10412', '/custom/10412/cardType/index', '/custom/10412/addPatient/index?id=5&business=edit', '/internet/doctorList/index'],
    ['aixin', '/pages/addPatient/index', '/pages/addPatient/index?id=5&business=edit', '/custom/aixin/doctorList/index'],
    ['10500', '/pages/addPatient/index', '/pages/addPatient/index?id=5&business=edit', '/internet/doctorList/index'],
  ])('%s: add %s, complete %s, doctors %s', (code, add, complete, doctors) => {
    expect([addPatientUrl(code), editPatientUrl(5, code), doctorListUrl(code)]).toEqual([add, complete, doctors])
  })

  test('main mode (no hospital) opens the general pages', () => {
    expect([addPatientUrl(undefined), doctorListUrl(undefined)]).toEqual(['/pages/addPatient/index', '/internet/doctorList/index'])
  })

  test('every page a hospital opens is a page of this build', () => {
    for (const code of ['10392', '10387', '10388', '10412', 'aixin'])
      for (const page of ['addPatient', 'completion', 'doctorList'] as const) expect([code, page, isBuiltPage(ownPageUrl(page, code))]).toEqual([code, page, true])
  })
})

describe('the add-patient variants', () => {
  test('each hospital offers only ways of the general page, none twice, at least one', () => {
    for (const code of ['10392', '10387', '10388']) {
      const { kinds } = addPatientVariant(code)
      expect(kinds.length).toBeGreaterThan(0)
      expect(new Set(kinds).size).toBe(kinds.length)
      for (const k of kinds) expect(PATIENT_KINDS).toContain(k)
    }
  })

  test('what differs: 10392 and 10387 no health card, 10388 no child without a card, 10387 children first', () => {
    expect(addPatientVariant('10392').kinds).toEqual(['身份证', '无证儿童'])
    expect(addPatientVariant('10387').kinds).toEqual(['无证儿童', '身份证'])
    expect(addPatientVariant('10388').kinds).toEqual(['身份证', '电子健康卡'])
    expect(addPatientVariant('10500')).toBe(GENERAL_VARIANT)
    expect(addPatientVariant(undefined).notice).toBeUndefined()
  })

  test('10412’s card types each lead to a way of adding; an unknown key chooses none', () => {
    expect(CARD_TYPES.map((c) => [c.key, c.kind])).toEqual([
      ['idCard', '身份证'],
      ['socialCard', '身份证'],
      ['birthCert', '无证儿童'],
      ['eHealth', '电子健康卡'],
    ])
    expect(cardTypeOf('socialCard')?.numberLabel).toBe('社保卡号')
    expect(cardTypeOf('passport')).toBeUndefined()
    expect(cardTypeOf(undefined)).toBeUndefined()
  })
})
