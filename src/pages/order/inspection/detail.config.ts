export default definePageConfig({ navigationBarTitleText: '检查详情' })
