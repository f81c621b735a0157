export default definePageConfig({ navigationBarTitleText: '选择科室' })
