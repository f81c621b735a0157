export default definePageConfig({ navigationBarTitleText: '排队叫号', enablePullDownRefresh: false })
