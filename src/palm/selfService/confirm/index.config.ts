export default definePageConfig({ navigationBarTitleText: '确认开单' })
