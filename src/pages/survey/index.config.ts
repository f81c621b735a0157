export default definePageConfig({ navigationBarTitleText: '满意度调查' })
