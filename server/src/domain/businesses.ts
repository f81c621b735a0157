/**
 * The businesses the payment core settles (domain/payment/orders.ts registerBusiness): what happens to a booking, a
 * consultation or a gift when its order is paid, closed or refunded. Registered once per process, by the first app
 * built (app.ts); a test that stands in for one registers its own afterwards.
 */
import { registerBusiness } from './payment'
import { registrationOrderHandlers } from './register'
import { inquiryOrderHandlers } from './inquiry'
import { giftOrderHandlers } from './gift'

let registered = false

export function registerPaymentBusinesses(): void {
  if (registered) return
  registered = true
  registerBusiness('register', registrationOrderHandlers)
  registerBusiness('inquiry', inquiryOrderHandlers)
  registerBusiness('gift', giftOrderHandlers)
}
