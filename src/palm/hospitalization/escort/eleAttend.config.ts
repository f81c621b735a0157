export default definePageConfig({ navigationBarTitleText: '电子陪护证' })
