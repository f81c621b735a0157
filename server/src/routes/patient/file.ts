import { createReadStream, existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { badInput, notFound } from '../../errors'
import { kindOfName, storeUpload } from '../../domain/file'

/** The one file of a multipart upload (field `file`), read whole; 413 past the size limit. */
export async function readUpload(req: FastifyRequest): Promise<{ bytes: Buffer; filename: string | undefined }> {
  if (!req.isMultipart()) throw badInput('请以 multipart/form-data 上传文件')
  const part = await req.file()
  if (!part) throw badInput('请选择要上传的文件')
  return { bytes: await part.toBuffer(), filename: part.filename }
}

/** What an upload answers: the URL it is served at. */
export const uploadDto = z.object({ url: z.string(), name: z.string(), size: z.number(), mime: z.string() })

const storedName = z.string().regex(/^[A-Za-z0-9_-]{22}\.(jpg|png|gif|webp|pdf)$/)

export async function fileRoutes(app: FastifyInstance) {
  const { uploadDir } = app.ctx.config
  mkdirSync(uploadDir, { recursive: true })

  route(app, {
    method: 'POST',
    url: '/dld-file/files-upload',
    summary: 'Upload one picture or PDF (multipart field `file`); answers the URL it is served at',
    auth: 'identity',
    data: uploadDto,
    handler: async ({ req, auth }) => {
      const { bytes, filename } = await readUpload(req)
      return storeUpload(app.ctx.db, uploadDir, auth.identityId, bytes, filename)
    },
  })

  // served by unguessable name, like the object-storage links hospital apps hand out
  app.get('/dld-file/files/:name', { schema: { hide: true, params: z.object({ name: storedName }) } }, async (req, reply) => {
    const { name } = req.params as { name: string }
    const path = join(uploadDir, name)
    if (!existsSync(path)) throw notFound('文件')
    const kind = kindOfName(name)
    return reply
      .header('cache-control', 'private, max-age=31536000, immutable')
      .header('content-disposition', 'inline')
      .type(kind.mime)
      .send(createReadStream(path))
  })
}
