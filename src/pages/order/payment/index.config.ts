export default definePageConfig({ navigationBarTitleText: '缴费记录' })
