export default definePageConfig({ navigationBarTitleText: '就诊人管理' })
