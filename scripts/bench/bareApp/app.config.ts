// The bare app's one page (scripts/bench/bareApp.mjs)
export default defineAppConfig({ pages: ['pages/index/index'], window: { navigationBarTitleText: '掌上医院' } })
