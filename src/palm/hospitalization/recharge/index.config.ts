export default definePageConfig({ navigationBarTitleText: '住院预交金' })
