export default definePageConfig({ navigationBarTitleText: '核酸检测' })
