export default definePageConfig({ navigationBarTitleText: '报告查询' })
