export default definePageConfig({ navigationBarTitleText: '合并支付' })
