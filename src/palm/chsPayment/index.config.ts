export default definePageConfig({ navigationBarTitleText: '医保结算明细' })
