import { calls, testing } from '../page/doubles/taro'
import { ApiError, authEvents, get, post, upload } from '../../src/services/request'
import { LOCAL, local } from '../../src/services/storage'

const answer = (statusCode: number, data: unknown) => testing.answer(() => ({ statusCode, data }))

beforeEach(() => testing.reset())

describe('the request layer (spec §7, §8)', () => {
  test('sends the bearer token, the ajax header and a form body with sensitive fields base64-encoded', async () => {
    local.set(LOCAL.token, 'tok')
    answer(200, { code: 200, msg: 'success', data: { idCard: Buffer.from('110101199003074514').toString('base64'), name: '王五' } })
    const data = await post<{ idCard: string; name: string }>('/x', { idCard: '110101199003074514', name: '王五' })
    const sent = calls.requests[0]!
    expect(sent.header.Authorization).toBe('Bearer tok')
    expect(sent.header['X-Requested-With']).toBe('XMLHttpRequest')
    expect(sent.header['Content-Type']).toBe('application/x-www-form-urlencoded')
    expect(sent.data).toBe(`idCard=${encodeURIComponent('MTEwMTAxMTk5MDAzMDc0NTE0')}&name=${encodeURIComponent('王五')}`)
    expect(data).toEqual({ idCard: '110101199003074514', name: '王五' })
  })

  test('marked calls send JSON', async () => {
    answer(200, { code: 200, msg: 'success', data: 1 })
    await post('/x', { a: 1 }, { json: true })
    expect(calls.requests[0]!.header['Content-Type']).toBe('application/json')
    expect(calls.requests[0]!.data).toEqual({ a: 1 })
  })

  test('a business error toasts the server message and rejects; silent calls do not toast', async () => {
    answer(200, { code: 400, msg: '手机号格式不正确', data: null })
    await expect(get('/x')).rejects.toEqual(new ApiError(400, '手机号格式不正确'))
    expect(calls.toasts.map((t) => t.title)).toEqual(['手机号格式不正确'])
    expect(calls.toasts[0]!.duration).toBe(3000)
    await expect(get('/x', undefined, { silent: true })).rejects.toBeInstanceOf(ApiError)
    expect(calls.toasts).toHaveLength(1)
  })

  test('2999 goes to the no-permission page at most once in 4 s', async () => {
    answer(200, { code: 2999, msg: '暂无权限', data: null })
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000)
    await expect(get('/a')).rejects.toBeInstanceOf(ApiError)
    await expect(get('/b')).rejects.toBeInstanceOf(ApiError)
    now.mockReturnValue(1_004_001)
    await expect(get('/c')).rejects.toBeInstanceOf(ApiError)
    now.mockRestore()
    expect(calls.navigations).toEqual([
      { kind: 'navigateTo', url: '/pages/permission' },
      { kind: 'navigateTo', url: '/pages/permission' },
    ])
  })

  test('401 hands over to re-authorisation without a toast', async () => {
    const onUnauthorized = jest.fn()
    authEvents.onUnauthorized = onUnauthorized
    answer(200, { code: 401, msg: '登录已失效，请重新登录', data: null })
    await expect(get('/x')).rejects.toBeInstanceOf(ApiError)
    expect(onUnauthorized).toHaveBeenCalledTimes(1)
    expect(calls.toasts).toHaveLength(0)
  })

  test.each([
    [404, '请求的资源不存在'],
    [500, '服务器内部错误，无法完成请求'],
    [502, '502'],
  ])('HTTP %i shows %s', async (status, text) => {
    answer(status, '')
    await expect(get('/x')).rejects.toBeInstanceOf(ApiError)
    expect(calls.toasts.map((t) => t.title)).toEqual([text])
  })

  test('an empty body says the server is not connected', async () => {
    answer(200, '')
    await expect(get('/x')).rejects.toBeInstanceOf(ApiError)
    expect(calls.toasts.map((t) => t.title)).toEqual(['未连接到服务器'])
  })

  test('an upload sends the token and says it is a picture (Alipay needs fileType), and takes the same 2999 and 401 branches', async () => {
    local.set(LOCAL.token, 'tok')
    const answerUpload = (code: number) =>
      testing.answerUpload(() => ({ statusCode: 200, data: JSON.stringify({ code, msg: code === 200 ? 'success' : '暂无权限', data: code === 200 ? { url: '/f/1.jpg' } : null }) }))
    answerUpload(200)
    await expect(upload('/dld-file/files-upload', 'wxfile://tmp/1.jpg')).resolves.toEqual({ url: '/f/1.jpg' })
    expect(calls.uploads[0]).toMatchObject({ url: '/dld-file/files-upload', filePath: 'wxfile://tmp/1.jpg', name: 'file', fileType: 'image', header: { Authorization: 'Bearer tok' } })

    answerUpload(2999)
    const now = jest.spyOn(Date, 'now').mockReturnValue(9_000_000)
    await expect(upload('/dld-file/files-upload', 'wxfile://tmp/2.jpg')).rejects.toEqual(new ApiError(2999, '暂无权限'))
    now.mockRestore()
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/pages/permission' }])

    const onUnauthorized = jest.fn()
    authEvents.onUnauthorized = onUnauthorized
    answerUpload(401)
    await expect(upload('/dld-file/files-upload', 'wxfile://tmp/3.jpg')).rejects.toBeInstanceOf(ApiError)
    expect(onUnauthorized).toHaveBeenCalledTimes(1)
    expect(calls.toasts).toHaveLength(0)
  })
})
