import { createHash, createHmac } from 'node:crypto'
import { z } from 'zod'
import type { IdCardOcrResult } from '../../../../types/api/patient'
import type { Config } from '../../config'
import { badInput } from '../../errors'
import { isValidIdCard, parseIdCard } from '@/utils/idCard'

/** Reads the front of a mainland identity card from a photo. */
export interface OcrProvider {
  readonly kind: 'sandbox' | 'real' | 'disabled'
  /** null when the picture is not a readable identity card. */
  readIdCard(image: Buffer): Promise<IdCardOcrResult | null>
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
/** The tEXt keyword the demo cards (server/src/seed/cards) carry their printed fields under. */
export const SANDBOX_OCR_KEYWORD = 'sandbox-idcard'

const ocrResult = z.object({
  name: z.string().min(1).max(20),
  idCard: z.string().refine((v) => isValidIdCard(v)),
  sex: z.union([z.literal(1), z.literal(2)]),
  birthday: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  nation: z.string().max(20),
  address: z.string().max(200),
})

/** The text of a PNG tEXt chunk with `keyword`, or null. Walks the chunks with bounds checks; never throws. */
export function pngText(image: Buffer, keyword: string): string | null {
  if (image.length < 8 || !image.subarray(0, 8).equals(PNG_SIGNATURE)) return null
  let at = 8
  while (at + 12 <= image.length) {
    const length = image.readUInt32BE(at)
    const type = image.subarray(at + 4, at + 8).toString('latin1')
    const end = at + 12 + length
    if (end > image.length) return null
    if (type === 'tEXt') {
      const data = image.subarray(at + 8, at + 8 + length)
      const nul = data.indexOf(0)
      if (nul > 0 && data.subarray(0, nul).toString('latin1') === keyword) return data.subarray(nul + 1).toString('latin1')
    }
    if (type === 'IEND') return null
    at = end
  }
  return null
}

/**
 * Stands in for recognising the printed card: the demo card images carry their fields as JSON in a PNG tEXt chunk
 * (non-ASCII characters \u-escaped, as tEXt is Latin-1). Any other picture reads as "not an identity card".
 */
export function sandboxOcr(): OcrProvider {
  return {
    kind: 'sandbox',
    async readIdCard(image) {
      const text = pngText(image, SANDBOX_OCR_KEYWORD)
      if (!text) return null
      try {
        const parsed = ocrResult.safeParse(JSON.parse(text))
        return parsed.success ? parsed.data : null
      } catch {
        return null
      }
    },
  }
}

export const OCR_OFF = '暂不支持拍照识别，请手动填写'

/** No OCR service on a server that is not a demo: the patient types the name and number instead of a demo card being "read". */
export function disabledOcr(): OcrProvider {
  return {
    kind: 'disabled',
    async readIdCard() {
      throw badInput(OCR_OFF)
    },
  }
}

const OCR_HOST = 'ocr.tencentcloudapi.com'
const OCR_SERVICE = 'ocr'
const OCR_VERSION = '2018-11-19'
/** Tencent Cloud answers these when the picture is not a readable card front; anything else is a real failure. */
const NOT_A_CARD = /^FailedOperation\.(OcrFailed|IdCardInfoIllegal|NoIdCard|ImageBlur|ImageNoText|ImageDecodeFailed|ImageSizeTooLarge|EmptyImageError|MultiCardError|IdCardTooSmall)/

const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex')
const hmac = (key: Buffer | string, s: string) => createHmac('sha256', key).update(s).digest()

/**
 * Tencent Cloud API 3.0 signature (TC3-HMAC-SHA256) for a JSON POST to `/`:
 * canonical request -> string to sign -> key derived from date, service and 'tc3_request'.
 */
export function tc3Authorization(input: {
  secretId: string
  secretKey: string
  service: string
  host: string
  payload: string
  timestamp: number
}): string {
  const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10)
  const contentType = 'application/json; charset=utf-8'
  const signedHeaders = 'content-type;host'
  const canonicalRequest = ['POST', '/', '', `content-type:${contentType}\nhost:${input.host}\n`, signedHeaders, sha256Hex(input.payload)].join('\n')
  const scope = `${date}/${input.service}/tc3_request`
  const stringToSign = ['TC3-HMAC-SHA256', String(input.timestamp), scope, sha256Hex(canonicalRequest)].join('\n')
  const signing = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), 'tc3_request')
  const signature = createHmac('sha256', signing).update(stringToSign).digest('hex')
  return `TC3-HMAC-SHA256 Credential=${input.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`
}

interface IdCardOcrResponse {
  Response?: {
    Name?: string
    Sex?: string
    Nation?: string
    Birth?: string
    Address?: string
    IdNum?: string
    Error?: { Code: string; Message: string }
    RequestId?: string
  }
}

/** Tencent Cloud OCR, IDCardOCR on the card front (https://cloud.tencent.com/document/product/866/33524). */
export function tencentOcr(cfg: NonNullable<Config['ocr']>): OcrProvider {
  return {
    kind: 'real',
    async readIdCard(image) {
      const payload = JSON.stringify({ ImageBase64: image.toString('base64'), CardSide: 'FRONT' })
      const timestamp = Math.floor(Date.now() / 1000)
      const res = await fetch(`https://${OCR_HOST}/`, {
        method: 'POST',
        headers: {
          authorization: tc3Authorization({ ...cfg, service: OCR_SERVICE, host: OCR_HOST, payload, timestamp }),
          'content-type': 'application/json; charset=utf-8',
          host: OCR_HOST,
          'x-tc-action': 'IDCardOCR',
          'x-tc-timestamp': String(timestamp),
          'x-tc-version': OCR_VERSION,
          'x-tc-region': cfg.region,
        },
        body: payload,
        signal: AbortSignal.timeout(15_000),
      })
      if (!res.ok) throw new Error(`Tencent OCR answered HTTP ${res.status}`)
      const body = ((await res.json()) as IdCardOcrResponse).Response
      if (!body) throw new Error('Tencent OCR answered without a Response')
      if (body.Error) {
        if (NOT_A_CARD.test(body.Error.Code)) return null
        // the message may quote the request; only the code and request id are logged upstream
        throw new Error(`Tencent OCR error ${body.Error.Code} (request ${body.RequestId ?? '?'})`)
      }
      const idCard = (body.IdNum ?? '').trim().toUpperCase()
      const parsed = parseIdCard(idCard)
      if (!body.Name || !parsed || !isValidIdCard(idCard)) return null
      return {
        name: body.Name.trim(),
        idCard,
        // the number is authoritative for sex and birth date (spec §3), not the printed Sex / Birth fields
        sex: parsed.sex,
        birthday: parsed.birthday,
        nation: (body.Nation ?? '').trim(),
        address: (body.Address ?? '').trim(),
      }
    },
  }
}
