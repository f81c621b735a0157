export default definePageConfig({ navigationBarTitleText: '指标趋势' })
