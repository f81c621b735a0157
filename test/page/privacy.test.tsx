import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import Privacy from '../../src/pages/privacy'
import type { AccountClosure } from '../../types/api/account'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const ID_CARD = '110105196203154422'
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64')

const formOf = (data: unknown) => Object.fromEntries(new URLSearchParams(typeof data === 'string' ? data : ''))

// ---------- the fake server: server/src/routes/patient/account.ts over the state below ----------
let blockers: string[] = []
let closed = false
let mobile = '138****5678'
let codes: Record<string, string> = {}

function serve() {
  testing.answer(({ url, method, data }) => {
    const path = url.split('?')[0]
    // POST bodies go form-encoded (spec §8)
    const json = method === 'GET' ? {} : formOf(data)
    const ok = (d: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data: d } })
    const refuse = (code: number, msg: string) => ({ statusCode: 200, data: { code, msg, data: null } })
    if (path === '/dld-hospital/userinfo') return ok({ id: closed ? 0 : 7, nickname: '韩淑珍', wechatAvatar: '', mobile: closed ? '' : mobile, roles: [], appId: 'wx', provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 3, hospitalCode: '10392', hospitalName: '示范医院', configDto: { isInternet: false, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-user/user/closure') return ok({ mobile, blockers } satisfies AccountClosure)
    if (path === '/dld-user/user/accountCode') {
      codes[json.purpose!] = json.purpose === 'export' ? '246810' : '135790'
      return ok({ sent: true, resendAfter: 60, mobile: '138****5678' })
    }
    if (path === '/dld-user/user/export') {
      if (json.code !== codes.export) return refuse(400, '验证码错误')
      return ok({ exportedAt: '2026-11-25T03:00:00.000Z', notice: '副本', account: { id: 7, mobile: '13812345678' }, patients: [{ patientId: 3, name: '韩淑珍', idCard: b64(ID_CARD) }], escorts: [], addresses: [], registrations: [], orders: [], consultations: [], chat: [], evaluations: [], gifts: [], followedDoctors: [], messages: [], files: [], surveys: [] })
    }
    if (path === '/dld-auth/token/smsBindCode') {
      codes.bind = '975310'
      return ok({ sent: true, resendAfter: 60 })
    }
    if (path === '/dld-hospital/changeBind') {
      if (json.code !== codes.bind) return refuse(400, '验证码错误')
      if (json.mobile === '13900000001') return refuse(409, '该手机号已绑定其他账号')
      mobile = `${json.mobile!.slice(0, 3)}****${json.mobile!.slice(-4)}`
      return ok({ userId: 7, mobile })
    }
    if (path === '/dld-hospital/cancelBind' && method === 'GET') {
      closed = true // this identity has let go of the account: it reads as unbound
      return ok({ userId: 0 })
    }
    if (path === '/dld-user/user/close') {
      if (json.code !== codes.close) return refuse(400, '验证码错误')
      closed = true
      return ok({ closed: true })
    }
    return { statusCode: 404, data: '' }
  })
}

const sent = (path: string) => calls.requests.filter((r) => r.url.split('?')[0] === path).map((r) => formOf(r.data))
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement

/** What the browser was handed to download: the file name and its text. */
let downloads: { name: string; blob: Blob }[] = []

beforeEach(() => {
  testing.reset()
  testing.setRouter('/pages/privacy/index')
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  blockers = []
  closed = false
  mobile = '138****5678'
  codes = {}
  downloads = []
  let lastBlob: Blob | null = null
  URL.createObjectURL = jest.fn((blob: Blob) => ((lastBlob = blob), 'blob:copy'))
  URL.revokeObjectURL = jest.fn()
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ name: this.download, blob: lastBlob! })
  })
  serve()
})
afterEach(() => jest.restoreAllMocks())

/** Opens a step, asks for its code and types it. */
async function enterCode(step: string, code: string) {
  fireEvent.click(button(step))
  expect(await screen.findByText('138****5678')).toBeTruthy()
  fireEvent.click(screen.getByText('获取验证码'))
  expect(await screen.findByText('60秒后重新获取')).toBeTruthy()
  fireEvent.change(screen.getByPlaceholderText('请输入验证码'), { target: { value: code } })
}

test('downloads the copy, with the whole identity number, after a code to the account’s own mobile', async () => {
  render(<Privacy />)
  await screen.findByText(/依法由医院继续保存/)
  await enterCode('下载我的数据', '246810')
  expect(sent('/dld-user/user/accountCode')).toEqual([{ purpose: 'export' }])
  fireEvent.click(button('验证并下载'))
  await waitFor(() => expect(downloads).toHaveLength(1))
  expect(sent('/dld-user/user/export')).toEqual([{ code: '246810' }])
  expect(downloads[0]!.name).toBe('我的数据-2026-11-25.json')
  // jsdom's Blob has no text(): read it as a browser's FileReader would
  const text = await new Promise<string>((resolve) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.readAsText(downloads[0]!.blob)
  })
  const copy = JSON.parse(text)
  expect(copy.patients).toEqual([{ patientId: 3, name: '韩淑珍', idCard: ID_CARD }])
  await waitFor(() => expect(calls.toasts.map((t) => t.title)).toContain('已开始下载'))
  expect(screen.queryByRole('button', { name: '验证并下载' })).toBeNull()
})

test('a short code is refused before anything is sent', async () => {
  render(<Privacy />)
  await screen.findByText(/依法由医院继续保存/)
  await enterCode('下载我的数据', '2468')
  fireEvent.click(button('验证并下载'))
  await waitFor(() => expect(calls.toasts.map((t) => t.title)).toContain('请输入6位验证码'))
  expect(sent('/dld-user/user/export')).toEqual([])
})

test('closing says what is still under way and cannot start', async () => {
  blockers = ['1个未就诊的挂号', '1个未结束的问诊']
  render(<Privacy />)
  expect((await screen.findByRole('alert')).textContent).toBe('您还有1个未就诊的挂号、1个未结束的问诊，请完成或取消后再注销账号')
  expect(button('注销账号').disabled).toBe(true)
})

test('closing asks once more, then leaves a signed-out app on the home page', async () => {
  render(<Privacy />)
  await waitFor(() => expect(button('注销账号').disabled).toBe(false))
  await enterCode('注销账号', '135790')
  expect(sent('/dld-user/user/accountCode')).toEqual([{ purpose: 'close' }])
  fireEvent.click(button('验证并注销'))
  await waitFor(() => expect(calls.navigations).toEqual([{ kind: 'reLaunch', url: '/pages/sys/index' }]))
  expect(calls.modals).toEqual(['注销后无法恢复，您将无法再通过本账号查看就诊人、挂号、问诊和缴费记录。确定注销吗？'])
  expect(sent('/dld-user/user/close')).toEqual([{ code: '135790' }])
  expect(mockRoot.user.isLoggedIn).toBe(false)
  expect(calls.toasts.map((t) => t.title)).toContain('账号已注销')
})

test('退出登录 asks once, lets go of the account on this WeChat (cancelBind) and leaves an unbound app on the home page', async () => {
  render(<Privacy />)
  await screen.findByText(/就诊人和各项记录都保留/)
  expect(mockRoot.user.isLoggedIn).toBe(true)
  mockRoot.chat.userID = '0_7' // signed in to the chat as this account
  fireEvent.click(button('退出登录'))
  await waitFor(() => expect(calls.navigations).toEqual([{ kind: 'reLaunch', url: '/pages/sys/index' }]))
  expect(calls.modals).toEqual(['退出后需重新绑定手机号才能挂号、缴费和查看记录。确定退出登录吗？'])
  expect(calls.requests.filter((r) => r.url === '/dld-hospital/cancelBind')).toHaveLength(1)
  expect(mockRoot.user.isLoggedIn).toBe(false)
  expect(mockRoot.chat.userID).toBe('')
  expect(calls.toasts.map((t) => t.title)).toContain('已退出登录')
  // nothing of the account was closed
  expect(sent('/dld-user/user/close')).toEqual([])
})

test('更换手机号: a code to the new number moves the account there; a number of another account is refused with the reason', async () => {
  render(<Privacy />)
  expect(await screen.findByText('当前绑定的手机号 138****5678。更换后验证码发送到新手机号，就诊人和各项记录不变。')).toBeTruthy()
  fireEvent.click(button('更换手机号'))
  fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: '13900000001' } })
  fireEvent.click(screen.getByText('获取验证码'))
  expect(await screen.findByText('60秒后重新获取')).toBeTruthy()
  expect(sent('/dld-auth/token/smsBindCode')).toEqual([{ mobile: '13900000001', purpose: 'bind' }])
  fireEvent.change(screen.getByPlaceholderText('请输入验证码'), { target: { value: '975310' } })
  fireEvent.click(button('确认更换'))
  await waitFor(() => expect(calls.toasts.map((t) => t.title)).toContain('该手机号已绑定其他账号'))

  fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: '13900002222' } })
  fireEvent.click(button('确认更换'))
  await waitFor(() => expect(calls.toasts.map((t) => t.title)).toContain('手机号已更换'))
  expect(sent('/dld-hospital/changeBind')).toEqual([
    { mobile: '13900000001', code: '975310' },
    { mobile: '13900002222', code: '975310' },
  ])
  expect(await screen.findByText('当前绑定的手机号 139****2222。更换后验证码发送到新手机号，就诊人和各项记录不变。')).toBeTruthy()
  expect(mockRoot.user.user?.mobile).toBe('139****2222')
})
