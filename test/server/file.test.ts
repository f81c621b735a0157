import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { deflateSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { startTestApp, signInWechat, envelopeOf, type TestApp } from './harness'

let t: TestApp
let small: TestApp
let headers: Record<string, string>
before(async () => {
  ;[t, small] = await Promise.all([startTestApp(), startTestApp({ config: { uploadMaxBytes: 1024 } })])
  headers = (await signInWechat(t.app)).headers
})
after(async () => {
  await Promise.all([t?.close(), small?.close()])
})

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(buf: Buffer): number {
  let c = 0xffffffff
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([len, body, crc])
}

/** A valid 1x1 RGB PNG: signature, IHDR, IDAT (one filter byte + one pixel, deflated), IEND. */
function onePixelPng(rgb: [number, number, number] = [255, 0, 0]): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(1, 0) // width
  ihdr.writeUInt32BE(1, 4) // height
  ihdr.writeUInt8(8, 8) // bit depth
  ihdr.writeUInt8(2, 9) // colour type: truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, ...rgb]))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

interface Part {
  name: string
  filename?: string
  contentType?: string
  data: Buffer | string
}

/** A multipart/form-data body written by hand, as a browser would send it. */
function multipart(parts: Part[]) {
  const boundary = `----H5TestBoundary${randomBytes(8).toString('hex')}`
  const pieces: Buffer[] = []
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.contentType ? `Content-Type: ${p.contentType}\r\n` : ''}\r\n`
    pieces.push(Buffer.from(head, 'utf8'), Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data, 'utf8'), Buffer.from('\r\n'))
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(pieces), contentType: `multipart/form-data; boundary=${boundary}` }
}

function upload(parts: Part[], opts: { headers?: Record<string, string>; app?: FastifyInstance } = {}) {
  const body = multipart(parts)
  return (opts.app ?? t.app).inject({
    method: 'POST',
    url: '/dld-file/files-upload',
    payload: body.payload,
    headers: { ...(opts.headers ?? headers), 'content-type': body.contentType },
  })
}

const ONLY_KINDS = '仅支持 JPG、PNG、GIF、WEBP 图片和 PDF 文件'

describe('POST /dld-file/files-upload', () => {
  it('answers 401 without a token', async () => {
    const env = envelopeOf(await upload([{ name: 'file', filename: 'a.png', contentType: 'image/png', data: onePixelPng() }], { headers: {} }))
    assert.equal(env.code, 401)
    assert.equal(env.data, null)
  })

  it('rejects a body that is not multipart', async () => {
    const env = envelopeOf(await t.app.inject({ method: 'POST', url: '/dld-file/files-upload', headers, payload: { file: 'x' } }))
    assert.equal(env.code, 400)
    assert.equal(env.msg, '请以 multipart/form-data 上传文件')
  })

  it('rejects a form without a file', async () => {
    const env = envelopeOf(await upload([{ name: 'note', data: 'hello' }]))
    assert.equal(env.code, 400)
    assert.equal(env.msg, '请选择要上传的文件')
  })

  it('reads the type from the bytes: a text file named .png is refused', async () => {
    const env = envelopeOf(await upload([{ name: 'file', filename: 'photo.png', contentType: 'image/png', data: 'just some text, not a picture' }]))
    assert.equal(env.code, 400)
    assert.equal(env.msg, ONLY_KINDS)
    const html = envelopeOf(await upload([{ name: 'file', filename: 'x.pdf', contentType: 'application/pdf', data: '<html><script>alert(1)</script>' }]))
    assert.equal(html.msg, ONLY_KINDS)
  })

  it('rejects an empty file', async () => {
    const env = envelopeOf(await upload([{ name: 'file', filename: 'empty.png', contentType: 'image/png', data: Buffer.alloc(0) }]))
    assert.equal(env.code, 400)
    assert.equal(env.msg, '文件为空')
  })

  it('rejects a file over the size limit', async () => {
    const s = await signInWechat(small.app)
    const big = Buffer.concat([onePixelPng(), randomBytes(2048)])
    const res = await upload([{ name: 'file', filename: 'big.png', contentType: 'image/png', data: big }], { headers: s.headers, app: small.app })
    const env = envelopeOf(res)
    assert.equal(env.code, 400)
    assert.equal(env.msg, '文件过大')
    // under the limit is fine on the same server
    const ok = envelopeOf(await upload([{ name: 'file', filename: 'ok.png', contentType: 'image/png', data: onePixelPng() }], { headers: s.headers, app: small.app }))
    assert.equal(ok.code, 200)
  })

  it('stores a PNG and serves the same bytes back at the URL it answers', async () => {
    const png = onePixelPng([12, 34, 56])
    const env = envelopeOf(await upload([{ name: 'file', filename: '病历照片.png', contentType: 'image/png', data: png }]))
    assert.equal(env.code, 200)
    assert.match(env.data.url, /^\/dld-file\/files\/[A-Za-z0-9_-]{22}\.png$/)
    assert.equal(env.data.name, '病历照片.png')
    assert.equal(env.data.size, png.length)
    assert.equal(env.data.mime, 'image/png')

    const file = await t.app.inject({ method: 'GET', url: env.data.url })
    assert.equal(file.statusCode, 200)
    assert.equal(file.headers['content-type'], 'image/png')
    assert.deepEqual(file.rawPayload, png)
  })

  it('names the stored file by its real type, not the name it was sent with', async () => {
    const png = onePixelPng()
    const env = envelopeOf(await upload([{ name: 'file', filename: 'photo.jpg', contentType: 'image/jpeg', data: png }]))
    assert.equal(env.code, 200)
    assert.match(env.data.url, /\.png$/)
    assert.equal(env.data.mime, 'image/png')
  })

  it('accepts a PDF report', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')
    const env = envelopeOf(await upload([{ name: 'file', filename: 'report.pdf', contentType: 'application/pdf', data: pdf }]))
    assert.equal(env.code, 200)
    assert.match(env.data.url, /^\/dld-file\/files\/[A-Za-z0-9_-]{22}\.pdf$/)
    const file = await t.app.inject({ method: 'GET', url: env.data.url })
    assert.equal(file.headers['content-type'], 'application/pdf')
    assert.deepEqual(file.rawPayload, pdf)
  })

  it('gives two uploads of the same bytes different URLs', async () => {
    const png = onePixelPng()
    const a = envelopeOf(await upload([{ name: 'file', filename: 'a.png', data: png }]))
    const b = envelopeOf(await upload([{ name: 'file', filename: 'a.png', data: png }]))
    assert.notEqual(a.data.url, b.data.url)
  })
})

describe('GET /dld-file/files/:name', () => {
  it('answers 404 for a name it never stored', async () => {
    const env = envelopeOf(await t.app.inject({ method: 'GET', url: `/dld-file/files/${'A'.repeat(22)}.png` }))
    assert.equal(env.code, 404)
    assert.equal(env.msg, '文件不存在')
  })

  it('never serves a path outside the upload folder', async () => {
    for (const url of ['/dld-file/files/..%2F..%2Fetc%2Fpasswd', '/dld-file/files/..%2F..%2F..%2F..%2F..%2Fetc%2Fhostname', '/dld-file/files/%2Fetc%2Fpasswd']) {
      const res = await t.app.inject({ method: 'GET', url })
      assert.notEqual(res.headers['content-type'], 'image/png', url)
      assert.doesNotMatch(res.body, /root:/, url)
      assert.notEqual(envelopeOf(res).code, 200, url)
    }
  })
})
