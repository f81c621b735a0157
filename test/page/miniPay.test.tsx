/**
 * Paying in a mini-program with the sandbox cashier: it is a page of the server, so it opens in the web-view page
 * (only the server's own origin opens there), and closing that page brings the patient back to the order.
 */
import { fireEvent, render, screen } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import { miniProgram } from '../../src/platform/miniProgram'
import WebViewPage from '../../src/pages/webview'

const ORIGIN = 'https://api.hospital.example'
const g = globalThis as unknown as { API_BASE: string }
beforeAll(() => {
  g.API_BASE = ORIGIN
})
afterAll(() => {
  g.API_BASE = ''
})
beforeEach(() => testing.reset())

test('the sandbox cashier opens in the web-view; the patient is back at the order once it closes', async () => {
  const pay = miniProgram('weapp', 'wechat').pay({ kind: 'redirect', channel: 'sandbox', url: '/sandbox/pay/cashier?orderNo=P1' })
  await new Promise((r) => setTimeout(r, 0))
  expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: `/pages/webview/index?url=${encodeURIComponent(`${ORIGIN}/sandbox/pay/cashier?orderNo=P1`)}` }])
  expect(calls.modals).toEqual([]) // not 请在浏览器中打开完成支付

  // the web-view page shows the cashier, and closes by itself when the cashier sends the patient back to the app
  testing.setRouter('/pages/webview/index', { url: encodeURIComponent(`${ORIGIN}/sandbox/pay/cashier?orderNo=P1`) })
  const page = render(<WebViewPage />)
  const frame = screen.getByTestId('web-view') as HTMLIFrameElement
  expect(frame.getAttribute('src')).toBe(`${ORIGIN}/sandbox/pay/cashier?orderNo=P1`)
  frame.dataset.reached = `${ORIGIN}/h5/pages/order/register/detail?source=pay&id=5`
  fireEvent.load(frame)
  expect(calls.navigations.at(-1)).toEqual({ kind: 'navigateBack', url: '' })
  page.unmount()
  await expect(pay).resolves.toBe('paid')
})

test('a page of any other site does not open in the web-view', () => {
  for (const url of ['https://evil.example/pay', `${ORIGIN}.evil.example/x`, `https://user@${ORIGIN.slice(8)}/x`, 'javascript:alert(1)']) {
    testing.setRouter('/pages/webview/index', { url: encodeURIComponent(url) })
    const page = render(<WebViewPage />)
    expect(screen.queryByTestId('web-view')).toBeNull()
    expect(screen.getByText('无法打开该页面')).toBeTruthy()
    page.unmount()
  }
})

test('a site the build names (TARO_APP_WEBVIEW_ORIGINS: the cloud film viewer) opens too; look-alikes of it do not', () => {
  const g2 = globalThis as unknown as { WEBVIEW_ORIGINS: string[] }
  g2.WEBVIEW_ORIGINS = ['https://pacs.hospital.example']
  try {
    testing.setRouter('/pages/webview/index', { url: encodeURIComponent('https://pacs.hospital.example/view?study=1.2.3&sig=ab') })
    const page = render(<WebViewPage />)
    expect(screen.getByTestId('web-view').getAttribute('src')).toBe('https://pacs.hospital.example/view?study=1.2.3&sig=ab')
    page.unmount()
    for (const url of ['https://pacs.hospital.example.evil.example/view', 'https://user@pacs.hospital.example/view', 'http://pacs.hospital.example/view']) {
      testing.setRouter('/pages/webview/index', { url: encodeURIComponent(url) })
      const other = render(<WebViewPage />)
      expect(screen.queryByTestId('web-view')).toBeNull()
      other.unmount()
    }
  } finally {
    g2.WEBVIEW_ORIGINS = []
  }
})

test('a cashier on another site (not the server) still asks for a browser', async () => {
  await expect(miniProgram('weapp', 'wechat').pay({ kind: 'redirect', channel: 'alipay', url: 'https://openapi.alipay.com/gateway.do?x=1' })).resolves.toBe('failed')
  expect(calls.modals).toEqual(['请在浏览器中打开完成支付'])
  expect(calls.navigations).toEqual([])
})

test('Alipay’s payment sheet for the trade the server made: paid, still processing (the server decides), closed, failed', async () => {
  const g2 = globalThis as unknown as { my?: unknown }
  const asked: string[] = []
  const sheet = (resultCode: string) => {
    g2.my = {
      tradePay: (o: { tradeNO: string; success(r: { resultCode: string }): void }) => {
        asked.push(o.tradeNO)
        o.success({ resultCode })
      },
    }
  }
  const alipay = miniProgram('alipay', 'alipay')
  const outcomes: string[] = []
  for (const code of ['9000', '8000', '6001', '4000']) {
    sheet(code)
    outcomes.push(await alipay.pay({ kind: 'tradePay', channel: 'alipay', tradeNo: 'T1' }))
  }
  expect(outcomes).toEqual(['paid', 'paid', 'cancelled', 'failed'])
  expect(asked).toEqual(['T1', 'T1', 'T1', 'T1'])
  delete g2.my
})
