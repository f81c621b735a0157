import Taro from '@tarojs/taro'
import platform from '@/platform'
import { MSG, TOAST_MS } from './messages'

/**
 * What the app tells the patient in passing (spec §8): a toast for an error or a success, and the confirm modal.
 * Global feedback uses Taro's own toast and modal, never a page-mounted one (STYLE.md). On H5 a screen reader hears
 * the toast through the live region and finds the modal as a named dialog (platform.announce / labelModal).
 */
export function toastError(title: string) {
  void Taro.showToast({ title, icon: 'none', duration: TOAST_MS.error })
  platform.announce(title)
}

export function toastSuccess(title: string) {
  void Taro.showToast({ title, icon: 'success', duration: TOAST_MS.success })
  platform.announce(title)
}

/** spec §8: the delivery-fee tip, 2.5 s and masked, so it is read before the patient goes on. */
export function toastTip(title: string) {
  void Taro.showToast({ title, icon: 'none', duration: TOAST_MS.deliveryTip, mask: true })
  platform.announce(title)
}

/** spec §8: confirm modal, title 提示, buttons 确定 / 取消. */
export async function confirm(content: string, title: string = MSG.modalTitle): Promise<boolean> {
  const answer = Taro.showModal({ title, content, confirmText: MSG.confirm, cancelText: MSG.cancel })
  // the modal is in the page as soon as showModal has been called
  const restoreFocus = platform.labelModal()
  const res = await answer
  restoreFocus()
  return res.confirm
}
