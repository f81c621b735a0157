import { randomBytes } from 'node:crypto'
import { createReadStream, existsSync, mkdirSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../route'
import { badInput, notFound } from '../errors'
import { files } from '../db/schema'

/** What patients upload: photos (illness, identity card, avatar) and PDF reports. Type is read from the bytes, not the name. */
const KINDS: { mime: string; ext: string; magic: (b: Buffer) => boolean }[] = [
  { mime: 'image/jpeg', ext: 'jpg', magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mime: 'image/png', ext: 'png', magic: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { mime: 'image/gif', ext: 'gif', magic: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  { mime: 'image/webp', ext: 'webp', magic: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  { mime: 'application/pdf', ext: 'pdf', magic: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
]

const storedName = z.string().regex(/^[A-Za-z0-9_-]{22}\.(jpg|png|gif|webp|pdf)$/)

export async function fileRoutes(app: FastifyInstance) {
  const { uploadDir } = app.ctx.config
  mkdirSync(uploadDir, { recursive: true })

  route(app, {
    method: 'POST',
    url: '/dld-file/files-upload',
    summary: 'Upload one picture or PDF (multipart field `file`); answers the URL it is served at',
    auth: 'identity',
    data: z.object({ url: z.string(), name: z.string(), size: z.number(), mime: z.string() }),
    handler: async ({ req, auth }) => {
      if (!req.isMultipart()) throw badInput('请以 multipart/form-data 上传文件')
      const part = await req.file()
      if (!part) throw badInput('请选择要上传的文件')
      const bytes = await part.toBuffer() // throws 413 past the size limit
      if (bytes.length === 0) throw badInput('文件为空')
      const kind = KINDS.find((k) => k.magic(bytes))
      if (!kind) throw badInput('仅支持 JPG、PNG、GIF、WEBP 图片和 PDF 文件')
      const name = `${randomBytes(16).toString('base64url')}.${kind.ext}`
      await writeFile(join(uploadDir, name), bytes, { flag: 'wx' })
      const original = (part.filename || name).slice(0, 200)
      await app.ctx.db.insert(files).values({ identityId: auth.identityId, storedName: name, originalName: original, mime: kind.mime, size: bytes.length })
      return { url: `/dld-file/files/${name}`, name: original, size: bytes.length, mime: kind.mime }
    },
  })

  // served by unguessable name, like the object-storage links hospital apps hand out
  app.get('/dld-file/files/:name', { schema: { hide: true, params: z.object({ name: storedName }) } }, async (req, reply) => {
    const { name } = req.params as { name: string }
    const path = join(uploadDir, name)
    if (!existsSync(path)) throw notFound('文件')
    const kind = KINDS.find((k) => name.endsWith(`.${k.ext}`))!
    return reply
      .header('cache-control', 'private, max-age=31536000, immutable')
      .header('content-disposition', 'inline')
      .type(kind.mime)
      .send(createReadStream(path))
  })
}
