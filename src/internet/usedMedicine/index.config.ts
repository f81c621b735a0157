export default definePageConfig({ navigationBarTitleText: '用药记录' })
