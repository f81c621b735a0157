export default definePageConfig({ navigationBarTitleText: '医院设置' })
