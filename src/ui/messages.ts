/** Every fixed text the request layer and shell show (spec §8, §9), in the Chinese a patient reads. */
export const MSG = {
  noServer: '未连接到服务器',
  http404: '请求的资源不存在',
  http500: '服务器内部错误，无法完成请求',
  noAppId: '未获取到appId，未登录',
  conversationFailed: '获取会话失败，请重试',
  loading: '加载中',
  listLoading: '加载中...',
  listNoMore: '没有更多了',
  listFailed: '加载失败',
  loadMore: '加载更多',
  pageLoading: '页面加载中...',
  pageLoadFailed: '页面加载失败，请检查网络后重试',
  modalTitle: '提示',
  confirm: '确定',
  cancel: '取消',
  comingSoon: '该服务暂未开放，敬请期待',
  authLoop: '授权未完成，请稍后重试',
} as const

/** Toast durations (spec §8, §9). */
export const TOAST_MS = { error: 3000, success: 2000, deliveryTip: 2500 } as const
