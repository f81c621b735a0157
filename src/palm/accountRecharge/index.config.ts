export default definePageConfig({ navigationBarTitleText: '门诊预交金' })
