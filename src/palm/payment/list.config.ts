export default definePageConfig({ navigationBarTitleText: '门诊缴费' })
