export default definePageConfig({ navigationBarTitleText: '我的核酸订单' })
