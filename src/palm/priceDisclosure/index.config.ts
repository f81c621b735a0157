export default definePageConfig({ navigationBarTitleText: '价格公示' })
