export default definePageConfig({ navigationBarTitleText: '科室排班' })
