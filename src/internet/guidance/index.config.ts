export default definePageConfig({ navigationBarTitleText: '医生助理' })
