export default definePageConfig({ navigationBarTitleText: '医生评分' })
