import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { act, render, screen } from '@testing-library/react'
import { testing } from './doubles/taro'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import { MAIN_PAGES, SUB_PACKAGES } from '../../src/routes'
import PageShell from '../../src/components/PageShell'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

/** The calls startup makes, answered as the server does; `demo` is what homePageConfig says of the server. */
function serve(demo: boolean) {
  testing.answer(({ url, method, data }) => {
    const ok = (d: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data: d } })
    const query = method === 'GET' ? ((data ?? {}) as Record<string, string>) : {}
    const path = url.split('?')[0]
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '', roles: [], appId: query.appId, provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 1, hospitalCode: '10392', hospitalName: '示范医院', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [], demo })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: query.imAccount, userSig: 's', expire: 1 })
    return { statusCode: 404, data: '' }
  })
}

const page = () => (
  <PageShell title='健康知识'>
    <span>页面内容</span>
  </PageShell>
)

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10392demo00000', expire: Date.now() + 3_600_000 })
  testing.setRouter('/pages/sys/knowledge/index')
})

describe('the 演示环境 mark', () => {
  test('a page of a demo server shows it, as a note with its name, once startup has read homePageConfig', async () => {
    serve(true)
    mockRoot = new RootStore()
    render(page())
    await screen.findByText('页面内容')
    const mark = screen.getByRole('note', { name: '演示环境：本系统仅供演示和培训使用' })
    expect(mark.textContent).toBe('演示环境')
    expect(mark.getAttribute('aria-hidden')).toBeNull()
    expect(screen.getAllByRole('note')).toHaveLength(1)
  })

  test('a page of a production server does not', async () => {
    serve(false)
    mockRoot = new RootStore()
    render(page())
    await screen.findByText('页面内容')
    expect(mockRoot.hospital.homeConfig?.demo).toBe(false)
    expect(screen.queryByRole('note')).toBeNull()
    expect(screen.queryByText('演示环境')).toBeNull()
  })

  test('a page that opens without startup (login, about) shows what the last startup learnt', async () => {
    serve(true)
    await new RootStore().startup({ appId: 'wx10392demo00000' })
    // the app loads again, e.g. on the way back from the authorisation page, straight onto a page without startup
    testing.setRouter('/pages/about/index')
    mockRoot = new RootStore()
    render(page())
    expect(await screen.findByRole('note', { name: /^演示环境/ })).toBeTruthy()

    serve(false) // the next load of the config finds a production server
    await act(() => mockRoot.hospital.load('wx10392demo00000'))
    expect(screen.queryByRole('note')).toBeNull()
    expect(new RootStore().hospital.demo).toBe(false)
  })

  test('every page is framed by PageShell, which renders the mark (directly or through HomePage)', () => {
    // the mini-programs' web-view is the one exception: the server's page it shows covers the whole screen, and is
    // the sandbox's own (its cashier says 沙箱 itself)
    const pages = [...MAIN_PAGES.filter((p) => p !== 'pages/webview/index'), ...SUB_PACKAGES.flatMap((p) => p.pages.map((page) => `${p.root}/${page}`))]
    const files = pages.map((p) => join(__dirname, '../../src', `${p}.tsx`))
    expect(files.length).toBeGreaterThan(50)
    // a page may be a thin wrapper of a component (two record pages share one detail): one import deep
    const framed = (file: string, depth = 0): boolean => {
      const text = readFileSync(file, 'utf8')
      if (/from '@\/components\/(PageShell|HomePage)'/.test(text)) return true
      if (depth > 0) return false
      // its own files, or a shared page body of src/components (the nucleic, add-patient and doctor-list pages of a
      // hospital's own and the general ones)
      const local = [
        ...[...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => join(dirname(file), `${m[1]}.tsx`)),
        ...[...text.matchAll(/from '@\/(components\/[^']+)'/g)].flatMap((m) => [`${m[1]}.tsx`, `${m[1]}/index.tsx`].map((f) => join(__dirname, '../../src', f))),
      ].filter((f) => existsSync(f))
      return local.some((f) => framed(f, depth + 1))
    }
    const unframed = files.filter((f) => !framed(f))
    expect(unframed).toEqual([])
    expect(readFileSync(join(__dirname, '../../src/components/HomePage/index.tsx'), 'utf8')).toMatch(/<PageShell\b/)
  })
})
