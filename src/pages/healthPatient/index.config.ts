export default definePageConfig({ navigationBarTitleText: '电子健康卡' })
