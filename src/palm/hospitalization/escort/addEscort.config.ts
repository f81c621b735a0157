export default definePageConfig({ navigationBarTitleText: '添加陪护人' })
