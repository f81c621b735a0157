export default definePageConfig({ navigationBarTitleText: '智能导诊' })
