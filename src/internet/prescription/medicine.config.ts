export default definePageConfig({ navigationBarTitleText: '处方详情' })
