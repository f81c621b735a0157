export default definePageConfig({ navigationBarTitleText: '选择支付方式' })
