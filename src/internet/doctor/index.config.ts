// enableShareAppMessage: the mini-programs' share menu asks the page (useShare)
export default definePageConfig({ navigationBarTitleText: '医生主页', enableShareAppMessage: true })
