export default definePageConfig({ navigationBarTitleText: '我的体检预约' })
