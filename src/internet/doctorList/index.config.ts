export default definePageConfig({ navigationBarTitleText: '在线问诊' })
