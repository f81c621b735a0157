import { pageOfScannedCode } from './scanRules'

/**
 * A bill number as the HIS issues it (the sandbox HIS, hisSandbox.ts `newBillNo`): `B`, the hospital's date of issue
 * YYYYMMDD, and ten digits, e.g. `B202604150123456789`. A hospital whose HIS numbers its bills otherwise changes it here.
 */
export const BILL_NO_PATTERN = /^B\d{18}$/
/** The page a bill's code opens (src/palm/payment/waitPay.tsx). */
const WAIT_PAY_PAGE = '/palm/payment/waitPay'

/** A typed bill number as the HIS writes it (spaces left out, `b` taken as `B`), or null when it is not one. */
export function normalizeBillNo(typed: string): string | null {
  const text = typed.replace(/\s+/g, '').toUpperCase()
  return BILL_NO_PATTERN.test(text) ? text : null
}

/** One parameter of a query string (`a=1&billNo=B…`), decoded; null when absent or malformed. */
function queryValue(query: string, key: string): string | null {
  for (const part of query.split('&')) {
    const eq = part.indexOf('=')
    if (eq < 0 || part.slice(0, eq) !== key) continue
    try {
      return decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' '))
    } catch {
      return null
    }
  }
  return null
}

/**
 * The bill number a scanned bill code stands for (扫码缴费, spec §2 /palm/scanCode/index), or null when it is not a
 * bill's code. A bill printed by the hospital carries either
 * - the bill number itself (`B202604150123456789`), or
 * - the address of the app's bill page with it: `https://<the app's origin>/h5/palm/payment/waitPay?billNo=B…` (or
 *   the page path, as a mini-program code gives it), recognised by the home's 扫一扫 rules (scanRules.ts), so the same
 *   code opens the bill from the home's scanner too.
 */
export function billNoOfScannedCode(text: string, webOrigin: string): string | null {
  const bare = normalizeBillNo(text)
  if (bare) return bare
  const page = pageOfScannedCode(text, webOrigin)
  if (!page) return null
  const mark = page.indexOf('?')
  if (mark < 0 || page.slice(0, mark) !== WAIT_PAY_PAGE) return null
  const billNo = queryValue(page.slice(mark + 1), 'billNo')
  return billNo === null ? null : normalizeBillNo(billNo)
}
