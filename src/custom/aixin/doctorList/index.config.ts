export default definePageConfig({ navigationBarTitleText: '爱心医生' })
