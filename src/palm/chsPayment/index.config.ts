export default definePageConfig({ navigationBarTitleText: '医保支付' })
