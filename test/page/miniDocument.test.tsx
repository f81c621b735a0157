/**
 * A report's PDF in the WeChat and Alipay mini-programs (platform.openDocument): downloaded from the server with the
 * patient's token (never a public address), then opened in the system's document viewer; a refusal (2999) is no file
 * to open and is settled like any call's.
 */
import Taro from '@tarojs/taro'
import { calls, testing } from './doubles/taro'
import { miniProgram } from '../../src/platform/miniProgram'
import { downloadFile } from '../../src/services/request'
import { LOCAL, local } from '../../src/services/storage'

const ORIGIN = 'https://api.hospital.example'
const PATH = '/dld-palm/api/report/physical'
const g = globalThis as unknown as { API_BASE: string }
const taro = Taro as unknown as Record<string, unknown>

/** The phone's temporary files, by path, and what the stand-ins were asked. */
let files: Record<string, string> = {}
let downloads: { url: string; header: Record<string, string> }[] = []
let opened: unknown[] = []
let next = ''

beforeAll(() => {
  g.API_BASE = ORIGIN
  taro.downloadFile = async (o: { url: string; header: Record<string, string> }) => {
    downloads.push({ url: o.url, header: o.header })
    return { statusCode: 200, tempFilePath: next }
  }
  taro.getFileSystemManager = () => ({ readFileSync: (path: string) => files[path] ?? '' })
  taro.openDocument = async (o: unknown) => {
    opened.push(o)
  }
})
afterAll(() => {
  g.API_BASE = ''
  delete taro.downloadFile
  delete taro.getFileSystemManager
  delete taro.openDocument
})
beforeEach(() => {
  testing.reset()
  local.set(LOCAL.token, 'tok')
  files = { 'tmp/report.pdf': '%PDF-1.7\n...', 'tmp/refused.pdf': '{"code":2999,"msg":"暂无权限","data":null}' }
  downloads = []
  opened = []
})

const query = { hospitalCode: '10392', patientId: 3, examNo: 'TJ20261127001' }

for (const [name, provider] of [
  ['weapp', 'wechat'],
  ['alipay', 'alipay'],
] as const) {
  describe(`${name}`, () => {
    test('the PDF is downloaded with the token from the API origin and opened in the document viewer', async () => {
      next = 'tmp/report.pdf'
      await miniProgram(name, provider).openDocument({ previewPage: '/palm/report/physical/filePreview', download: () => downloadFile(PATH, query), fileType: 'pdf' })
      expect(downloads).toEqual([{ url: `${ORIGIN}${PATH}?hospitalCode=10392&patientId=3&examNo=TJ20261127001`, header: { Authorization: 'Bearer tok' } }])
      expect(opened).toEqual([{ filePath: 'tmp/report.pdf', fileType: 'pdf', showMenu: true }])
      expect(calls.navigations).toEqual([])
    })

    test('a refusal is not opened as a file: it is settled like any call’s (2999, the no-permission page at most every 4 s)', async () => {
      next = 'tmp/refused.pdf'
      await expect(miniProgram(name, provider).openDocument({ previewPage: '/palm/report/physical/filePreview', download: () => downloadFile(PATH, query), fileType: 'pdf' })).rejects.toMatchObject({ code: 2999 })
      expect(opened).toEqual([])
      if (name === 'weapp') expect(calls.navigations.map((n) => n.url)).toContain('/pages/permission')
    })
  })
}
