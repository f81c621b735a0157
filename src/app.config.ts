import { MAIN_PAGES, SUB_PACKAGES } from './routes'

export default defineAppConfig({
  pages: MAIN_PAGES,
  // an empty subpackage is left out: the mini-program builds reject it
  subPackages: SUB_PACKAGES.filter((p) => p.pages.length > 0),
  window: {
    navigationStyle: 'custom',
    navigationBarBackgroundColor: '#E0F2FC',
    navigationBarTextStyle: 'white',
    navigationBarTitleText: '掌上医院',
    backgroundColor: '#f5f6f8',
  },
  animation: false,
  // WeChat: the private-information APIs the app calls must be declared, and the location permission says why
  ...(process.env.TARO_ENV === 'weapp'
    ? {
        requiredPrivateInfos: ['getLocation', 'chooseLocation'],
        permission: { 'scope.userLocation': { desc: '用于定位您所在的位置，填写收货地址和查找附近医院' } },
      }
    : {}),
})
