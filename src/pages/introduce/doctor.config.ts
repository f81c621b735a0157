export default definePageConfig({ navigationBarTitleText: '医生介绍' })
