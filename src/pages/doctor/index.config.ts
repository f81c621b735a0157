export default definePageConfig({ navigationBarTitleText: '我的医生' })
