import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { idParam } from '../schemas'
import type { StaffContext } from '../../domain/staff'
import * as pharmacy from '../../domain/pharmacy'
import { pharmacyOrderDto, pharmacyOrderStatus } from '../patient/pharmacy'

const P = '/dld-doctor/api/pharmacy/orders'

/** The pharmacy console on the workbench (pharmacists only, workbench/index.ts PHARMACIST_PATHS): the hospital's orders and each step. */
export async function pharmacyDeskRoutes(scope: FastifyInstance, staffOf: (req: FastifyRequest) => StaffContext) {
  const { cipher, providers } = scope.ctx
  const db = () => scope.ctx.db

  route(scope, {
    method: 'GET',
    url: P,
    summary: 'The pharmacist’s hospital’s pharmacy orders, newest first, by status',
    auth: 'none',
    query: z.object({ status: pharmacyOrderStatus.optional() }),
    data: z.array(pharmacyOrderDto),
    audit: { subject: 'payment', patients: async (_ctx, data) => pharmacy.orderPatients(db(), data.map((o) => o.id)) },
    handler: async ({ req, query }) => pharmacy.consoleOrders(db(), cipher, staffOf(req), query.status),
  })

  route(scope, {
    method: 'POST',
    url: `${P}/:id/ship`,
    summary: 'Ship a paid delivery order with its carrier and tracking number',
    auth: 'none',
    params: idParam,
    body: z.object({ carrier: z.string().trim().min(1, '请填写快递公司').max(32), trackingNo: z.string().trim().regex(/^[A-Za-z0-9-]{4,40}$/, '快递单号不正确') }),
    data: pharmacyOrderDto,
    audit: { subject: 'payment', patients: async (_ctx, data) => pharmacy.orderPatients(db(), [data.id]) },
    handler: async ({ req, params, body }) => pharmacy.shipOrder(db(), cipher, staffOf(req), params.id, body, new Date()),
  })

  route(scope, {
    method: 'POST',
    url: `${P}/:id/ready`,
    summary: 'A paid pickup order’s medicines are ready at the pharmacy',
    auth: 'none',
    params: idParam,
    data: pharmacyOrderDto,
    audit: { subject: 'payment', patients: async (_ctx, data) => pharmacy.orderPatients(db(), [data.id]) },
    handler: async ({ req, params }) => pharmacy.readyOrder(db(), cipher, staffOf(req), params.id, new Date()),
  })

  route(scope, {
    method: 'POST',
    url: `${P}/:id/complete`,
    summary: 'A shipped order delivered, or a ready order picked up',
    auth: 'none',
    params: idParam,
    data: pharmacyOrderDto,
    audit: { subject: 'payment', patients: async (_ctx, data) => pharmacy.orderPatients(db(), [data.id]) },
    handler: async ({ req, params }) => pharmacy.completeOrder(db(), cipher, staffOf(req), params.id, new Date()),
  })

  route(scope, {
    method: 'POST',
    url: `${P}/:id/refund`,
    summary: 'Accept a refund request: the whole amount goes back; the stock does not (the medicines left the pharmacy)',
    auth: 'none',
    params: idParam,
    data: pharmacyOrderDto,
    audit: { subject: 'payment', patients: async (_ctx, data) => pharmacy.orderPatients(db(), [data.id]) },
    handler: async ({ req, params }) => pharmacy.acceptRefund(db(), cipher, providers, staffOf(req), params.id, new Date()),
  })
}
