export default definePageConfig({ navigationBarTitleText: 'PDF报告' })
