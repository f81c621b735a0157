import TIM from 'tim-js-sdk'
import type { TimSdk } from './im'

const sdk: TimSdk = TIM
export default sdk
