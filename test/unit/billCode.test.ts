import { BILL_NO_PATTERN, billNoOfScannedCode, normalizeBillNo } from '../../src/utils/billCode'
import { waitPayUrl } from '../../src/pageUrls'

const ORIGIN = 'https://hospital.example'
const BILL = 'B202604150123456789'

describe('a typed bill number (扫码缴费)', () => {
  test.each([
    [BILL, BILL],
    ['b202604150123456789', BILL],
    ['  B2026 0415 0123 4567 89 ', BILL],
  ])('%j is %s', (typed, billNo) => {
    expect(normalizeBillNo(typed)).toBe(billNo)
  })

  test.each(['', 'B', 'B20260415012345678', 'B2026041501234567890', 'A202604150123456789', '202604150123456789', 'B20260415012345678X', 'ZY2026041512345678'])(
    '%j is not a bill number',
    (typed) => {
      expect(normalizeBillNo(typed)).toBeNull()
    },
  )

  test('the pattern is what the sandbox HIS issues: B, the date, ten digits', () => {
    expect(BILL_NO_PATTERN.test(`B${'20260415'}${'0'.repeat(10)}`)).toBe(true)
  })
})

describe('which scanned codes are bills', () => {
  test.each([
    // the bill number itself
    [BILL, BILL],
    [` ${BILL}\n`, BILL],
    // the address of the app's bill page, as the app builds it
    [`${ORIGIN}/h5${waitPayUrl(BILL)}`, BILL],
    [`${ORIGIN}/h5/palm/payment/waitPay?billNo=${BILL}`, BILL],
    [`${ORIGIN}/h5/palm/payment/waitPay?source=scanCode&billNo=${BILL}#x`, BILL],
    // the page path, as a mini-program code carries it
    [`palm/payment/waitPay?billNo=${BILL}`, BILL],
    [`/palm/payment/waitPay?billNo=${BILL.toLowerCase()}`, BILL],
  ])('%s is bill %s', (text, billNo) => {
    expect(billNoOfScannedCode(text, ORIGIN)).toBe(billNo)
  })

  test.each([
    '',
    'hello',
    // another site's address of the same page
    `https://evil.example/h5/palm/payment/waitPay?billNo=${BILL}`,
    // another page of the app, or the bill page without a bill number or with a malformed one
    `${ORIGIN}/h5/internet/doctor/index?id=5`,
    `${ORIGIN}/h5/palm/payment/waitPay`,
    `${ORIGIN}/h5/palm/payment/waitPay?billNo=`,
    `${ORIGIN}/h5/palm/payment/waitPay?billNo=%E0%A4%A`,
    `${ORIGIN}/h5/palm/payment/waitPay?billNo=B1`,
    `${ORIGIN}/h5/palm/payment/waitPay?xbillNo=${BILL}`,
    `weixin://dl/business/?t=${BILL}`,
  ])('%j is not a bill', (text) => {
    expect(billNoOfScannedCode(text, ORIGIN)).toBeNull()
  })
})
