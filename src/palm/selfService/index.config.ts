export default definePageConfig({ navigationBarTitleText: '自助开单' })
