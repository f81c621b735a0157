export default definePageConfig({ navigationBarTitleText: '电子病历' })
