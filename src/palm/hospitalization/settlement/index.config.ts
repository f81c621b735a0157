export default definePageConfig({ navigationBarTitleText: '每日清单' })
