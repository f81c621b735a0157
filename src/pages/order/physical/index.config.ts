export default definePageConfig({ navigationBarTitleText: '体检订单' })
