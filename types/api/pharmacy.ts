/**
 * Medicines (issue 19): prescriptions written by the treating doctor and reviewed by a pharmacist, pharmacy orders
 * with delivery or pickup, and the shop. Spec §7 Internet hospital "Prescriptions" (`/dld-hospital/pres/*`,
 * `/dld-hospital/outflow/getPresList`) and "Prescription flow and shop" (`/dld-rpflow/api/*`). Money in fen.
 *
 * Patient calls:
 * - GET  /dld-hospital/pres/presDetail/{id}                → Prescription (id = prescription id)
 * - POST /dld-hospital/pres/getPrescriptionDetail {presNo} → Prescription
 * - GET  /dld-hospital/pres/drugDetail?ids=1,2             → DrugInfo[] (formulary facts of those drugs)
 * - GET  /dld-hospital/pres/historyDrug?patientId=         → UsedDrug[] (medicines prescribed before, for 续方)
 * - GET  /dld-hospital/pres/order/prescriptionStatus?id=   → PrescriptionStatusInfo
 * - GET  /dld-hospital/outflow/getPresList?patientId=&page=&size= → Page<PrescriptionSummary> (all of the user's
 *   prescriptions when patientId is left out)
 * - GET  /dld-hospital/im/medical/send/pres is not a patient call: the prescription card reaches the room when the
 *   pharmacist approves (custom message type 'prescription', payload PrescriptionCard).
 * - GET  /dld-rpflow/api/prescription/{id}                 → Prescription with `stores` (where it can be filled)
 * - GET  /dld-rpflow/api/order/web/prescription/{id}       → Prescription (the one a pharmacy order was placed from; id =
 *   pharmacy order id)
 * - GET  /dld-rpflow/api/store/detail/{id}                 → PharmacyStore
 * - GET  /dld-rpflow/api/sendTemplate/{storeId}            → SendTemplate
 * - GET  /dld-rpflow/api/sendTemplate/supportCity/{storeId}→ ShipCity[] (every city delivered to)
 * - GET  /dld-rpflow/api/sendTemplate/shipProvince/{storeId} → Region[] (provinces with at least one such city)
 * - GET  /dld-rpflow/api/sendTemplate/shipCity/{storeId}/{provinceCode} → Region[]
 * - POST /dld-rpflow/api/sendTemplate/expressFee ExpressFeeInput → ExpressFee
 * - POST /dld-rpflow/api/drugStore/store/inventory {storeId, drugIds} → StockLine[]
 * - GET  /dld-rpflow/api/drugStore/shop/drugPage?typeId=&keyword=&page=&size= → Page<ShopDrug>
 * - GET  /dld-rpflow/api/drugType/list                     → DrugType[]
 * - POST /dld-rpflow/api/order/place PlaceOrderInput       → PharmacyOrder (unpaid; stock taken; its payment-core order
 *   (business 'pharmacy') made in the same transaction, closing with it)
 * - POST /dld-rpflow/api/order/unifiedOrder/{id}           → PayOrder (the payment core's order of that pharmacy order;
 *   the page then pays it through `/dld-pay/pay` like every other order)
 * - POST /dld-rpflow/api/order/cancel/{id}                 → PharmacyOrder (unpaid: cancelled; paid, not shipped:
 *   cancelled and refunded; stock back exactly once)
 * - POST /dld-rpflow/api/order/refund/{id} {reason}        → PharmacyOrder (shipped or ready: refundRequested)
 * - POST /dld-rpflow/api/order/cancelRefund/{id}           → PharmacyOrder (back to the status before the request)
 * - GET  /dld-rpflow/api/order/checkOrderAgain/{id}        → PharmacyOrder (payment state re-read from the provider)
 * - GET  /dld-rpflow/api/order/detail/{id}                 → PharmacyOrder
 * - GET  /dld-rpflow/api/order/orderList?source=&status=&page=&size= → Page<PharmacyOrderSummary>
 * - POST /dld-rpflow/api/order/planOrder PlanOrderInput    → PharmacyOrder (a repeat order of a renewable prescription)
 * - POST /dld-rpflow/api/storeQrCode/getInfo {orderId}     → PickupCode (the QR code shown at the store)
 *
 * Workbench calls (`/dld-doctor/api`, staff bearer token; types/api/workbench.ts for the rest):
 * - GET  /formulary?keyword=&category=                     → DrugInfo[] (doctor)
 * - GET  /diagnosisTemplates                               → DiagnosisTemplate[] (doctor: own and the hospital's)
 * - POST /diagnosisTemplates DiagnosisTemplateInput        → DiagnosisTemplate (doctor: a template of their own, at most 50)
 * - PUT  /diagnosisTemplates/{id} DiagnosisTemplateInput   → DiagnosisTemplate (its doctor; the hospital's are read-only)
 * - DELETE /diagnosisTemplates/{id}                        → null (its doctor)
 * - POST /inquiries/{id}/prescriptions WritePrescriptionInput → Prescription (treating doctor of that open inquiry only)
 * - GET  /inquiries/{id}/prescriptions                     → Prescription[] (treating doctor)
 * - POST /prescriptions/{id}/revoke                        → Prescription (its doctor; only while not ordered)
 * - GET  /review/prescriptions?status=reviewing|approved|rejected → Prescription[] (pharmacist of that hospital)
 * - POST /review/prescriptions/{id}/approve                → Prescription (pharmacist)
 * - POST /review/prescriptions/{id}/reject {reason}        → Prescription (pharmacist)
 * - GET  /pharmacy/orders?status=                          → PharmacyOrder[] (pharmacist: the hospital's stores)
 * - POST /pharmacy/orders/{id}/ship {carrier, trackingNo}  → PharmacyOrder (paid express order)
 * - POST /pharmacy/orders/{id}/ready                       → PharmacyOrder (paid pickup order)
 * - POST /pharmacy/orders/{id}/complete                    → PharmacyOrder (picked up / delivered)
 * - POST /pharmacy/orders/{id}/refund                      → PharmacyOrder (accept a refund request: refunded)
 */
import type { PayOrder } from './payment'
import type { Page } from './hospital'

export type { Page }

export type DrugCategory = 'western' | 'patent' | 'chinese'

/** A medicine of the formulary (pres/drugDetail, the workbench's formulary). */
export interface DrugInfo {
  id: number
  code: string
  name: string
  commonName: string
  category: DrugCategory
  /** drugSpec, e.g. "0.25g*24粒" */
  drugSpec: string
  /** drugSpecUnit, e.g. "g" */
  drugSpecUnit: string
  /** The unit counted and sold: 盒, 瓶; g for 中药饮片 (spec §3: default g for Chinese medicine). */
  unit: string
  dosageForm: string
  manufacturer: string
  defaultUsage: string
  priceFen: number
  rx: boolean
  picture: string
}

export interface PrescriptionDiagnosis {
  code: string
  name: string
}

/** One drug line (spec §3: drugName, totalCount, unit, drugSpec, drugSpecUnit). */
export interface DrugLine {
  drugId: number
  drugName: string
  drugSpec: string
  drugSpecUnit: string
  unit: string
  dose: string
  frequency: string
  days: number
  /** totalCount */
  totalCount: number
  priceFen: number
  /** priceFen × totalCount */
  amountFen: number
}

export type PrescriptionStatus = 'reviewing' | 'approved' | 'rejected' | 'revoked'

/**
 * What the patient sees of a prescription. `orderable`: approved, not expired, no live order. `expired` is computed
 * from expiresAt (3 days after writing unless the hospital configures `prescriptionValidDays`).
 */
export interface Prescription {
  id: number
  presNo: string
  inquiryId: number
  category: DrugCategory
  patientId: number
  patientName: string
  sex: 1 | 2
  age: number
  doctorId: number
  doctorName: string
  deptName: string
  /** The reviewing pharmacist's name once reviewed, else ''. */
  pharmacistName: string
  diagnoses: PrescriptionDiagnosis[]
  advice: string
  lines: DrugLine[]
  drugFeeFen: number
  diagnosisFeeFen: number
  totalFen: number
  status: PrescriptionStatus
  /** 待审核 / 审核通过 / 审核未通过 / 已撤回 / 已过期 / 已下单 */
  statusText: string
  rejectReason: string | null
  renewable: boolean
  expired: boolean
  orderable: boolean
  /** The live pharmacy order placed from it, if any. */
  orderId: number | null
  expiresAt: string
  reviewedAt: string | null
  createdAt: string
  /** Only on /dld-rpflow/api/prescription/{id}: stores that have every line in stock. */
  stores?: PharmacyStoreBrief[]
}

export type PrescriptionSummary = Pick<
  Prescription,
  'id' | 'presNo' | 'patientName' | 'doctorName' | 'deptName' | 'diagnoses' | 'totalFen' | 'status' | 'statusText' | 'expired' | 'orderable' | 'orderId' | 'createdAt' | 'expiresAt'
> & { drugNames: string[] }

export interface PrescriptionStatusInfo {
  id: number
  status: PrescriptionStatus
  statusText: string
  orderable: boolean
  orderId: number | null
}

/** The card the room shows (chat custom message 'prescription'). */
export interface PrescriptionCard {
  prescriptionId: number
  presNo: string
  diagnoses: string[]
  drugNames: string[]
  totalFen: number
}

/** A medicine prescribed to the patient before (historyDrug, /internet/usedMedicine/index). */
export interface UsedDrug {
  drugId: number
  drugName: string
  drugSpec: string
  unit: string
  lastPrescribedAt: string
  doctorId: number
  doctorName: string
  times: number
}

export interface PharmacyStoreBrief {
  id: number
  name: string
  address: string
  delivery: boolean
  pickup: boolean
}

export interface PharmacyStore extends PharmacyStoreBrief {
  phone: string
  hours: string
  intro: string
  latitude: string | null
  longitude: string | null
}

export interface SendTemplate {
  storeId: number
  expressFeeFen: number
  /** null: delivery is never free */
  freeShippingFromFen: number | null
  /** The tip the order page toasts (spec §8: 2.5 s, masked), e.g. "配送费15元，满99元包邮". */
  tip: string
}

export interface Region {
  code: number
  name: string
}

export interface ShipCity {
  provinceCode: number
  provinceName: string
  cityCode: number
  cityName: string
}

export interface ExpressFeeInput {
  storeId: number
  addressId: number
  drugFeeFen: number
}

export interface ExpressFee {
  /** The address's city is delivered to. */
  supported: boolean
  expressFeeFen: number
  tip: string
}

export interface StockLine {
  drugId: number
  quantity: number
}

export interface DrugType {
  id: number
  name: string
}

/** A product of the shop (over the counter; rx products show but need a prescription). */
export interface ShopDrug extends DrugInfo {
  typeId: number | null
  /** The hospital's shop store, which sells it (the cart's orders are placed there); null: the hospital has none. */
  storeId: number | null
  /** In stock at the hospital's shop store. */
  stock: number
}

export type PharmacyDelivery = 'express' | 'pickup'
export type PharmacyOrderSource = 'prescription' | 'shop'
export type PharmacyOrderStatus = 'unpaid' | 'paid' | 'shipped' | 'ready' | 'completed' | 'refundRequested' | 'refunded' | 'cancelled' | 'closed'

/**
 * /dld-rpflow/api/order/place. From a prescription (source 'prescription', prescriptionId; lines are the
 * prescription's) or from the cart (source 'shop', lines; patientId required when any line is rx, which needs an
 * orderable prescription of that patient holding the drug). addressId with delivery 'express'.
 */
export interface PlaceOrderInput {
  source: PharmacyOrderSource
  prescriptionId?: number
  lines?: { drugId: number; quantity: number }[]
  patientId?: number
  storeId: number
  delivery: PharmacyDelivery
  addressId?: number
  idempotencyKey: string
}

export interface PlanOrderInput {
  prescriptionId: number
  storeId: number
  delivery: PharmacyDelivery
  addressId?: number
  idempotencyKey: string
}

export interface OrderLine {
  drugId: number
  drugName: string
  drugSpec: string
  unit: string
  quantity: number
  priceFen: number
  amountFen: number
}

export interface OrderStep {
  status: PharmacyOrderStatus
  statusText: string
  note: string
  at: string
}

export interface PharmacyOrderSummary {
  id: number
  orderCode: string
  source: PharmacyOrderSource
  status: PharmacyOrderStatus
  /** 待支付 / 待发货 / 已发货 / 待取药 / 已完成 / 退款中 / 已退款 / 已取消 / 已关闭 */
  statusText: string
  storeName: string
  drugNames: string[]
  totalFen: number
  createdAt: string
}

export interface PharmacyOrder extends PharmacyOrderSummary {
  prescriptionId: number | null
  patientName: string | null
  store: PharmacyStoreBrief
  delivery: PharmacyDelivery
  /** Masked for display: 张*三 138****0000 广东省 深圳市 南山区 ... */
  address: { name: string; mobile: string; regionText: string; detail: string } | null
  lines: OrderLine[]
  drugFeeFen: number
  diagnosisFeeFen: number
  expressFeeFen: number
  carrier: string | null
  trackingNo: string | null
  refundReason: string | null
  /** The payment core's order (orderNo, expiresAt, status) once placed. */
  payOrder: PayOrder | null
  steps: OrderStep[]
  /** What the patient may do now. */
  canPay: boolean
  canCancel: boolean
  canRefund: boolean
  canCancelRefund: boolean
}


export interface PickupCode {
  orderId: number
  pickupCode: string
  /** What the QR code encodes (the store scans it). */
  qrText: string
  storeName: string
}

// ---- workbench ---------------------------------------------------------------------------------------------------

export interface DiagnosisTemplate {
  id: number
  name: string
  /** Own (true) or the hospital's shared template. */
  own: boolean
  /** The prescription category it fills. */
  category: DrugCategory
  diagnoses: PrescriptionDiagnosis[]
  lines: { drugId: number; dose: string; frequency: string; days: number; quantity: number }[]
}

/** A doctor's own template: a name of 1 to 30 characters; diagnoses and lines checked as a prescription's are. */
export type DiagnosisTemplateInput = Pick<DiagnosisTemplate, 'name' | 'category' | 'diagnoses' | 'lines'>

export interface WritePrescriptionInput {
  category: DrugCategory
  diagnoses: PrescriptionDiagnosis[]
  advice: string
  renewable: boolean
  lines: { drugId: number; dose: string; frequency: string; days: number; quantity: number }[]
  idempotencyKey: string
}
