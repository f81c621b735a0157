export default definePageConfig({ navigationBarTitleText: '医生排班' })
