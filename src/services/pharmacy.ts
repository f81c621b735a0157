import { get, post } from './request'
import type { PayOrder } from '../../types/api/payment'
import type {
  DrugInfo,
  DrugType,
  ExpressFee,
  ExpressFeeInput,
  Page,
  PharmacyOrder,
  PharmacyOrderSource,
  PharmacyOrderStatus,
  PharmacyOrderSummary,
  PharmacyStore,
  PickupCode,
  PlaceOrderInput,
  PlanOrderInput,
  Prescription,
  PrescriptionStatusInfo,
  PrescriptionSummary,
  Region,
  SendTemplate,
  ShipCity,
  ShopDrug,
  StockLine,
  UsedDrug,
} from '../../types/api/pharmacy'

/**
 * Medicines (types/api/pharmacy.ts has every call): prescriptions `/dld-hospital/pres/*` and `outflow/getPresList`
 * (spec §7 Internet hospital), pharmacy orders, delivery and the shop `/dld-rpflow/api` (spec §7 Prescription flow and
 * shop).
 */
const H = '/dld-hospital'
const R = '/dld-rpflow/api'

const defined = (q: object) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== ''))

// ---- prescriptions ---------------------------------------------------------------------------------------------------

export const getPrescription = (id: number) => get<Prescription>(`${H}/pres/presDetail/${id}`, undefined, { noLoading: true })
export const getPrescriptionByNo = (presNo: string) => post<Prescription>(`${H}/pres/getPrescriptionDetail`, { presNo }, { noLoading: true })
export const getDrugDetails = (ids: number[]) => get<DrugInfo[]>(`${H}/pres/drugDetail`, { ids: ids.join(',') }, { noLoading: true })
export const listUsedDrugs = (patientId?: number) => get<UsedDrug[]>(`${H}/pres/historyDrug`, defined({ patientId }), { noLoading: true })
export const getPrescriptionStatus = (id: number) => get<PrescriptionStatusInfo>(`${H}/pres/order/prescriptionStatus`, { id }, { noLoading: true })
export const listPrescriptions = (q: { patientId?: number; page: number; size: number }) =>
  get<Page<PrescriptionSummary>>(`${H}/outflow/getPresList`, defined(q), { noLoading: true })
/** The prescription with the stores that can fill it. */
export const getPrescriptionToOrder = (id: number) => get<Prescription>(`${R}/prescription/${id}`, undefined, { noLoading: true })
/** The prescription a pharmacy order was placed from. */
export const getOrderPrescription = (orderId: number) => get<Prescription>(`${R}/order/web/prescription/${orderId}`, undefined, { noLoading: true })

// ---- stores and delivery ---------------------------------------------------------------------------------------------

export const getStore = (id: number) => get<PharmacyStore>(`${R}/store/detail/${id}`, undefined, { noLoading: true })
export const getSendTemplate = (storeId: number) => get<SendTemplate>(`${R}/sendTemplate/${storeId}`, undefined, { noLoading: true })
export const listSupportCities = (storeId: number) => get<ShipCity[]>(`${R}/sendTemplate/supportCity/${storeId}`, undefined, { noLoading: true })
export const listShipProvinces = (storeId: number) => get<Region[]>(`${R}/sendTemplate/shipProvince/${storeId}`, undefined, { noLoading: true })
export const listShipCities = (storeId: number, provinceCode: number) => get<Region[]>(`${R}/sendTemplate/shipCity/${storeId}/${provinceCode}`, undefined, { noLoading: true })
export const getExpressFee = (input: ExpressFeeInput) => post<ExpressFee>(`${R}/sendTemplate/expressFee`, input, { json: true, noLoading: true })
export const getInventory = (storeId: number, drugIds: number[]) => post<StockLine[]>(`${R}/drugStore/store/inventory`, { storeId, drugIds }, { json: true, noLoading: true })

// ---- shop ------------------------------------------------------------------------------------------------------------

/** The shop is the hospital's: its categories and shelf are those of the hospital named (else of the app's). */
export const listDrugTypes = (hospitalCode?: string) => get<DrugType[]>(`${R}/drugType/list`, defined({ hospitalCode }), { noLoading: true })
export const listShopDrugs = (q: { hospitalCode?: string; typeId?: number; keyword?: string; page: number; size: number }) =>
  get<Page<ShopDrug>>(`${R}/drugStore/shop/drugPage`, defined(q), { noLoading: true })

// ---- orders ----------------------------------------------------------------------------------------------------------

export const placeOrder = (input: PlaceOrderInput) => post<PharmacyOrder>(`${R}/order/place`, input, { json: true })
export const planOrder = (input: PlanOrderInput) => post<PharmacyOrder>(`${R}/order/planOrder`, input, { json: true })
/** The payment core's order of a pharmacy order; paid through `/dld-pay/pay` like every other order. */
export const unifiedOrder = (id: number) => post<PayOrder>(`${R}/order/unifiedOrder/${id}`)
export const cancelPharmacyOrder = (id: number) => post<PharmacyOrder>(`${R}/order/cancel/${id}`)
export const requestRefund = (id: number, reason: string) => post<PharmacyOrder>(`${R}/order/refund/${id}`, { reason })
export const cancelRefund = (id: number) => post<PharmacyOrder>(`${R}/order/cancelRefund/${id}`)
export const checkOrderAgain = (id: number) => get<PharmacyOrder>(`${R}/order/checkOrderAgain/${id}`, undefined, { noLoading: true })
export const getPharmacyOrder = (id: number) => get<PharmacyOrder>(`${R}/order/detail/${id}`, undefined, { noLoading: true })
export const listPharmacyOrders = (q: { source?: PharmacyOrderSource; status?: PharmacyOrderStatus; page: number; size: number }) =>
  get<Page<PharmacyOrderSummary>>(`${R}/order/orderList`, defined(q), { noLoading: true })
export const getPickupCode = (orderId: number) => post<PickupCode>(`${R}/storeQrCode/getInfo`, { orderId }, { noLoading: true })
