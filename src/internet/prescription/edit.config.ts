export default definePageConfig({ navigationBarTitleText: '续方用药清单' })
