export default definePageConfig({ navigationBarTitleText: '预约挂号' })
