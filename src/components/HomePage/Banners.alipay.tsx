// Alipay's swiper is native too: the same banners as WeChat's
export { default } from './Banners.weapp'
