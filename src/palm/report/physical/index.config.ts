export default definePageConfig({ navigationBarTitleText: '体检报告' })
