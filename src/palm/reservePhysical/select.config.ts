export default definePageConfig({ navigationBarTitleText: '体检预约' })
