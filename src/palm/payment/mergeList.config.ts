export default definePageConfig({ navigationBarTitleText: '确认缴费' })
