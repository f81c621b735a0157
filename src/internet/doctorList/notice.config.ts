export default definePageConfig({ navigationBarTitleText: '问诊须知' })
