// tim-wx-sdk ships no typings; its main file is byte for byte tim-js-sdk's, whose typings describe it
declare module 'tim-wx-sdk' {
  import TIM from 'tim-js-sdk'
  export default TIM
}
