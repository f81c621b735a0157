export default definePageConfig({ navigationBarTitleText: '图文问诊' })
