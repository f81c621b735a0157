export default definePageConfig({ navigationBarTitleText: '待缴费' })
