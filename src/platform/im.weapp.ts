import TIM from 'tim-wx-sdk'
import type { TimSdk } from './im'

const sdk: TimSdk = TIM
export default sdk
