export default definePageConfig({ navigationBarTitleText: '医院介绍' })
