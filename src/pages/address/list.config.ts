export default definePageConfig({ navigationBarTitleText: '收货地址' })
