export default definePageConfig({ navigationBarTitleText: '我的问诊' })
