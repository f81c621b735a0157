export default definePageConfig({ navigationBarTitleText: '复诊续方' })
