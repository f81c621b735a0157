export default definePageConfig({ navigationBarTitleText: '暂无可配药的药房' })
