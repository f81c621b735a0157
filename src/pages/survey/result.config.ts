export default definePageConfig({ navigationBarTitleText: '调查结果' })
