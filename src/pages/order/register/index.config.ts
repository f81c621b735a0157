export default definePageConfig({ navigationBarTitleText: '挂号记录' })
