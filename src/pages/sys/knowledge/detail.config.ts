// enableShareAppMessage: the mini-programs' share menu asks the page (useShare)
export default definePageConfig({ navigationBarTitleText: '健康知识', enableShareAppMessage: true })
