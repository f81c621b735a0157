export default definePageConfig({ navigationBarTitleText: '科室介绍' })
