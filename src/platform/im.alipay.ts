// tim-wx-sdk is Tencent's one SDK for every mini-program: when it loads it finds Alipay's `my` and uses its socket
// and storage calls (my.connectSocket, my.setStorageSync({ key, data }))
import TIM from 'tim-wx-sdk'
import type { TimSdk } from './im'

const sdk: TimSdk = TIM
export default sdk
