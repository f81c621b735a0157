import { createHash, randomUUID } from 'node:crypto'
import { and, eq, gt, isNull } from 'drizzle-orm'
import type { Sex } from '../../../../types/api/patient'
import type { Config } from '../../config'
import type { Db } from '../../db'
import { healthCardCodes } from '../../db/schema'
import { type FieldCipher, randomToken, sha256 } from '../../crypto'
import { badInput } from '../../errors'
import { parseIdCard } from '@/utils/idCard'
import { renderSVG } from 'uqr'

/** The holder of an electronic health card, as the provider answers it. */
export interface HealthCardHolder {
  healthCardId: string
  name: string
  idCard: string
  sex: Sex
  birthday: string
  /** Not every card carries a mobile; a patient bound without one is incomplete (spec §5). */
  mobile: string | null
}

/** A card's QR code as the platform draws it: the picture (a data URL) and the text it encodes. */
export interface HealthCardQr {
  image: string
  text: string
}

/** Tencent electronic health card (电子健康卡): an authorisation redirect that returns a one-time healthCode. */
export interface HealthCardProvider {
  readonly kind: 'sandbox' | 'real' | 'disabled'
  /** Where to send the browser; it comes back to `redirect` with `healthCode` added to the query. */
  authorizeUrl(input: { hospitalCode: string; redirect: string }): Promise<string>
  /** Exchanges a one-time code for the card holder; a used or expired code fails. */
  redeem(healthCode: string): Promise<HealthCardHolder>
  /**
   * The card's QR code for a hospital's scanners (`jkt/photoUrl`). The platform's code is dynamic: it changes, so the
   * app asks for it each time the card is shown and never keeps it.
   */
  qrCode(card: { hospitalCode: string; healthCardId: string; idCard: string }): Promise<HealthCardQr>
}

/** A QR code's text drawn as an SVG data URL (uqr, as the app draws its own card numbers). */
const qrImage = (text: string) => `data:image/svg+xml;base64,${Buffer.from(renderSVG(text, { border: 1 })).toString('base64')}`

/** One-time health codes live 5 minutes, like the OAuth codes they stand in for. */
export const HEALTH_CODE_TTL_MS = 5 * 60 * 1000
export const HEALTH_CODE_REFUSED = '健康卡授权已失效，请重新授权'
/** What a hospital without the electronic health card is told (the real platform per hospital, or no platform at all). */
export const HEALTH_CARD_OFF = '该医院暂未开通电子健康卡'

/**
 * The sandbox provider's card holders (fictional, valid identity numbers). 王小明's card carries a mobile;
 * 赵丽's does not, so binding her gives an incomplete patient (spec §5).
 */
export const SANDBOX_HEALTH_CARD_HOLDERS: readonly HealthCardHolder[] = [
  { healthCardId: 'SANDBOXHC0000000001', name: '王小明', idCard: '310104198511030034', sex: 1, birthday: '1985-11-03', mobile: '13600000001' },
  { healthCardId: 'SANDBOXHC0000000002', name: '赵丽', idCard: '510107199002140041', sex: 2, birthday: '1990-02-14', mobile: null },
]

/** Records a one-time code for a holder chosen on the sandbox authorisation page; the holder is stored encrypted. */
export async function issueSandboxHealthCode(db: Db, cipher: FieldCipher, holder: HealthCardHolder): Promise<string> {
  const code = randomToken(16)
  await db.insert(healthCardCodes).values({
    codeHash: sha256(code),
    holderEnc: cipher.encrypt(JSON.stringify(holder)),
    expiresAt: new Date(Date.now() + HEALTH_CODE_TTL_MS),
  })
  return code
}

/** The authorisation page lives on this server (routes/sandbox/healthCard.ts); codes are redeemed once. */
export function sandboxHealthCard(db: Db, cipher: FieldCipher): HealthCardProvider {
  return {
    kind: 'sandbox',
    async authorizeUrl({ hospitalCode, redirect }) {
      return `/sandbox/ehealth/authorize?${new URLSearchParams({ hospitalCode, redirect }).toString()}`
    },
    async redeem(healthCode) {
      // the conditional update is the lock: a code is used once, and never after it expired
      const [row] = await db
        .update(healthCardCodes)
        .set({ usedAt: new Date() })
        .where(and(eq(healthCardCodes.codeHash, sha256(healthCode)), isNull(healthCardCodes.usedAt), gt(healthCardCodes.expiresAt, new Date())))
        .returning()
      if (!row) throw badInput(HEALTH_CODE_REFUSED)
      return JSON.parse(cipher.decrypt(row.holderEnc)) as HealthCardHolder
    },
    async qrCode({ healthCardId }) {
      // like the platform's dynamic code: a new text on every call, which only the card's own holder is shown
      const text = `${healthCardId}:${randomToken(8)}`
      return { image: qrImage(text), text }
    },
  }
}

/** No health-card platform on a server that is not a demo: no sandbox page handing out its demo card holders. */
export function disabledHealthCard(): HealthCardProvider {
  return {
    kind: 'disabled',
    async authorizeUrl() {
      throw badInput(HEALTH_CARD_OFF)
    },
    async redeem() {
      throw badInput(HEALTH_CARD_OFF)
    },
    async qrCode() {
      throw badInput(HEALTH_CARD_OFF)
    },
  }
}

const OPEN_API = 'https://p-healthopen.tengmed.com/rest/auth/HealthCard'
const AUTHORIZE_PAGE = 'https://health.tengmed.com/open/getHealthCardList'
/** 0: WeChat official-account (H5) channel. */
const CHANNEL_H5 = 0

interface CommonOut {
  resultCode: number
  errMsg?: string
  requestId?: string
}

interface OpenCard {
  healthCardId?: string
  name?: string
  gender?: string
  birthday?: string
  idNumber?: string
  idType?: string
  phone1?: string
}

/**
 * The open platform's request signature: every non-empty field of commonIn and req, sorted by name,
 * as `k=v` joined with '&', the app secret appended, SHA-256, base64.
 */
export function healthOpenSign(fields: Record<string, string | number>, appSecret: string): string {
  const raw = Object.keys(fields)
    .filter((k) => k !== 'sign' && fields[k] !== '' && fields[k] !== undefined)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('&')
  return createHash('sha256').update(raw + appSecret).digest('base64')
}

/**
 * The Tencent electronic health card open platform: the H5 card-list authorisation page, getAppToken and
 * getHealthCardByHealthCode. `publicUrl` is where this app is served (the page returns the browser there).
 */
export function tencentHealthCard(cfg: NonNullable<Config['healthCard']>, publicUrl: string | null = null): HealthCardProvider {
  const hospitalIds = Object.values(cfg.hospitalIds)
  const platformHospitalId = hospitalIds[0] ?? ''
  let token: { value: string; until: number } | null = null

  async function call<T>(path: string, appToken: string, req: Record<string, string>): Promise<T> {
    const commonIn = {
      appToken,
      requestId: randomUUID().replace(/-/g, '').toUpperCase(),
      hospitalId: platformHospitalId,
      timestamp: String(Math.floor(Date.now() / 1000)),
      channelNum: CHANNEL_H5,
    }
    const sign = healthOpenSign({ ...commonIn, ...req }, cfg.appSecret)
    const res = await fetch(`${OPEN_API}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ commonIn: { ...commonIn, sign }, req }),
      signal: AbortSignal.timeout(10_000),
    })
    if (!res.ok) throw new Error(`health card platform answered HTTP ${res.status}`)
    const body = (await res.json()) as { commonOut?: CommonOut; rsp?: T }
    if (!body.commonOut || body.commonOut.resultCode !== 0 || !body.rsp) {
      throw Object.assign(new Error(`health card platform error ${body.commonOut?.resultCode ?? '?'} (request ${body.commonOut?.requestId ?? '?'})`), {
        platformCode: body.commonOut?.resultCode,
      })
    }
    return body.rsp
  }

  async function appToken(): Promise<string> {
    if (token && token.until > Date.now()) return token.value
    const rsp = await call<{ appToken: string; expiresIn: number }>('/HealthOpenAuth/AuthObj/getAppToken', '', { appId: cfg.appId })
    token = { value: rsp.appToken, until: Date.now() + (rsp.expiresIn - 300) * 1000 }
    return token.value
  }

  return {
    kind: 'real',
    async authorizeUrl({ hospitalCode, redirect }) {
      const hospitalId = cfg.hospitalIds[hospitalCode]
      if (!hospitalId) throw badInput(HEALTH_CARD_OFF)
      if (!publicUrl) throw new Error('PUBLIC_URL must be set for the electronic health card to return to the app')
      const back = `${publicUrl.replace(/\/$/, '')}/h5${redirect}`
      return `${AUTHORIZE_PAGE}?${new URLSearchParams({ redirect_uri: back, hospitalId }).toString()}`
    },
    async redeem(healthCode) {
      let rsp: { card?: OpenCard }
      try {
        rsp = await call('/HealthOpenPlatform/ISVOpenObj/getHealthCardByHealthCode', await appToken(), { healthCode })
      } catch (err) {
        // a platform answer about the code is the patient's to retry; a network failure is ours
        if ((err as { platformCode?: number }).platformCode !== undefined) throw badInput(HEALTH_CODE_REFUSED)
        throw err
      }
      const card = rsp.card
      const idCard = (card?.idNumber ?? '').trim().toUpperCase()
      const parsed = parseIdCard(idCard)
      // only mainland resident identity cards (idType 01) can be bound as a patient here
      if (!card?.healthCardId || !card.name || (card.idType && card.idType !== '01') || !parsed) throw badInput('该健康卡的证件类型暂不支持绑定')
      return {
        healthCardId: card.healthCardId,
        name: card.name.trim(),
        idCard,
        sex: parsed.sex,
        birthday: parsed.birthday,
        mobile: card.phone1?.trim() || null,
      }
    },
    async qrCode({ hospitalCode, healthCardId, idCard }) {
      if (!cfg.hospitalIds[hospitalCode]) throw badInput(HEALTH_CARD_OFF)
      // codeType 0: the dynamic code; the platform answers its text and, usually, its picture (base64 PNG)
      const rsp = await call<{ qrCodeText?: string; qrCodeImg?: string }>('/HealthOpenPlatform/ISVOpenObj/getDynamicQRCode', await appToken(), {
        healthCardId,
        idType: '01',
        idNumber: idCard,
        codeType: '0',
      })
      if (!rsp.qrCodeText) throw new Error('health card platform answered no QR code')
      return { image: rsp.qrCodeImg ? `data:image/png;base64,${rsp.qrCodeImg}` : qrImage(rsp.qrCodeText), text: rsp.qrCodeText }
    },
  }
}
