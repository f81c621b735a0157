export default definePageConfig({ navigationBarTitleText: '充值记录' })
