export default definePageConfig({ navigationBarTitleText: '药房介绍' })
