/** spec §9: app version 1.0.0, version code 100. */
export const APP_VERSION = { name: '1.0.0', code: 100 }

/** The texts a hospital configures for the about pages (textConfig keys). */
export const ABOUT_TOPICS = [
  { key: 'about', title: '关于我们' },
  { key: 'userAgreement', title: '用户协议' },
  { key: 'privacyPolicy', title: '隐私政策' },
]
