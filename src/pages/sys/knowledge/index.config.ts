export default definePageConfig({ navigationBarTitleText: '健康知识', onReachBottomDistance: 80 })
