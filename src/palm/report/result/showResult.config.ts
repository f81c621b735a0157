export default definePageConfig({ navigationBarTitleText: '检验报告单' })
