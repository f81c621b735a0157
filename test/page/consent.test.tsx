/**
 * 用户协议与隐私政策 (/pages/about/consent): a bound account agrees to the texts in force before going on, and goes
 * back where it was going; the versions it read are the ones recorded; declining records nothing and offers signing out.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import { RootStore } from '../../src/stores/RootStore'
import Consent from '../../src/pages/about/consent'

let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const TEXTS = {
  userAgreement: { title: '用户协议', content: '本平台为您提供在线就医服务。', version: '0123456789abcdef' },
  privacyPolicy: { title: '隐私政策', content: '我们仅在必需的范围内收集您的个人信息。', version: 'fedcba9876543210' },
}
let texts = TEXTS
let consents: unknown[] = []
let signedOut = false

function serve() {
  testing.answer(({ url, data }) => {
    const ok = (d: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data: d } })
    if (url === '/dld-hospital/common/getProtocol') return ok(texts)
    if (url === '/dld-hospital/common/protocol/consent') {
      const c = data as { privacyPolicyVersion: string }
      if (c.privacyPolicyVersion !== texts.privacyPolicy.version) return { statusCode: 200, data: { code: 409, msg: '协议内容已更新，请重新阅读后同意', data: null } }
      consents.push(data)
      return ok({ consentedAt: '2026-11-27T08:00:00.000Z' })
    }
    if (url === '/dld-hospital/cancelBind') {
      signedOut = true
      return ok(null)
    }
    if (url === '/dld-hospital/userinfo')
      return ok({ id: signedOut ? 0 : 7, nickname: '韩淑珍', wechatAvatar: '', mobile: '', roles: [], appId: 'wx', provider: 'wechat', identity: null, consentNeeded: !consents.length })
    return { statusCode: 404, data: '' }
  })
}

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  texts = TEXTS
  consents = []
  signedOut = false
  mockRoot = new RootStore()
  testing.setRouter('/pages/about/consent', {})
  serve()
})

test('shows both texts; agreeing records their versions and goes back where the patient was going', async () => {
  mockRoot.user.rememberRedirect('/palm/payment/list')
  render(<Consent />)
  expect(await screen.findByText('本平台为您提供在线就医服务。')).toBeTruthy()
  expect(screen.getByText('我们仅在必需的范围内收集您的个人信息。')).toBeTruthy()
  expect(screen.getByRole('heading', { name: '《隐私政策》' })).toBeTruthy()
  fireEvent.click(screen.getByRole('button', { name: '同意并继续' }))
  await waitFor(() => expect(calls.navigations).toEqual([{ kind: 'reLaunch', url: '/palm/payment/list' }]))
  expect(consents).toEqual([{ userAgreementVersion: '0123456789abcdef', privacyPolicyVersion: 'fedcba9876543210' }])
  expect(mockRoot.user.consentNeeded).toBe(false)
})

test('a policy changed while it was being read: nothing is recorded and the new text is shown to agree to', async () => {
  render(<Consent />)
  await screen.findByText('我们仅在必需的范围内收集您的个人信息。')
  texts = { ...TEXTS, privacyPolicy: { ...TEXTS.privacyPolicy, content: '新增：报告的每次查阅都会被记录。', version: '1111111111111111' } }
  fireEvent.click(screen.getByRole('button', { name: '同意并继续' }))
  expect(await screen.findByText('新增：报告的每次查阅都会被记录。')).toBeTruthy()
  expect(consents).toEqual([])
  expect(calls.navigations).toEqual([])
  fireEvent.click(screen.getByRole('button', { name: '同意并继续' }))
  await waitFor(() => expect(consents).toEqual([{ userAgreementVersion: '0123456789abcdef', privacyPolicyVersion: '1111111111111111' }]))
})

test('declining records nothing; confirmed, it signs out of the account on this phone and goes home', async () => {
  render(<Consent />)
  await screen.findByText('本平台为您提供在线就医服务。')
  fireEvent.click(screen.getByRole('button', { name: '不同意' }))
  await waitFor(() => expect(calls.navigations).toEqual([{ kind: 'reLaunch', url: '/pages/sys/index' }]))
  expect(calls.modals[0]).toMatch(/不同意将无法使用在线就医服务/)
  expect(signedOut).toBe(true)
  expect(consents).toEqual([])
})
