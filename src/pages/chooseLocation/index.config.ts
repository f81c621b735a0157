export default definePageConfig({ navigationBarTitleText: '选择位置' })
