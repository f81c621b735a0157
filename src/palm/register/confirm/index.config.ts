export default definePageConfig({ navigationBarTitleText: '确认挂号' })
