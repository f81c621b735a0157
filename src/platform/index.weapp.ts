import { miniProgram } from './miniProgram'

export default miniProgram('weapp', 'wechat')
