// a web-view page shows the mini-program's own navigation bar whatever the app's navigationStyle; its back arrow closes it
export default definePageConfig({ navigationBarTitleText: '掌上医院' })
