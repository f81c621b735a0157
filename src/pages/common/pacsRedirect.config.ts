export default definePageConfig({ navigationBarTitleText: '云影像' })
