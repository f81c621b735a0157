export default definePageConfig({ navigationBarTitleText: '就医指南' })
