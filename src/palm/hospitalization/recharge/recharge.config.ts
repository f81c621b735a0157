export default definePageConfig({ navigationBarTitleText: '预交金充值' })
