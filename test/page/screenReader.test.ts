import { act } from '@testing-library/react'
import { toastError, toastSuccess } from '@/ui/feedback'
import { labelModal } from '@/platform/screenReader'
import { calls, testing } from './doubles/taro'

/** What a screen reader is given on H5 for Taro's toast and modal, which have nothing of their own. */
describe('toasts are read out', () => {
  beforeEach(() => {
    jest.useFakeTimers()
    testing.reset()
  })
  afterEach(() => jest.useRealTimers())

  const regions = () => Array.from(document.body.querySelectorAll('[role=status][aria-live=polite]'))

  test('the toast’s text goes into one polite live region, which stays for the next one', () => {
    toastError('请输入正确的手机号')
    act(() => void jest.runAllTimers())
    expect(regions()).toHaveLength(1)
    expect(regions()[0]!.textContent).toBe('请输入正确的手机号')
    expect(calls.toasts).toEqual([{ title: '请输入正确的手机号', icon: 'none', duration: 3000 }])

    toastSuccess('验证码已发送')
    expect(regions()[0]!.textContent).toBe('') // emptied first: the same text twice is read twice
    act(() => void jest.runAllTimers())
    expect(regions()).toHaveLength(1)
    expect(regions()[0]!.textContent).toBe('验证码已发送')
  })
})

/** The DOM Taro's H5 showModal builds (@tarojs/taro-h5 api/ui/interaction/modal.js), with its class names. */
function taroModal(title: string, content: string, showCancel = true) {
  const root = document.createElement('div')
  root.className = 'taro__modal'
  root.innerHTML = `<div class="taro-modal__mask"></div><div class="taro-modal__content"><div class="taro-modal__title"></div><div class="taro-modal__text"></div><div class="taro-modal__foot"><div class="taro-model__btn taro-model__cancel">取消</div><div class="taro-model__btn taro-model__confirm">确定</div></div></div>`
  root.querySelector('.taro-modal__title')!.textContent = title
  root.querySelector('.taro-modal__text')!.textContent = content
  if (!showCancel) (root.querySelector('.taro-model__cancel') as HTMLElement).style.display = 'none'
  document.body.appendChild(root)
  const answers: string[] = []
  ;(root.querySelector('.taro-model__cancel') as HTMLElement).onclick = () => answers.push('cancel')
  ;(root.querySelector('.taro-model__confirm') as HTMLElement).onclick = () => answers.push('confirm')
  return { root, answers, box: root.querySelector('.taro-modal__content') as HTMLElement }
}

describe('Taro’s modal becomes a dialog', () => {
  afterEach(() => document.querySelectorAll('.taro__modal').forEach((m) => m.remove()))

  test('role, name from its title, description from its text, focus inside, and back where it was after', () => {
    const opener = document.createElement('button')
    document.body.appendChild(opener)
    opener.focus()
    const { box, answers } = taroModal('提示', '确定解绑该就诊人吗？')
    const restore = labelModal()
    expect(box.getAttribute('role')).toBe('dialog')
    expect(box.getAttribute('aria-modal')).toBe('true')
    expect(document.getElementById(box.getAttribute('aria-labelledby')!)!.textContent).toBe('提示')
    expect(document.getElementById(box.getAttribute('aria-describedby')!)!.textContent).toBe('确定解绑该就诊人吗？')
    expect(document.activeElement).toBe(box)

    const [cancel, ok] = Array.from(box.querySelectorAll<HTMLElement>('.taro-model__btn'))
    expect([cancel!.getAttribute('role'), ok!.getAttribute('role')]).toEqual(['button', 'button'])
    expect([cancel!.tabIndex, ok!.tabIndex]).toEqual([0, 0])
    ok!.focus()
    ok!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
    expect(answers).toEqual(['confirm'])
    restore()
    expect(document.activeElement).toBe(opener)
    opener.remove()
  })

  test('Escape cancels; Tab stays among its buttons; a modal without a title is named by its text', () => {
    const { box, answers } = taroModal('', '请在微信中打开完成支付')
    labelModal()
    expect(document.getElementById(box.getAttribute('aria-labelledby')!)!.textContent).toBe('请在微信中打开完成支付')
    expect(box.hasAttribute('aria-describedby')).toBe(false)
    const [cancel, ok] = Array.from(box.querySelectorAll<HTMLElement>('.taro-model__btn'))
    ok!.focus()
    ok!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true }))
    expect(document.activeElement).toBe(cancel)
    cancel!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', shiftKey: true, bubbles: true }))
    expect(document.activeElement).toBe(ok)
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    expect(answers).toEqual(['cancel'])
  })

  test('when the answer took away what opened it (a card unbound), focus goes to the page’s title', () => {
    const page = document.createElement('div')
    page.className = 'taro_page'
    page.innerHTML = `<span role="heading" aria-level="1" tabindex="-1">就诊人管理</span><span role="button" tabindex="0">解除绑定</span>`
    document.body.appendChild(page)
    const unbind = page.querySelector<HTMLElement>('[role=button]')!
    unbind.focus()
    taroModal('提示', '确定解除绑定就诊人李*国吗？')
    const restore = labelModal()
    unbind.remove()
    restore()
    expect(document.activeElement!.textContent).toBe('就诊人管理')
    page.remove()
  })

  test('no modal in the page: nothing to do', () => {
    expect(() => labelModal()()).not.toThrow()
  })
})
