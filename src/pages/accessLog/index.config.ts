export default definePageConfig({ navigationBarTitleText: '访问记录' })
