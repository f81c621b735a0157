import { get, post } from './request'
import type { PayAction, PayInput, PayOrder } from '../../types/api/payment'

/** The payment core, `/dld-pay`: how to pay an order, and an order as it now stands. */
const PAY = '/dld-pay'

export const startPayment = (input: PayInput) => post<PayAction>(`${PAY}/pay`, input)

/** The caller's order; the server asks the provider first when no notification has come yet. */
export const getPayOrder = (orderNo: string) => get<PayOrder>(`${PAY}/order/${encodeURIComponent(orderNo)}`, undefined, { noLoading: true })
