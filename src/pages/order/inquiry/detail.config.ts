export default definePageConfig({ navigationBarTitleText: '问诊详情' })
