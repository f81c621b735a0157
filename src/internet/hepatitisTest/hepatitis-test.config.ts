export default definePageConfig({ navigationBarTitleText: '乙肝两对半自测' })
