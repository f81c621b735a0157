export default definePageConfig({ navigationBarTitleText: '用户协议与隐私政策' })
