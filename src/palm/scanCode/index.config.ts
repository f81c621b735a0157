export default definePageConfig({ navigationBarTitleText: '扫码缴费' })
