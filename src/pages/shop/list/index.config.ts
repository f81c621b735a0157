export default definePageConfig({ navigationBarTitleText: '药品商城' })
