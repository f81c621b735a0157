/**
 * 投诉建议 (/pages/comment/index): the patient sends a complaint, suggestion or praise with pictures to the current
 * hospital, once per attempt, and reads the hospital's answers to what they sent before.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { calls, testing } from './doubles/taro'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import Comment from '../../src/pages/comment'
import type { Suggestion } from '../../types/api/suggestion'

let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data } })
const ANSWERED: Suggestion = {
  id: 1,
  kind: 'complaint',
  content: '门诊三楼收费窗口排队太久',
  pictures: [],
  status: 'answered',
  answer: '已增开两个收费窗口，感谢您的反馈。',
  createdAt: '2026-11-20T02:00:00.000Z',
  answeredAt: '2026-11-21T02:00:00.000Z',
}
let stored: Suggestion[] = []
let sent: Record<string, unknown>[] = []

function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = ''] = url.split('?')
    const query = (method === 'GET' ? (data ?? {}) : {}) as Record<string, string>
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: query.appId, provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 3, hospitalCode: '10392', hospitalName: '示范医院', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-hospital/userSuggestion/list') return query.hospitalCode === '10392' ? ok(stored) : { statusCode: 404, data: '' }
    if (path === '/dld-hospital/userSuggestion' && method === 'POST') {
      const body = data as { kind: Suggestion['kind']; content: string; pictures: string[]; idempotencyKey: string }
      sent.push(body)
      const same = stored.find((s) => (s as unknown as { key?: string }).key === body.idempotencyKey)
      if (same) return ok(same)
      const row = { id: 100 + stored.length, kind: body.kind, content: body.content, pictures: body.pictures, status: 'open', answer: '', createdAt: '2026-11-27T02:00:00.000Z', answeredAt: null, key: body.idempotencyKey }
      stored = [row as Suggestion, ...stored]
      return ok(row)
    }
    return { statusCode: 404, data: '' }
  })
}

let choose: jest.SpyInstance
let upload: jest.SpyInstance
beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10392demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  stored = [ANSWERED]
  sent = []
  testing.setRouter('/pages/comment/index', {})
  serve()
  choose = jest.spyOn(Taro, 'chooseImage').mockImplementation((async () => ({ tempFilePaths: ['blob:queue-photo'] })) as never)
  upload = jest.spyOn(Taro, 'uploadFile').mockImplementation((async () => ({
    statusCode: 200,
    data: JSON.stringify({ code: 200, msg: 'success', data: { url: '/dld-file/files/queue0000000000000000a.jpg', name: 'queue0000000000000000a.jpg', size: 1000, mime: 'image/jpeg' } }),
  })) as never)
})
afterEach(() => {
  choose.mockRestore()
  upload.mockRestore()
})

test('shows what the patient sent before with the hospital’s answer', async () => {
  render(<Comment />)
  expect(await screen.findByText('已增开两个收费窗口，感谢您的反馈。')).toBeTruthy()
  expect(screen.getByText('已回复')).toBeTruthy()
  expect(screen.getByText('门诊三楼收费窗口排队太久')).toBeTruthy()
})

test('too few words are refused before anything is sent; a praise with a picture is sent once and shown first, the form emptied', async () => {
  render(<Comment />)
  await screen.findByText('已回复')
  fireEvent.click(screen.getByRole('tab', { name: '表扬' }))
  const box = screen.getByRole('textbox', { name: '反馈内容' })
  fireEvent.input(box, { target: { value: '很好' } })
  fireEvent.click(screen.getByRole('button', { name: '提交' }))
  await waitFor(() => expect(calls.toasts.map((t) => t.title)).toContain('请至少填写5个字'))
  expect(sent).toEqual([])

  fireEvent.click(screen.getByRole('button', { name: '添加图片' }))
  await screen.findByRole('button', { name: '删除第1张图片' })
  fireEvent.input(box, { target: { value: '挂号处的王老师非常耐心，帮我母亲办好了手续' } })
  fireEvent.click(screen.getByRole('button', { name: '提交' }))
  fireEvent.click(screen.getByRole('button', { name: '提交' }))
  await waitFor(() => expect(calls.toasts.map((t) => t.title)).toContain('提交成功'))
  expect(sent).toHaveLength(1)
  expect(sent[0]).toMatchObject({ hospitalCode: '10392', kind: 'praise', content: '挂号处的王老师非常耐心，帮我母亲办好了手续', pictures: ['/dld-file/files/queue0000000000000000a.jpg'] })
  expect(String(sent[0]!.idempotencyKey)).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
  expect(await screen.findByText('待回复')).toBeTruthy()
  expect((screen.getByRole('textbox', { name: '反馈内容' }) as HTMLTextAreaElement).value).toBe('')
  expect(screen.queryByRole('button', { name: '删除第1张图片' })).toBeNull()
})
