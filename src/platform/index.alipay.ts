import { miniProgram } from './miniProgram'

export { useShare } from './miniProgram'

export default miniProgram('alipay', 'alipay')
