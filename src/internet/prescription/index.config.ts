export default definePageConfig({ navigationBarTitleText: '我的处方' })
