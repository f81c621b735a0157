export default definePageConfig({ navigationBarTitleText: '核酸报告' })
