export default definePageConfig({ navigationBarTitleText: '账号与隐私' })
