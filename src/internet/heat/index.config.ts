export default definePageConfig({ navigationBarTitleText: '发热门诊' })
