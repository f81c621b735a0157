import { miniProgram } from './miniProgram'

export default miniProgram('alipay', 'alipay')
