export default definePageConfig({ navigationBarTitleText: '医技预约记录' })
