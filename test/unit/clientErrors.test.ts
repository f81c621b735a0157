import { REPORTS_PER_SESSION, errorReporter, reportOf, scrubClientText, type ClientErrorReport } from '../../src/utils/clientErrors'

describe('what an error report keeps', () => {
  test('no query value, long number or token; paths and words stay', () => {
    expect(scrubClientText('GET /x?id=5&code=123456 failed', 100)).toBe('GET /x?id=~&code=~ failed')
    expect(scrubClientText('mobile 13800138000, id 11010119900307451X', 100)).toBe('mobile ~, id ~')
    expect(scrubClientText('Bearer eyJhbGciOiJIUzI1NiJ9eyJzdWIiOiIxMjM0NTY3ODkwIn0abc', 100)).toBe('Bearer ~')
    expect(scrubClientText('at f (https://h.example/h5/js/pages-palm-register-confirm-index.4c3f2a1b.js:1:200)', 200)).toBe(
      'at f (https://h.example/h5/js/pages-palm-register-confirm-index.4c3f2a1b.js:1:200)',
    )
    expect(scrubClientText('x'.repeat(20), 5)).toBe('xxxxx')
  })

  test('a chunk that did not load is reported as one; the page loses its query', () => {
    const chunk = Object.assign(new Error('Loading chunk 412 failed.\n(error: https://h.example/h5/js/412.js)'), { name: 'ChunkLoadError' })
    expect(reportOf('rejection', chunk, '/palm/register/index?patientId=3')).toMatchObject({ kind: 'chunk', page: '/palm/register/index' })
    expect(reportOf('error', 'Script error.', '/pages/sys/index')).toMatchObject({ kind: 'error', message: 'Script error.', stack: '' })
    expect(reportOf('rejection', new TypeError('a is undefined'), '/').message).toBe('TypeError: a is undefined')
  })
})

describe('the app’s reporter', () => {
  const report = (message: string): ClientErrorReport => ({ kind: 'error', message, stack: '', page: '/' })

  test('each distinct report once, at most a few a session; a report that cannot be sent is dropped quietly', async () => {
    const send = jest.fn(async () => null)
    const reporter = errorReporter(send)
    reporter(report('a'))
    reporter(report('a'))
    for (let i = 0; i < REPORTS_PER_SESSION + 5; i++) reporter(report(`e${i}`))
    expect(send).toHaveBeenCalledTimes(REPORTS_PER_SESSION)
    expect(send.mock.calls[0]).toEqual([report('a')])

    const failing = errorReporter(async () => Promise.reject(new Error('offline')))
    expect(() => failing(report('b'))).not.toThrow()
  })
})
