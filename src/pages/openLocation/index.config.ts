export default definePageConfig({ navigationBarTitleText: '位置' })
