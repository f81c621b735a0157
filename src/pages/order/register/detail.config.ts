export default definePageConfig({ navigationBarTitleText: '挂号详情' })
