export default definePageConfig({ navigationBarTitleText: '化验单解读' })
