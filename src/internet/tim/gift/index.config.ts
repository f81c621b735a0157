export default definePageConfig({ navigationBarTitleText: '送心意' })
