export default definePageConfig({ navigationBarTitleText: '检查报告单' })
