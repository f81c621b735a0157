export default definePageConfig({ navigationBarTitleText: '陪护人' })
