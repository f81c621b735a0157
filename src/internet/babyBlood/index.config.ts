export default definePageConfig({ navigationBarTitleText: '宝宝血型' })
