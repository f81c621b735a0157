/**
 * 绑定手机号 in the WeChat mini-program: WeChat's phone-number button first (the number WeChat verified, no SMS
 * code), the SMS binding below it; on a sandbox server the button's code is the sandbox's own for this phone.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import type { Platform } from '../../src/platform'
import { miniProgram } from '../../src/platform/miniProgram'
import { RootStore } from '../../src/stores/RootStore'

jest.mock('@/platform', () => {
  const holder = { current: jest.requireActual('../../src/platform/miniProgram').miniProgram('weapp', 'wechat') }
  return { __esModule: true, holder, default: new Proxy({}, { get: (_t, key) => holder.current[key] }) }
})
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))
import Login from '../../src/pages/login'
const { holder } = jest.requireMock('@/platform') as { holder: { current: Platform } }

const ORIGIN = 'https://api.hospital.example'
const g = globalThis as unknown as { API_BASE: string }
let sandbox = true
let bound: Record<string, string>[] = []
let consents: unknown[] = []
const PROTOCOLS = {
  userAgreement: { title: '用户协议', content: '本平台为您提供在线就医服务。', version: '0123456789abcdef' },
  privacyPolicy: { title: '隐私政策', content: '我们仅在必需的范围内收集您的个人信息。', version: 'fedcba9876543210' },
}

function serve() {
  testing.answer(({ url, data }) => {
    const ok = (d: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data: d } })
    const path = url.slice(ORIGIN.length)
    const q = (typeof data === 'string' ? Object.fromEntries(new URLSearchParams(data)) : (data ?? {})) as Record<string, string>
    if (path === '/sandbox/wechat/phone-code') return sandbox ? { statusCode: 200, data: { code: 'sbx-phone-1' } } : { statusCode: 404, data: '' }
    if (path === '/dld-hospital/wxPhoneBind') {
      bound.push(q)
      return ok({ userId: 9, nickname: '微信用户' })
    }
    if (path === '/dld-hospital/userinfo')
      return ok({ id: bound.length ? 9 : 0, nickname: '微信用户', wechatAvatar: '', mobile: '199****0001', roles: [], appId: 'wxdemo0000000000', provider: 'wechat', consentNeeded: !consents.length })
    if (path === '/dld-hospital/common/getProtocol') return ok(PROTOCOLS)
    if (path === '/dld-hospital/common/protocol/consent') {
      consents.push(data)
      return ok({ consentedAt: '2026-11-27T08:00:00.000Z' })
    }
    return { statusCode: 404, data: '' }
  })
}

beforeAll(() => {
  g.API_BASE = ORIGIN
})
afterAll(() => {
  g.API_BASE = ''
})
beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  bound = []
  consents = []
  holder.current = miniProgram('weapp', 'wechat')
  mockRoot = new RootStore()
  testing.setRouter('/pages/login/index', { sourceType: '5' })
  serve()
})

const phoneButton = () => screen.getByRole('button', { name: '微信手机号一键绑定' })
const agree = () => fireEvent.click(screen.getByRole('checkbox', { name: '我已阅读并同意用户协议和隐私政策' }))

test('WeChat’s phone-number button binds without an SMS code and goes back where the patient was', async () => {
  sandbox = true
  mockRoot.user.rememberRedirect('/internet/doctorList/index')
  render(<Login />)
  expect(await screen.findByText('或使用短信验证码绑定')).toBeTruthy()
  phoneButton().dataset.detail = JSON.stringify({ errMsg: 'getPhoneNumber:ok', code: 'wx-sheet-code' })
  // not before the person has agreed to the agreement and the policy
  fireEvent.click(phoneButton())
  await waitFor(() => expect(calls.toasts.map((t) => t.title)).toContain('请先阅读并同意用户协议和隐私政策'))
  expect(bound).toEqual([])

  agree()
  expect(screen.getByRole('checkbox', { name: '我已阅读并同意用户协议和隐私政策' }).getAttribute('aria-checked')).toBe('true')
  fireEvent.click(phoneButton())
  await waitFor(() => expect(calls.navigations).toEqual([{ kind: 'reLaunch', url: '/internet/doctorList/index' }]))
  // the sandbox cannot redeem WeChat's code: its own stands in for this phone
  expect(bound).toEqual([{ code: 'sbx-phone-1', sourceType: '5' }])
  // the consent names the versions of the texts the page was showing
  expect(consents).toEqual([{ userAgreementVersion: '0123456789abcdef', privacyPolicyVersion: 'fedcba9876543210' }])
  expect(calls.toasts.map((t) => t.title)).toContain('绑定成功')
  expect(mockRoot.user.isLoggedIn).toBe(true)
  expect(mockRoot.user.consentNeeded).toBe(false)
})

test('on a real server the code of WeChat’s sheet is sent; declining sends nothing and the SMS binding stays', async () => {
  sandbox = false
  render(<Login />)
  await screen.findByText('或使用短信验证码绑定')
  agree()
  phoneButton().dataset.detail = JSON.stringify({ errMsg: 'getPhoneNumber:fail user deny' })
  fireEvent.click(phoneButton())
  await waitFor(() => expect((phoneButton() as HTMLButtonElement).disabled).toBe(false))
  expect(bound).toEqual([])
  expect(screen.getByRole('button', { name: '绑定并登录' })).toBeTruthy()

  phoneButton().dataset.detail = JSON.stringify({ errMsg: 'getPhoneNumber:ok', code: 'wx-sheet-code' })
  fireEvent.click(phoneButton())
  await waitFor(() => expect(bound).toEqual([{ code: 'wx-sheet-code', sourceType: '5' }]))
})
