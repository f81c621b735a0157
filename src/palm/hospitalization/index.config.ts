export default definePageConfig({ navigationBarTitleText: '住院服务' })
