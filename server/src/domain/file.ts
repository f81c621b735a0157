import { randomBytes } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { and, eq, inArray } from 'drizzle-orm'
import type { Db } from '../db'
import { files, identities } from '../db/schema'
import { badInput } from '../errors'

/** What patients upload: photos (illness, identity card, avatar) and PDF reports. Type is read from the bytes, not the name. */
const KINDS: { mime: string; ext: string; magic: (b: Buffer) => boolean }[] = [
  { mime: 'image/jpeg', ext: 'jpg', magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mime: 'image/png', ext: 'png', magic: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { mime: 'image/gif', ext: 'gif', magic: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  { mime: 'image/webp', ext: 'webp', magic: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  { mime: 'application/pdf', ext: 'pdf', magic: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
]

/** The stored name inside a URL that POST /dld-file/files-upload answered for a picture. */
export const UPLOADED_PICTURE = /^\/dld-file\/files\/([A-Za-z0-9_-]{22}\.(?:jpg|png|gif|webp))$/

export const PICTURE_NOT_UPLOADED = '图片请先上传'

/** Every picture (at most `max`) is a file one of the caller's identities uploaded to this server. */
export async function requireOwnUploads(db: Db, userId: number, pictures: string[], max: number) {
  if (pictures.length > max) throw badInput(`最多上传${max}张图片`)
  const names = pictures.map((url) => UPLOADED_PICTURE.exec(url)?.[1])
  if (names.some((n) => !n)) throw badInput(PICTURE_NOT_UPLOADED)
  if (!names.length) return
  const found = await db
    .select({ name: files.storedName })
    .from(files)
    .innerJoin(identities, eq(identities.id, files.identityId))
    .where(and(inArray(files.storedName, names as string[]), eq(identities.userId, userId)))
  const have = new Set(found.map((f) => f.name))
  if (names.some((n) => !have.has(n!))) throw badInput(PICTURE_NOT_UPLOADED)
}

export const kindOfName = (name: string) => KINDS.find((k) => name.endsWith(`.${k.ext}`))!

/** Checks an upload by its bytes, stores it under an unguessable name and records who uploaded it. */
export async function storeUpload(db: Db, uploadDir: string, identityId: number, bytes: Buffer, filename: string | undefined) {
  if (bytes.length === 0) throw badInput('文件为空')
  const kind = KINDS.find((k) => k.magic(bytes))
  if (!kind) throw badInput('仅支持 JPG、PNG、GIF、WEBP 图片和 PDF 文件')
  const name = `${randomBytes(16).toString('base64url')}.${kind.ext}`
  await writeFile(join(uploadDir, name), bytes, { flag: 'wx' })
  const original = (filename || name).slice(0, 200)
  await db.insert(files).values({ identityId, storedName: name, originalName: original, mime: kind.mime, size: bytes.length })
  return { url: `/dld-file/files/${name}`, name: original, size: bytes.length, mime: kind.mime }
}
