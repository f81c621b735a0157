export default definePageConfig({ navigationBarTitleText: '医生主页' })
