export default definePageConfig({ navigationBarTitleText: '暂无权限' })
