import type { FastifyInstance } from 'fastify'
import { authRoutes } from './patient/auth'
import { fileRoutes } from './patient/file'
import { hospitalRoutes } from './patient/hospital'
import { imRoutes } from './patient/im'
import { palmRoutes } from './patient/palm'
import { patientRoutes } from './patient/patient'
import { addressRoutes } from './patient/address'
import { accompanyRoutes } from './patient/accompany'
import { sandboxRoutes } from './sandbox/authorize'
import { wechatRoutes } from './patient/wechat'
import { payRoutes } from './patient/pay'
import { registrationRoutes } from './patient/register'
import { billRoutes } from './patient/bills'
import { rechargeRoutes } from './patient/recharge'
import { internetRoutes } from './patient/internet'
import { inquiryRoutes } from './patient/inquiry'
import { insuranceRoutes } from './patient/insurance'
import { triageRoutes } from './patient/triage'
import { medicalRoutes } from './patient/medical'
import { workbenchRoutes } from './workbench'
import { evaluationRoutes } from './patient/evaluation'
import { giftRoutes } from './patient/gift'
import { messageRoutes } from './patient/message'
import { consultationRoutes } from './patient/consultation'
import { auditRoutes } from './patient/audit'
import { accountRoutes } from './patient/account'
import { healthToolRoutes } from './patient/healthTools'
import { selfServiceRoutes } from './patient/selfService'
import { escortPassRoutes } from './patient/escortPass'
import { escortPassDeskRoutes } from './workbench/escortPass'
import { queueRoutes } from './patient/queue'
import { surveyRoutes } from './patient/survey'
import { suggestionRoutes } from './patient/suggestion'
import { surveyDeskRoutes } from './workbench/survey'
import { reportRoutes } from './patient/reports'
import { physicalRoutes } from './patient/physical'
import { medTechRoutes } from './patient/medtech'
import { hisCallbackRoutes } from './his/callback'
import { prescriptionRoutes } from './patient/prescription'
import { pharmacyRoutes } from './patient/pharmacy'

/**
 * Every API route, by audience: the patients' app (routes/patient), the doctors' workbench (routes/workbench, its own
 * accounts and tokens), the chat service both use, and the sandboxes of the outside world on a demo server
 * (routes/sandbox). The load balancer's probes and the backup call are the app's own (routes/operations, app.ts).
 */
export async function registerRoutes(app: FastifyInstance) {
  // the patients' app
  await authRoutes(app)
  await wechatRoutes(app)
  await imRoutes(app)
  await hospitalRoutes(app)
  await palmRoutes(app)
  await patientRoutes(app)
  await addressRoutes(app)
  await accompanyRoutes(app)
  await fileRoutes(app)
  await payRoutes(app)
  await registrationRoutes(app)
  await billRoutes(app)
  await rechargeRoutes(app)
  await internetRoutes(app)
  await inquiryRoutes(app)
  await insuranceRoutes(app)
  await triageRoutes(app)
  await medicalRoutes(app)
  await evaluationRoutes(app)
  await giftRoutes(app)
  await messageRoutes(app)
  await consultationRoutes(app)
  await auditRoutes(app)
  await accountRoutes(app)
  await healthToolRoutes(app)
  await selfServiceRoutes(app)
  await escortPassRoutes(app)
  await queueRoutes(app)
  await surveyRoutes(app)
  await suggestionRoutes(app)
  await reportRoutes(app)
  await physicalRoutes(app)
  await medTechRoutes(app)
  await prescriptionRoutes(app)
  await pharmacyRoutes(app)
  // the doctors' workbench (/workbench/, /dld-doctor/api)
  await workbenchRoutes(app)
  await escortPassDeskRoutes(app)
  await surveyDeskRoutes(app)
  // a real HIS calling back (signed like the HIS contract): queue calls
  await hisCallbackRoutes(app)
  // our own chat service, used while Tencent IM is not configured (/dld-im/im/user-sig answers driver 'local')
  if (!app.ctx.config.tim) await (await import('./chatSocket')).chatSocketRoutes(app)
  // the sandboxes, each while its real service is not configured
  if (app.ctx.providers.pay.sandbox) await (await import('./sandbox/pay')).sandboxPayRoutes(app, app.ctx.providers.pay.sandbox)
  if (app.ctx.providers.wechat.kind === 'sandbox' || app.ctx.providers.alipay.kind === 'sandbox') await sandboxRoutes(app)
  if (app.ctx.providers.insurance.kind === 'sandbox') await (await import('./sandbox/insurance')).sandboxInsuranceRoutes(app)
  if (app.ctx.providers.healthCard.kind === 'sandbox') await (await import('./sandbox/healthCard')).sandboxHealthCardRoutes(app)
  if (app.ctx.config.demo && !app.ctx.config.pacsViewerUrl) await (await import('./sandbox/pacs')).sandboxPacsRoutes(app)
}
