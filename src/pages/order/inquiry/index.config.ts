export default definePageConfig({ navigationBarTitleText: '问诊订单' })
