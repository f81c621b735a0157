import type { FastifyInstance } from 'fastify'
import { authRoutes } from './auth'
import { fileRoutes } from './file'
import { hospitalRoutes } from './hospital'
import { imRoutes } from './im'
import { palmRoutes } from './palm'
import { patientRoutes } from './patient'
import { addressRoutes } from './address'
import { accompanyRoutes } from './accompany'
import { sandboxRoutes } from './sandbox'
import { wechatRoutes } from './wechat'
import { payRoutes } from './pay'
import { registrationRoutes } from './register'
import { internetRoutes } from './internet'
import { inquiryRoutes } from './inquiry'
import { insuranceRoutes } from './insurance'
import { triageRoutes } from './triage'
import { medicalRoutes } from './medical'
import { workbenchRoutes } from './workbench'
import { evaluationRoutes } from './evaluation'
import { giftRoutes } from './gift'
import { messageRoutes } from './message'
import { consultationRoutes } from './consultation'
import { auditRoutes } from './audit'
import { accountRoutes } from './account'

export async function registerRoutes(app: FastifyInstance) {
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
  await internetRoutes(app)
  await inquiryRoutes(app)
  await insuranceRoutes(app)
  await triageRoutes(app)
  await medicalRoutes(app)
  // the doctors' workbench (/workbench/, /dld-doctor/api): its own accounts and tokens
  await workbenchRoutes(app)
  await evaluationRoutes(app)
  await giftRoutes(app)
  await messageRoutes(app)
  await consultationRoutes(app)
  await auditRoutes(app)
  await accountRoutes(app)
  // our own chat service, used while Tencent IM is not configured (/dld-im/im/user-sig answers driver 'local')
  if (!app.ctx.config.tim) await (await import('./chatSocket')).chatSocketRoutes(app)
  if (app.ctx.providers.pay.sandbox) await (await import('./sandboxPay')).sandboxPayRoutes(app, app.ctx.providers.pay.sandbox)
  if (app.ctx.providers.wechat.kind === 'sandbox' || app.ctx.providers.alipay.kind === 'sandbox') await sandboxRoutes(app)
  if (app.ctx.providers.insurance.kind === 'sandbox') await (await import('./sandboxInsurance')).sandboxInsuranceRoutes(app)
  if (app.ctx.providers.healthCard.kind === 'sandbox') await (await import('./sandboxHealthCard')).sandboxHealthCardRoutes(app)
}
