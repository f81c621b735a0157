export default definePageConfig({ navigationBarTitleText: '患者评价' })
