/**
 * 电子陪护证 (/palm/hospitalization/escort/eleAttend) and 扫码缴费 (/palm/scanCode/index): the pass's QR code and what
 * it names, the explanation while the patient is not in hospital, 刷新; scanning a bill's code (the mini-program's
 * scanner as the doubles give it) or typing its number, then 待缴费.
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import { plainBrowser } from './doubles/browsers'
import type { Platform } from '../../src/platform'
import { miniProgram } from '../../src/platform/miniProgram'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import EscortPassPage, { PASS_ONLY_IN_HOSPITAL } from '../../src/palm/hospitalization/escort/eleAttend'
import ScanPay, { BAD_BILL_NO, NOT_A_BILL_CODE, SCAN_FAILED } from '../../src/palm/scanCode'
import type { EscortPass } from '../../types/api/escortPass'

jest.mock('@/platform', () => {
  const h5 = jest.requireActual('../../src/platform/index.h5')
  const holder = { current: h5.default, h5 }
  return { __esModule: true, holder, default: new Proxy({}, { get: (_t, key) => holder.current[key as keyof Platform] }) }
})
const { holder } = jest.requireMock('@/platform') as { holder: { current: Platform; h5: { default: Platform } } }

let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10392'
const APP_ID = 'wx10392demo00000'
const BILL = 'B202604150123456789'
const MINI_ORIGIN = 'https://api.hospital.example'
const g = globalThis as unknown as { API_BASE: string }

const PASS: EscortPass = {
  token: 'EP1.eyJoIjoiMTAzOTIifQ.0123abcd',
  escortId: 11,
  patientId: 1,
  escortName: '李*',
  patientName: '王*明',
  relation: '子女',
  hospitalName: '示范医院',
  deptName: '心血管内科',
  ward: '心内科一病区',
  bed: '12床',
  admissionNo: 'ZY2026041512345678',
  // 2026-04-16 10:30 at the hospital
  expiresAt: '2026-04-16T02:30:00.000Z',
  issuedAt: '2026-04-15T02:30:00.000Z',
}

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data } })
let passAnswer: () => { statusCode: number; data: unknown } = () => ok(PASS)

function serve() {
  testing.answer(({ url, method, data }) => {
    const path = url.replace(MINI_ORIGIN, '').split('?')[0]!
    const query = (method === 'GET' ? (data ?? {}) : {}) as Record<string, string>
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: APP_ID, provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 1, hospitalCode: HOSPITAL, hospitalName: '示范医院', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: query.imAccount, userSig: 's', expire: 1 })
    if (path === '/dld-palm/api/accompany/pass') return passAnswer()
    return { statusCode: 404, data: '' }
  })
}

function signedInAt(appId: string, page: string, params: Record<string, string> = {}) {
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId, expire: Date.now() + 3_600_000 })
  testing.setRouter(page, params)
  mockRoot = new RootStore()
}

const passRequests = () => calls.requests.filter((r) => r.url.includes('/dld-palm/api/accompany/pass'))
const settle = () => act(() => new Promise((r) => setTimeout(r, 10)))

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  passAnswer = () => ok(PASS)
  serve()
})

describe('电子陪护证 /palm/hospitalization/escort/eleAttend', () => {
  test('shows the QR code of the signed pass large, whom it names (masked), ward and bed, and until when', async () => {
    signedInAt(APP_ID, '/palm/hospitalization/escort/eleAttend', { patientId: '1', escortId: '11' })
    render(<EscortPassPage />)
    const qr = await screen.findByRole('img', { name: '陪护人李*的电子陪护证二维码' })
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(screen.getByText('李*（子女）')).toBeTruthy()
    expect(screen.getByText('王*明')).toBeTruthy()
    expect(screen.getByText('心内科一病区 12床')).toBeTruthy()
    expect(screen.getByText('ZY2026041512345678')).toBeTruthy()
    expect(screen.getByText('有效期至 2026-04-16 10:30')).toBeTruthy()
    expect(passRequests().map((r) => r.data)).toEqual([{ escortId: 11, hospitalCode: HOSPITAL }])
  })

  test('刷新 asks for a fresh pass and shows it', async () => {
    signedInAt(APP_ID, '/palm/hospitalization/escort/eleAttend', { patientId: '1', escortId: '11' })
    render(<EscortPassPage />)
    await screen.findByText('有效期至 2026-04-16 10:30')
    passAnswer = () => ok({ ...PASS, token: 'EP1.e30.ffff', expiresAt: '2026-04-16T03:00:00.000Z' })
    fireEvent.click(screen.getByRole('button', { name: '刷新' }))
    await screen.findByText('有效期至 2026-04-16 11:00')
    expect(passRequests()).toHaveLength(2)
  })

  test('while the patient is not in hospital it says so and explains, without a toast', async () => {
    passAnswer = () => ({ statusCode: 200, data: { code: 400, msg: '该就诊人当前没有在院记录，住院期间才能出示电子陪护证', data: null } })
    signedInAt(APP_ID, '/palm/hospitalization/escort/eleAttend', { patientId: '1', escortId: '11' })
    render(<EscortPassPage />)
    await screen.findByText('该就诊人当前没有在院记录，住院期间才能出示电子陪护证')
    expect(screen.getByText(PASS_ONLY_IN_HOSPITAL)).toBeTruthy()
    expect(screen.queryByRole('img')).toBeNull()
    expect(calls.toasts).toEqual([])
  })

  test('an address without an escort asks the server nothing', async () => {
    signedInAt(APP_ID, '/palm/hospitalization/escort/eleAttend', { patientId: '1' })
    render(<EscortPassPage />)
    await screen.findByText('未找到该陪护人，请从陪护人列表进入')
    expect(passRequests()).toEqual([])
  })
})

describe('扫码缴费 /palm/scanCode/index in a plain browser (no scanner)', () => {
  beforeAll(() => plainBrowser())

  test('offers only the typed number: a malformed one is refused under the field, a bill number opens 待缴费', async () => {
    signedInAt(APP_ID, '/palm/scanCode/index')
    render(<ScanPay />)
    const field = await screen.findByRole('textbox', { name: '缴费单号' })
    expect(screen.queryByRole('button', { name: /扫一扫/ })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: '查询' }))
    expect((await screen.findByRole('alert')).textContent).toBe('请输入缴费单号')
    fireEvent.change(field, { target: { value: 'B2026' } })
    fireEvent.click(screen.getByRole('button', { name: '查询' }))
    expect((await screen.findByRole('alert')).textContent).toBe(BAD_BILL_NO)
    expect(calls.navigations).toEqual([])
    fireEvent.change(field, { target: { value: ` ${BILL.toLowerCase()} ` } })
    fireEvent.click(screen.getByRole('button', { name: '查询' }))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: `/palm/payment/waitPay?billNo=${BILL}&source=scanCode` }])
  })
})

describe('扫码缴费 in the WeChat mini-program (Taro.scanCode)', () => {
  beforeAll(() => {
    g.API_BASE = MINI_ORIGIN
    holder.current = miniProgram('weapp', 'wechat')
  })
  afterAll(() => {
    g.API_BASE = ''
    holder.current = holder.h5.default
  })

  async function tapScan() {
    const before = calls.scans.length
    fireEvent.click(await screen.findByRole('button', { name: /扫一扫/ }))
    await waitFor(() => expect(calls.scans.length).toBe(before + 1))
    await settle()
  }

  test('a bill number or the address of its bill page opens 待缴费 with source=scanCode', async () => {
    signedInAt(DEFAULT_APP_ID, '/palm/scanCode/index')
    render(<ScanPay />)
    testing.answerScan(() => ({ result: BILL }))
    await tapScan()
    testing.answerScan(() => ({ result: `${MINI_ORIGIN}/h5/palm/payment/waitPay?billNo=${BILL}&source=scanCode` }))
    await tapScan()
    expect(calls.scans[0]).toEqual({ scanType: ['qrCode'] })
    const url = `/palm/payment/waitPay?billNo=${BILL}&source=scanCode`
    expect(calls.navigations).toEqual([
      { kind: 'navigateTo', url },
      { kind: 'navigateTo', url },
    ])
    expect(calls.toasts).toEqual([])
  })

  test('closing the scanner does nothing; another code says it is not a bill; a failing scanner says so', async () => {
    signedInAt(DEFAULT_APP_ID, '/palm/scanCode/index')
    render(<ScanPay />)
    testing.answerScan(() => {
      throw { errMsg: 'scanCode:fail cancel' }
    })
    await tapScan()
    expect(calls.toasts).toEqual([])
    testing.answerScan(() => ({ result: `${MINI_ORIGIN}/h5/internet/doctor/index?id=100` }))
    await tapScan()
    testing.answerScan(() => {
      throw { errMsg: 'scanCode:fail camera not authorized', error: 11 }
    })
    await tapScan()
    expect(calls.navigations).toEqual([])
    expect(calls.toasts.map((t) => t.title)).toEqual([NOT_A_BILL_CODE, SCAN_FAILED])
  })
})
