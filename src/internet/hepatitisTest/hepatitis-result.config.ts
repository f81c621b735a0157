export default definePageConfig({ navigationBarTitleText: '自测结果' })
