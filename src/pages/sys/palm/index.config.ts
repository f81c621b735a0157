export default definePageConfig({ navigationBarTitleText: '掌上医院' })
