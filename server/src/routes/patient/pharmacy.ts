import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { CALLER_LIMITS } from '../../domain/limits'
import { hospitalCode, id, idParam, idempotencyKey, pageNo, pageOf, pageSize } from '../schemas'
import { payOrderDto } from './pay'
import * as pharmacy from '../../domain/pharmacy'

const R = '/dld-rpflow/api'
const optionalCode = hospitalCode.optional().or(z.literal('').transform(() => undefined))
const storeIdParam = z.object({ storeId: id })
const delivery = z.enum(['express', 'pickup'])
const source = z.enum(['prescription', 'shop'])
export const pharmacyOrderStatus = z.enum(['unpaid', 'paid', 'shipped', 'ready', 'completed', 'refundRequested', 'refunded', 'cancelled', 'closed'])
/** Stock and order quantities: a box, a bottle, or grams of 中药饮片. */
const quantity = z.number().int().positive().max(100_000)

const storeBriefDto = z.object({ id: z.number(), name: z.string(), address: z.string(), delivery: z.boolean(), pickup: z.boolean() })
const storeDto = storeBriefDto.extend({ phone: z.string(), hours: z.string(), intro: z.string(), latitude: z.string().nullable(), longitude: z.string().nullable() })
const regionDto = z.object({ code: z.number(), name: z.string() })
const drugInfoDto = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  commonName: z.string(),
  category: z.enum(['western', 'patent', 'chinese']),
  drugSpec: z.string(),
  drugSpecUnit: z.string(),
  unit: z.string(),
  dosageForm: z.string(),
  manufacturer: z.string(),
  defaultUsage: z.string(),
  priceFen: z.number().int(),
  rx: z.boolean(),
  picture: z.string(),
})

const orderSummaryDto = z.object({
  id: z.number(),
  orderCode: z.string(),
  source,
  status: pharmacyOrderStatus,
  statusText: z.string(),
  storeName: z.string(),
  drugNames: z.array(z.string()),
  totalFen: z.number().int(),
  createdAt: z.string(),
})
export const pharmacyOrderDto = orderSummaryDto.extend({
  prescriptionId: z.number().nullable(),
  patientName: z.string().nullable(),
  store: storeBriefDto,
  delivery,
  address: z.object({ name: z.string(), mobile: z.string(), regionText: z.string(), detail: z.string() }).nullable(),
  lines: z.array(
    z.object({
      drugId: z.number(),
      drugName: z.string(),
      drugSpec: z.string(),
      unit: z.string(),
      quantity: z.number().int(),
      priceFen: z.number().int(),
      amountFen: z.number().int(),
    }),
  ),
  drugFeeFen: z.number().int(),
  diagnosisFeeFen: z.number().int(),
  expressFeeFen: z.number().int(),
  carrier: z.string().nullable(),
  trackingNo: z.string().nullable(),
  refundReason: z.string().nullable(),
  payOrder: payOrderDto.nullable(),
  steps: z.array(z.object({ status: pharmacyOrderStatus, statusText: z.string(), note: z.string(), at: z.string() })),
  canPay: z.boolean(),
  canCancel: z.boolean(),
  canRefund: z.boolean(),
  canCancelRefund: z.boolean(),
})

const deliveryInput = { storeId: id, delivery, addressId: id.optional(), idempotencyKey }
const placeInput = z.object({
  source,
  prescriptionId: id.optional(),
  lines: z.array(z.object({ drugId: id, quantity })).min(1, '请选择要购买的药品').max(50, '一次最多购买50种药品').optional(),
  patientId: id.optional(),
  ...deliveryInput,
})

/**
 * Prescription flow and shop, `/dld-rpflow/api` (types/api/pharmacy.ts): stores and delivery, the shop, and the
 * patient's pharmacy orders. The prescription reads of this prefix are the prescriptions' own routes.
 */
export async function pharmacyRoutes(app: FastifyInstance) {
  const { cipher, providers } = app.ctx
  const db = () => app.ctx.db

  // ---- stores and delivery -------------------------------------------------------------------------------------------

  route(app, {
    method: 'GET',
    url: `${R}/store/detail/:id`,
    summary: 'A pharmacy: address, hours, phone, whether it delivers and whether medicines can be picked up there',
    auth: 'user',
    params: idParam,
    data: storeDto,
    handler: async ({ params }) => pharmacy.storeDetail(db(), params.id),
  })

  route(app, {
    method: 'GET',
    url: `${R}/sendTemplate/:storeId`,
    summary: 'A pharmacy’s delivery terms in fen and the tip the order page shows, e.g. 配送费15元，满99元包邮',
    auth: 'user',
    params: storeIdParam,
    data: z.object({ storeId: z.number(), expressFeeFen: z.number().int(), freeShippingFromFen: z.number().int().nullable(), tip: z.string() }),
    handler: async ({ params }) => pharmacy.sendTemplate(db(), params.storeId),
  })

  route(app, {
    method: 'GET',
    url: `${R}/sendTemplate/supportCity/:storeId`,
    summary: 'Every city the pharmacy delivers to, with its province',
    auth: 'user',
    params: storeIdParam,
    data: z.array(z.object({ provinceCode: z.number(), provinceName: z.string(), cityCode: z.number(), cityName: z.string() })),
    handler: async ({ params }) => pharmacy.supportCities(db(), params.storeId),
  })

  route(app, {
    method: 'GET',
    url: `${R}/sendTemplate/shipProvince/:storeId`,
    summary: 'The provinces with at least one city the pharmacy delivers to',
    auth: 'user',
    params: storeIdParam,
    data: z.array(regionDto),
    handler: async ({ params }) => pharmacy.shipProvinces(db(), params.storeId),
  })

  route(app, {
    method: 'GET',
    url: `${R}/sendTemplate/shipCity/:storeId/:provinceCode`,
    summary: 'The cities of one province the pharmacy delivers to',
    auth: 'user',
    params: z.object({ storeId: id, provinceCode: id }),
    data: z.array(regionDto),
    handler: async ({ params }) => pharmacy.shipCities(db(), params.storeId, params.provinceCode),
  })

  route(app, {
    method: 'POST',
    url: `${R}/sendTemplate/expressFee`,
    summary: 'Whether the pharmacy delivers to one of the caller’s addresses, and the delivery fee of an order of that amount (someone else’s address: 2999)',
    auth: 'user',
    body: z.object({ storeId: id, addressId: id, drugFeeFen: z.coerce.number().int().min(0).max(100_000_000) }),
    data: z.object({ supported: z.boolean(), expressFeeFen: z.number().int(), tip: z.string() }),
    handler: async ({ body, auth }) => pharmacy.expressFee(db(), auth.userId, body),
  })

  route(app, {
    method: 'POST',
    url: `${R}/drugStore/store/inventory`,
    summary: 'The pharmacy’s stock of some medicines (0 for one it does not keep)',
    auth: 'user',
    body: z.object({ storeId: id, drugIds: z.array(id).min(1, '请选择药品').max(100) }),
    data: z.array(z.object({ drugId: z.number(), quantity: z.number().int() })),
    handler: async ({ body }) => pharmacy.inventory(db(), body.storeId, body.drugIds),
  })

  // ---- shop ------------------------------------------------------------------------------------------------------------

  route(app, {
    method: 'GET',
    url: `${R}/drugType/list`,
    summary: 'The shop’s categories, of the hospital named or else of the app’s hospital',
    auth: 'optional',
    query: z.object({ hospitalCode: optionalCode }),
    data: z.array(z.object({ id: z.number(), name: z.string() })),
    handler: async ({ query, auth }) => pharmacy.listDrugTypes(db(), { hospitalCode: query.hospitalCode, appId: auth?.appId }),
  })

  route(app, {
    method: 'GET',
    url: `${R}/drugStore/shop/drugPage`,
    summary: 'The shop’s medicines on the shelf, by category or name, with the stock of the hospital’s pharmacy (rx ones need a prescription)',
    auth: 'optional',
    query: z.object({
      hospitalCode: optionalCode,
      typeId: id.optional().or(z.literal('').transform(() => undefined)),
      keyword: z.string().trim().max(50).optional(),
      page: pageNo,
      size: pageSize(pharmacy.MAX_SHOP_PAGE),
    }),
    data: pageOf(drugInfoDto.extend({ typeId: z.number().nullable(), stock: z.number().int() })),
    handler: async ({ query, auth }) => pharmacy.shopDrugPage(db(), { ...query, keyword: query.keyword || undefined, appId: auth?.appId }),
  })

  // ---- orders ----------------------------------------------------------------------------------------------------------

  route(app, {
    method: 'POST',
    url: `${R}/order/place`,
    callerLimit: CALLER_LIMITS.order,
    summary: 'Place a pharmacy order from an approved prescription or the cart: stock taken and its payment order made in one transaction; the same key answers the same order',
    auth: 'user',
    body: placeInput,
    data: pharmacyOrderDto,
    audit: 'payment',
    handler: async ({ body, auth }) => pharmacy.placeOrder(db(), cipher, auth.userId, body, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${R}/order/planOrder`,
    callerLimit: CALLER_LIMITS.order,
    summary: 'A repeat order of a renewable prescription whose last order was completed (medicines and delivery only)',
    auth: 'user',
    body: z.object({ prescriptionId: id, ...deliveryInput }),
    data: pharmacyOrderDto,
    audit: 'payment',
    handler: async ({ body, auth }) => pharmacy.placeOrder(db(), cipher, auth.userId, { ...body, source: 'prescription' }, new Date(), true),
  })

  route(app, {
    method: 'POST',
    url: `${R}/order/unifiedOrder/:id`,
    summary: 'The payment order of an unpaid pharmacy order, paid through /dld-pay/pay',
    auth: 'user',
    params: idParam,
    data: payOrderDto,
    handler: async ({ params, auth }) => pharmacy.unifiedOrder(db(), auth.userId, params.id),
  })

  route(app, {
    method: 'POST',
    url: `${R}/order/cancel/:id`,
    summary: 'Cancel a pharmacy order: unpaid, or paid and not shipped (refunded in full); the stock comes back once',
    auth: 'user',
    params: idParam,
    data: pharmacyOrderDto,
    audit: 'payment',
    handler: async ({ params, auth }) => pharmacy.cancelPharmacyOrder(db(), cipher, providers, auth.userId, params.id, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${R}/order/refund/:id`,
    summary: 'Ask the pharmacy for a refund of a shipped or ready order',
    auth: 'user',
    params: idParam,
    body: z.object({ reason: z.string().trim().min(1, '请填写退款原因').max(200, '退款原因不能超过200个字') }),
    data: pharmacyOrderDto,
    audit: 'payment',
    handler: async ({ params, body, auth }) => pharmacy.requestRefund(db(), cipher, auth.userId, params.id, body.reason, new Date()),
  })

  route(app, {
    method: 'POST',
    url: `${R}/order/cancelRefund/:id`,
    summary: 'Withdraw a refund request: the order goes back to shipped or ready',
    auth: 'user',
    params: idParam,
    data: pharmacyOrderDto,
    audit: 'payment',
    handler: async ({ params, auth }) => pharmacy.cancelRefund(db(), cipher, auth.userId, params.id, new Date()),
  })

  route(app, {
    method: 'GET',
    url: `${R}/order/checkOrderAgain/:id`,
    summary: 'A pharmacy order after asking the payment provider again about its payment',
    auth: 'user',
    params: idParam,
    data: pharmacyOrderDto,
    audit: 'payment',
    handler: async ({ params, auth }) => pharmacy.checkOrderAgain(db(), cipher, providers, auth.userId, params.id),
  })

  route(app, {
    method: 'GET',
    url: `${R}/order/detail/:id`,
    summary: 'A pharmacy order: lines, fees, delivery (masked), payment and every step',
    auth: 'user',
    params: idParam,
    data: pharmacyOrderDto,
    audit: 'payment',
    handler: async ({ params, auth }) => pharmacy.orderDetail(db(), cipher, auth.userId, params.id),
  })

  route(app, {
    method: 'GET',
    url: `${R}/order/orderList`,
    summary: 'The caller’s pharmacy and shop orders, newest first, by source and status',
    auth: 'user',
    query: z.object({ source: source.optional(), status: pharmacyOrderStatus.optional(), page: pageNo, size: pageSize(pharmacy.MAX_ORDER_PAGE) }),
    data: pageOf(orderSummaryDto),
    audit: 'payment',
    handler: async ({ query, auth }) => pharmacy.orderList(db(), auth.userId, query),
  })

  route(app, {
    method: 'POST',
    url: `${R}/storeQrCode/getInfo`,
    summary: 'The pickup code of a paid pickup order and what its QR code encodes',
    auth: 'user',
    body: z.object({ orderId: id }),
    data: z.object({ orderId: z.number(), pickupCode: z.string(), qrText: z.string(), storeName: z.string() }),
    handler: async ({ body, auth }) => pharmacy.pickupCode(db(), auth.userId, body.orderId),
  })
}
