import { pageOfScannedCode } from '../../src/utils/scanRules'

const ORIGIN = 'https://hospital.example'

describe('which scanned codes open which page (扫一扫)', () => {
  test.each([
    // a doctor's card: the H5 address of the doctor's home
    [`${ORIGIN}/h5/internet/doctor/index?id=5`, '/internet/doctor/index?id=5'],
    [`${ORIGIN}/h5/internet/doctor/index?id=5&hospitalCode=10392#top`, '/internet/doctor/index?id=5&hospitalCode=10392'],
    // the host is the same whatever its case; the default port is the origin's own
    ['HTTPS://Hospital.Example:443/h5/pages/sys/knowledge/detail?id=3', '/pages/sys/knowledge/detail?id=3'],
    // the app's own home, and a hospital's home poster
    [`${ORIGIN}/h5/`, '/pages/sys/index'],
    [`${ORIGIN}/h5`, '/pages/sys/index'],
    [`${ORIGIN}/h5/?hospitalCode=10392`, '/pages/sys/index?hospitalCode=10392'],
    // page paths, as a mini-program code carries them (WeChat reports them without the leading slash)
    ['/internet/doctor/index?id=5', '/internet/doctor/index?id=5'],
    ['internet/doctor/index?id=5', '/internet/doctor/index?id=5'],
    ['/h5/palm/register/index', '/palm/register/index'],
    ['  /pages/sys/knowledge/detail?id=3\n', '/pages/sys/knowledge/detail?id=3'],
    // a bill's code (src/utils/billCode.ts): its page, to pay it
    [`${ORIGIN}/h5/palm/payment/waitPay?billNo=B202611260000000001&source=scanCode`, '/palm/payment/waitPay?billNo=B202611260000000001&source=scanCode'],
  ])('%s opens %s', (text, page) => {
    expect(pageOfScannedCode(text, ORIGIN)).toBe(page)
  })

  test.each([
    // another site, even with the same path
    'https://evil.example/h5/internet/doctor/index?id=5',
    `${ORIGIN}.evil.example/h5/internet/doctor/index?id=5`,
    `http://hospital.example/h5/internet/doctor/index?id=5`,
    `${ORIGIN}:8443/h5/internet/doctor/index?id=5`,
    // our site, but not the app
    `${ORIGIN}/internet/doctor/index?id=5`,
    `${ORIGIN}/h5x/internet/doctor/index`,
    `${ORIGIN}/sandbox/pay/cashier?orderNo=1`,
    // a page the app does not have (yet), or no page at all
    `${ORIGIN}/h5/internet/diagnosisTemplate/index?id=1`,
    '/custom/10387/nucleic/index',
    '/internet/doctor/index/../../pages/sys/user/index',
    // other kinds of code
    '6901234567892',
    'weixin://wxpay/bizpayurl?pr=abc',
    'alipays://platformapi/startapp?appId=1',
    '//evil.example/h5/internet/doctor/index',
    'https://',
    '',
    '   ',
  ])('%s opens nothing', (text) => {
    expect(pageOfScannedCode(text, ORIGIN)).toBeNull()
  })
})
