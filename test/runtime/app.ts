import * as React from 'react'
import ReactDOM from 'react-dom/client'
import { findDOMNode, render, unstable_batchedUpdates } from 'react-dom'
// also sets window.React, which the test utils' transform (classic JSX) needs
import ReactTestUtil from '@tarojs/test-utils-react'
import { waitFor } from '@tarojs/test-utils-react/dist/pure'
import { createBrowserHistory, createRouter, handleAppMount } from '@tarojs/router'
import { createReactApp } from '@tarojs/plugin-framework-react/dist/runtime'
import { ClosedWebSocket, type fakeServer } from './server'

declare const global: Record<string, unknown>

type AppConfig = { pages: string[]; subPackages?: { root: string; pages: string[] }[] }
type RouterConfig = Parameters<typeof createRouter>[2]

export const utils = new ReactTestUtil()

/** config/index.ts h5.router */
const ROUTER = {
  mode: 'browser',
  basename: '/h5',
  customRoutes: { '/pages/chooseLocation/index': '/choose-location', '/pages/openLocation/index': '/open-location' },
}

/**
 * Opens the app at `url` (`/pages/sys/user/index?appId=...`) as the H5 build's entry does (@tarojs/taro-loader's h5
 * loader, Taro 4): src/app.tsx with every page of src/app.config.ts, the subpackages' pages among them, each with its
 * page config, under the browser router. test-utils-react's own createApp() cannot do this on Taro 4: it calls Taro
 * 3.6's createRouter(app, config, framework), and Taro 4's takes the history first. The server answers every
 * request through `fetch`, which @tarojs/taro-h5's request uses; the chat socket never opens.
 * One app per test file: Jest gives each file its own modules, so its own app and stores.
 */
export async function openApp(url: string, server: ReturnType<typeof fakeServer>) {
  global.fetch = server.fetch
  global.WebSocket = ClosedWebSocket
  global.defineAppConfig = global.definePageConfig = (c: unknown) => c
  window.history.replaceState(null, '', `${ROUTER.basename}${url}`)
  const src = `${process.cwd()}/src`
  const App = (await import(`${src}/app`)).default
  const appConfig: AppConfig = (await import(`${src}/app.config`)).default
  const subPages = (appConfig.subPackages ?? []).flatMap((p) => p.pages.map((page) => `${p.root}/${page}`))
  const pages = [...appConfig.pages, ...subPages]
  const pageConfigs = await Promise.all(pages.map(async (path) => (await import(`${src}/${path}.config`)).default))
  const config = {
    ...appConfig,
    pages,
    router: ROUTER,
    routes: pages.map((path, i) => ({
      path,
      load: (context: unknown, params: unknown) => [import(`${src}/${path}`), context, params],
      ...pageConfigs[i],
    })),
  }
  // on H5, @tarojs/runtime's window (which the loader hands on) is the browser's
  ;(window as unknown as { __taroAppConfig: unknown }).__taroAppConfig = config
  Object.assign(ReactDOM, { findDOMNode, render, unstable_batchedUpdates })
  const app = createReactApp(App, React, ReactDOM, config)
  const history = createBrowserHistory({ window })
  handleAppMount(config as unknown as RouterConfig, history)
  // the loader hands over React itself (for pull-down refresh), though the typings say a string
  createRouter(history, app, config as unknown as RouterConfig, React as unknown as string)
}

/** The page on show: Taro's router keeps the pages under it in the document, shaded (hidden). */
export function currentPage(): HTMLElement {
  const pages = [...document.querySelectorAll<HTMLElement>('.taro_router > .taro_page')]
  const page = pages.filter((p) => p.classList.contains('taro_page_show') && !p.classList.contains('taro_page_shade')).at(-1)
  if (!page) throw new Error('no page on show')
  return page
}

/** What the patient reads on the page on show: each element's own text (React splits `可预约未来{n}天` into nodes), in reading order. */
export function readOut(root: Element = currentPage()): string[] {
  const texts: string[] = []
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT, {
    acceptNode: (n) => (['STYLE', 'SCRIPT'].includes((n as Element).tagName) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  })
  for (let el: Node | null = root; el; el = walker.nextNode()) {
    const own = [...el.childNodes].filter((c) => c.nodeType === Node.TEXT_NODE).map((c) => c.textContent).join('')
    const text = own.replace(/\s+/g, ' ').trim()
    if (text) texts.push(text)
  }
  return texts
}

/** The page on show as one line of text. */
export const pageText = () => readOut().join(' ')

/** Asserts that the page on show reads these texts in this order (others may come between). */
export function expectInOrder(expected: string[]) {
  const texts = readOut()
  let from = 0
  for (const text of expected) {
    const at = texts.indexOf(text, from)
    if (at < 0) throw new Error(`"${text}" does not follow in order on the page; it reads:\n${texts.join(' | ')}`)
    from = at + 1
  }
}

/** Waits until the page on show reads `text`. */
export function findText(text: string, timeout = 3000) {
  // the test utils' waitFor retries a callback whose promise rejects (one that throws is never called again)
  return waitFor(
    () =>
      new Promise<void>((resolve, reject) => {
        const on = document.querySelector('.taro_page_show') ? pageText() : ''
        if (on.includes(text)) resolve()
        else reject(new Error(`"${text}" is not on the page: ${on}`))
      }),
    { timeout },
  )
}

/** Taps the tappable control of the page on show whose text (or accessible name) is `name`, as a finger would. */
export async function tap(name: string) {
  const control = [...currentPage().querySelectorAll<HTMLElement>('[role]')].find(
    (el) => el.getAttribute('aria-label') === name || el.textContent?.trim() === name,
  )
  if (!control) throw new Error(`nothing to tap named "${name}" on: ${pageText()}`)
  utils.fireEvent.click(control)
}

/** Scrolls the page on show to its bottom (jsdom lays nothing out, so any scroll is at the bottom): Taro's onReachBottom. */
export function scrollToBottom() {
  utils.fireEvent.scroll(currentPage())
  utils.fireEvent.scroll(window as unknown as Element)
}

/** The texts of the elements with this role on the page on show (tabs, links), as a screen reader lists them. */
export const namesOf = (role: string) =>
  [...currentPage().querySelectorAll<HTMLElement>(`[role="${role}"]`)].map((el) => el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '')

/** Toasts and modals: Taro draws them outside the page. */
export const toastText = () => document.querySelector('.taro__toast')?.textContent ?? ''
