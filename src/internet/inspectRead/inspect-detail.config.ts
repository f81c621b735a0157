export default definePageConfig({ navigationBarTitleText: '检查项目解读' })
