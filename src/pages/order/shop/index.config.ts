export default definePageConfig({ navigationBarTitleText: '药品订单' })
