/**
 * What a screen reader needs on H5 and Taro's H5 runtime does not give: its toasts are plain <div>s nobody reads,
 * its modal has no dialog role, no name and buttons that are <div>s without a keyboard, and a new page leaves focus
 * where the old one was. Only index.h5.ts imports this file; the mini-programs' native toasts, modals and page
 * titles are read by the system.
 */

const HIDDEN_STYLE: Partial<CSSStyleDeclaration> = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: '0',
  border: '0',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
}

/** A screen reader notices a live region's change only once the region is in the page: it is made once, then kept. */
let region: HTMLElement | null = null
let pending: ReturnType<typeof setTimeout> | undefined

function liveRegion(): HTMLElement {
  if (region?.isConnected) return region
  region = document.createElement('div')
  region.className = 'sr-live'
  region.setAttribute('role', 'status')
  region.setAttribute('aria-live', 'polite')
  region.setAttribute('aria-atomic', 'true')
  Object.assign(region.style, HIDDEN_STYLE)
  document.body.appendChild(region)
  return region
}

/** Reads `text` out politely (a toast's text), without moving focus. */
export function announce(text: string) {
  const node = liveRegion()
  clearTimeout(pending)
  // emptied first and filled a moment later, so the same text twice in a row is read twice
  node.textContent = ''
  pending = setTimeout(() => {
    node.textContent = text
  }, 50)
}

/** The page (Taro's H5 router keeps the pages below the current one in the DOM, hidden) a node is on. */
const pageOf = (node: Element) => node.closest('.taro_page') ?? document.body

/** How long after a page shows its title takes focus back when a re-render drops it. */
const SETTLE_MS = 1500

/**
 * Moves focus to a page's title (tabIndex -1), so that a screen reader reads the page it has come to. Focus that is
 * already somewhere on this page (a field the patient is typing in) stays where it is.
 */
export function focusTitle(node: unknown) {
  const title = node as HTMLElement | null
  if (!title || typeof title.focus !== 'function' || !title.isConnected) return
  const active = document.activeElement
  if (active && active !== document.body && active !== title && pageOf(title).contains(active)) return
  const put = () => title.focus({ preventScroll: true })
  put()
  // Taro's H5 elements (Stencil) put their children back in place when they render, and the page's first renders
  // come after this: the title leaves the page for an instant and focus drops to nowhere. For a short while, focus
  // dropped to nowhere comes back; focus the patient moves elsewhere stays there.
  const stop = () => title.removeEventListener('focusout', back)
  const back = (e: FocusEvent) => {
    if (e.relatedTarget) return stop()
    setTimeout(() => {
      if (title.isConnected && (!document.activeElement || document.activeElement === document.body)) put()
    }, 0)
  }
  title.addEventListener('focusout', back)
  setTimeout(stop, SETTLE_MS)
}

const MODAL_KEYS = 'data-a11y'
let modalIds = 0

/**
 * Gives the modal Taro.showModal has just put in the page a dialog role and a name (its title, or its text when it
 * has none), makes its buttons buttons that answer Enter / Space (Escape cancels), keeps Tab inside it and moves
 * focus into it. Returns what puts focus back where it was once the modal has closed (or on the page's title, when
 * what had it is gone).
 */
export function labelModal(): () => void {
  const modals = document.querySelectorAll<HTMLElement>('.taro__modal')
  const root = modals[modals.length - 1]
  const box = root?.querySelector<HTMLElement>('.taro-modal__content')
  const title = box?.querySelector<HTMLElement>('.taro-modal__title')
  const text = box?.querySelector<HTMLElement>('.taro-modal__text')
  if (!root || !box || !title || !text) return () => undefined
  const before = document.activeElement as HTMLElement | null

  if (!title.id) title.id = `taro-modal-title-${++modalIds}`
  if (!text.id) text.id = `taro-modal-text-${modalIds}`
  box.setAttribute('role', 'dialog')
  box.setAttribute('aria-modal', 'true')
  box.tabIndex = -1
  const titled = !!title.textContent?.trim()
  box.setAttribute('aria-labelledby', titled ? title.id : text.id)
  if (titled) box.setAttribute('aria-describedby', text.id)
  else box.removeAttribute('aria-describedby')
  root.querySelector('.taro-modal__mask')?.setAttribute('aria-hidden', 'true')
  const buttons = () => Array.from(box.querySelectorAll<HTMLElement>('.taro-model__btn')).filter((b) => b.style.display !== 'none')
  box.querySelectorAll<HTMLElement>('.taro-model__btn').forEach((b) => {
    b.setAttribute('role', 'button')
    b.tabIndex = 0
  })

  // Taro keeps one modal element and shows it again for the next call: the keys are wired once
  if (!box.hasAttribute(MODAL_KEYS)) {
    box.setAttribute(MODAL_KEYS, '')
    box.addEventListener('keydown', (e) => {
      const target = e.target as HTMLElement
      if ((e.key === 'Enter' || e.key === ' ') && target.classList.contains('taro-model__btn')) {
        e.preventDefault()
        target.click()
      } else if (e.key === 'Escape') {
        const cancel = box.querySelector<HTMLElement>('.taro-model__cancel')
        if (cancel && cancel.style.display !== 'none') {
          e.preventDefault()
          cancel.click()
        }
      } else if (e.key === 'Tab') {
        const list = buttons()
        const at = list.indexOf(target)
        const next = e.shiftKey ? (at <= 0 ? list.length - 1 : at - 1) : (at + 1) % list.length
        e.preventDefault()
        list[next]?.focus()
      }
    })
  }
  box.focus({ preventScroll: true })
  const page = before && before !== document.body ? pageOf(before) : null
  return () => {
    if (!page) return
    // what opened it, or, when the answer took that away (a card unbound), the page's title
    const back = before!.isConnected ? before! : page.querySelector<HTMLElement>('[role=heading][tabindex="-1"]')
    back?.focus({ preventScroll: true })
  }
}
