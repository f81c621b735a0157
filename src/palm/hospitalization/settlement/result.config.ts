export default definePageConfig({ navigationBarTitleText: '出院结算' })
