/**
 * The businesses the payment core settles (domain/payment/orders.ts registerBusiness): what happens to a booking, a
 * consultation, a gift, a payment of outpatient bills or a top-up of an account or deposit when its order is paid, closed or refunded. Registered once
 * per process, by the first app built (app.ts); a test that stands in for one registers its own afterwards. Each app
 * names the HIS its bills are settled with (domain/bills/his.ts).
 */
import type { Providers } from '../plugins/providers'
import { registerBusiness } from './payment'
import { registrationOrderHandlers } from './register'
import { useHisForRegistration } from './register/his'
import { inquiryOrderHandlers } from './inquiry'
import { giftOrderHandlers } from './gift'
import { outpatientOrderHandlers, useHisForBills } from './bills'
import { rechargeOrderHandlers } from './recharge'
import { physicalOrderHandlers } from './physical'
import { nucleicOrderHandlers } from './nucleic'
import { pharmacyOrderHandlers } from './pharmacy'

let registered = false

export function registerPaymentBusinesses(providers: Pick<Providers, 'his'>): void {
  useHisForBills(providers.his)
  useHisForRegistration(providers.his)
  if (registered) return
  registered = true
  registerBusiness('register', registrationOrderHandlers)
  registerBusiness('inquiry', inquiryOrderHandlers)
  registerBusiness('gift', giftOrderHandlers)
  registerBusiness('outpatient', outpatientOrderHandlers)
  registerBusiness('clinic_recharge', rechargeOrderHandlers)
  registerBusiness('recharge', rechargeOrderHandlers)
  registerBusiness('physical', physicalOrderHandlers)
  registerBusiness('nucleic', nucleicOrderHandlers)
  registerBusiness('pharmacy', pharmacyOrderHandlers)
}
