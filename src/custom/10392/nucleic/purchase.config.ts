export default definePageConfig({ navigationBarTitleText: '核酸自助登记' })
