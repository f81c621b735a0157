export default definePageConfig({ navigationBarTitleText: '历史病例' })
