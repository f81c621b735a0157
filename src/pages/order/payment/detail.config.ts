export default definePageConfig({ navigationBarTitleText: '缴费详情' })
