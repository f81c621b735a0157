/** Self-service tests (自助开单, spec §2 /palm/selfService, §7 `diagnosis/dict`, `diagnosis/onLine/clinicalBill`). */

/** `POST /dld-palm/api/diagnosis/dict` `{hospitalCode, patientId}`. */
export interface SelfServiceDictInput {
  hospitalCode: string
  patientId: number
}

/** A test the hospital lets patients order themselves, and whether this patient may. */
export interface SelfServiceItem {
  /** The catalogue code (价格公示). */
  code: string
  name: string
  priceFen: number
  /** 空腹, 留尿 ... */
  notes: string
  /** Who it is for (仅限女性, 仅限45岁及以上男性 ...); '' when anyone. */
  audience: string
  allowed: boolean
  /** Why this patient may not order it; null when allowed. */
  reason: string | null
}

/** `POST /dld-palm/api/diagnosis/onLine/clinicalBill`. */
export interface SelfServiceBillInput {
  hospitalCode: string
  patientId: number
  codes: string[]
  idempotencyKey: string
}

/** The unpaid bill made for the chosen tests: paid with `POST /payment/init` `{billNos}`. */
export interface SelfServiceBill {
  billNos: string[]
  amountFen: number
  items: { code: string; name: string; amountFen: number }[]
  /** Where the tests are done once paid. */
  place: string
}
