import Taro from '@tarojs/taro'
import { MSG, TOAST_MS } from './messages'

/**
 * What the app tells the patient in passing (spec §8): a toast for an error or a success, and the confirm modal.
 * Global feedback uses Taro's own toast and modal, never a page-mounted one (STYLE.md).
 */
export function toastError(title: string) {
  void Taro.showToast({ title, icon: 'none', duration: TOAST_MS.error })
}

export function toastSuccess(title: string) {
  void Taro.showToast({ title, icon: 'success', duration: TOAST_MS.success })
}

/** spec §8: confirm modal, title 提示, buttons 确定 / 取消. */
export async function confirm(content: string, title: string = MSG.modalTitle): Promise<boolean> {
  const res = await Taro.showModal({ title, content, confirmText: MSG.confirm, cancelText: MSG.cancel })
  return res.confirm
}
