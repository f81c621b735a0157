export default definePageConfig({ navigationBarTitleText: '选择医院' })
