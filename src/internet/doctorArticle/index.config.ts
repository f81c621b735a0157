export default definePageConfig({ navigationBarTitleText: '医生文章' })
