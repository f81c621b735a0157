export default definePageConfig({ navigationBarTitleText: '体检缴费' })
