export default definePageConfig({ navigationBarTitleText: '选择证件类型' })
