export default definePageConfig({ navigationBarTitleText: '处方流转' })
