export default definePageConfig({ navigationBarTitleText: '病理报告' })
