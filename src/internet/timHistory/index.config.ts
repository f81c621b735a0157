export default definePageConfig({ navigationBarTitleText: '问诊记录' })
