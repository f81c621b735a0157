export default definePageConfig({ navigationBarTitleText: '互联网医院' })
