export default definePageConfig({ navigationBarTitleText: '评价医生' })
