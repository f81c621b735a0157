/**
 * 扫一扫 in a plain mobile browser (src/platform/cameraScan.ts): the camera through getUserMedia and jsQR, on
 * /palm/scanCode/index. jsdom has no camera and no canvas: the camera is a stand-in stream, and the canvas hands the
 * decoder the picture of a real QR code (made with uqr), so the decoding itself is the library's, for real.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import { plainBrowser } from './doubles/browsers'
import { qrRgba } from './doubles/qrImage'
import platform from '../../src/platform/index.h5'
import { AIM_TEXT, CAMERA_REFUSED, CAMERA_UNAVAILABLE, decodeQr } from '../../src/platform/cameraScan'
import ScanPay from '../../src/palm/scanCode'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'

let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data } })

const BILL = 'B202611230123456789'
const BILL_URL = `${window.location.origin}/h5/palm/payment/waitPay?billNo=${BILL}`

let frame: ReturnType<typeof qrRgba> | null
let asked: MediaStreamConstraints[]
let stopped: number
let answer: () => Promise<MediaStream>

const fakeStream = () => ({ getTracks: () => [{ stop: () => void (stopped += 1) }] }) as unknown as MediaStream
const refusal = (name: string) => Object.assign(new Error(name), { name })

beforeAll(() => {
  // the camera's picture: what the canvas was last given to draw, as the frame the test set
  Object.defineProperty(HTMLVideoElement.prototype, 'videoWidth', { get: () => frame?.width ?? 0, configurable: true })
  Object.defineProperty(HTMLVideoElement.prototype, 'videoHeight', { get: () => frame?.height ?? 0, configurable: true })
  Object.defineProperty(HTMLVideoElement.prototype, 'readyState', { get: () => (frame ? 4 : 0), configurable: true })
  HTMLVideoElement.prototype.play = () => Promise.resolve()
  HTMLCanvasElement.prototype.getContext = function getContext() {
    return { drawImage: () => undefined, getImageData: () => frame } as unknown as CanvasRenderingContext2D
  } as unknown as typeof HTMLCanvasElement.prototype.getContext
})

beforeEach(() => {
  testing.reset()
  testing.answer(({ url }) => {
    const path = url.split('?')[0]
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: 'wx10392demo00000', provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 1, hospitalCode: '10392', hospitalName: '示范医院', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: 'x', userSig: 's', expire: 1 })
    return { statusCode: 404, data: '' }
  })
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10392demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  plainBrowser()
  frame = null
  asked = []
  stopped = 0
  answer = async () => fakeStream()
  Object.defineProperty(window.navigator, 'mediaDevices', {
    configurable: true,
    value: {
      getUserMedia: (c: MediaStreamConstraints) => {
        asked.push(c)
        return answer()
      },
    },
  })
  testing.setRouter('/palm/scanCode/index')
})
afterEach(() => {
  delete (window.navigator as { mediaDevices?: unknown }).mediaDevices
  document.querySelectorAll('.camera-scan').forEach((n) => n.remove())
})

describe('decoding a QR code (jsQR)', () => {
  test('reads the text of a generated code, and nothing from a blank picture', () => {
    expect(decodeQr(qrRgba(BILL_URL))).toBe(BILL_URL)
    expect(decodeQr({ data: new Uint8ClampedArray(320 * 240 * 4).fill(255), width: 320, height: 240 })).toBeNull()
  })
})

describe('扫一扫 with the camera in a plain browser (/palm/scanCode/index)', () => {
  test('no camera to ask for (no getUserMedia, e.g. not https): no 扫一扫, typing the number only', async () => {
    delete (window.navigator as { mediaDevices?: unknown }).mediaDevices
    expect(platform.scanCode).toBeUndefined()
    render(<ScanPay />)
    expect(await screen.findByText('输入缴费单号')).toBeTruthy()
    expect(screen.queryByText('扫一扫')).toBeNull()
  })

  test('the rear camera opens in a layer; a bill’s code in the picture opens the bill; the camera is let go', async () => {
    render(<ScanPay />)
    fireEvent.click(await screen.findByText('扫一扫'))
    const layer = await screen.findByRole('dialog', { name: '扫一扫' })
    expect(asked).toEqual([{ video: { facingMode: { ideal: 'environment' } }, audio: false }])
    expect(await screen.findByText(AIM_TEXT)).toBeTruthy()
    expect(document.activeElement?.textContent).toBe('取消')
    frame = qrRgba(BILL_URL)
    await waitFor(() => expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: `/palm/payment/waitPay?billNo=${BILL}&source=scanCode` }))
    expect(layer.isConnected).toBe(false)
    expect(stopped).toBe(1)
  })

  test('取消 closes the camera: nothing opens, the number can be typed', async () => {
    render(<ScanPay />)
    fireEvent.click(await screen.findByText('扫一扫'))
    await screen.findByText(AIM_TEXT)
    fireEvent.click(screen.getByRole('button', { name: '取消' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(stopped).toBe(1)
    expect(calls.navigations).toEqual([])
    expect(screen.getByText('或输入缴费单号')).toBeTruthy()
  })

  test('the camera refused: said plainly in the layer, 关闭 returns to typing the number', async () => {
    answer = async () => {
      throw refusal('NotAllowedError')
    }
    render(<ScanPay />)
    fireEvent.click(await screen.findByText('扫一扫'))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe(CAMERA_REFUSED)
    fireEvent.click(screen.getByRole('button', { name: '关闭' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(calls.navigations).toEqual([])
    expect(calls.toasts).toEqual([])
  })

  test('no usable camera: said so', async () => {
    answer = async () => {
      throw refusal('NotFoundError')
    }
    render(<ScanPay />)
    fireEvent.click(await screen.findByText('扫一扫'))
    expect((await screen.findByRole('alert')).textContent).toBe(CAMERA_UNAVAILABLE)
  })
})
