import { and, eq, gt, isNull } from 'drizzle-orm'
import type { InsuranceChannel } from '../../../../types/api/insurance'
import type { Config } from '../../config'
import type { Db } from '../../db'
import { insuranceAuthCodes } from '../../db/schema'
import { type FieldCipher, hmacHex, randomToken, safeEqual, sha256 } from '../../crypto'
import { badInput } from '../../errors'
import { idCardCheckChar } from '@/utils/idCard'

/**
 * Health insurance mobile payment (医保移动支付, spec §7 "Insurance"). The patient authorises with their insurance
 * voucher (医保电子凭证) on the platform's page, which returns a one-time `authCode`; `userQuery` turns it into a
 * payAuthNo and the insured person; `uploadFees` sends an order's fee items and answers how insurance splits them
 * (fund 统筹, personal account 个人账户, cash 自付); `refund` gives the insurance part back.
 */
export interface InsuredPerson {
  name: string
  idCard: string
  /** 310 职工基本医疗保险, 390 城乡居民基本医疗保险, as the platform codes it. */
  insuType: string
  insuTypeName: string
}

export interface InsuranceAuthorisation {
  payAuthNo: string
  person: InsuredPerson
  expiresAt: Date
}

export interface FeeItem {
  code: string
  name: string
  fen: number
  count: number
}

export interface FeeSplit {
  payOrdId: string
  fundFen: number
  accountFen: number
  cashFen: number
}

export interface InsuranceProvider {
  readonly kind: 'sandbox' | 'real' | 'disabled'
  /** The platform's authorisation page; it comes back to `/h5{redirect}` with `authCode` added to the query. */
  authorizeUrl(input: { channel: InsuranceChannel; hospitalCode: string; redirect: string }): Promise<string>
  /** A one-time code for the insured person and a payAuthNo; a used or expired code fails. */
  userQuery(input: { channel: InsuranceChannel; authCode: string }): Promise<InsuranceAuthorisation>
  /** Uploads an order's fee items (6201) and answers the split; the fund and account parts settle with the payment. */
  uploadFees(input: { payAuthNo: string; person: Pick<InsuredPerson, 'name' | 'idCard'>; hospitalCode: string; orderNo: string; items: FeeItem[] }): Promise<FeeSplit>
  /** Gives a settled insurance part back (6203); the same refundNo again changes nothing. */
  refund(input: { payOrdId: string; orderNo: string; refundNo: string; reason: string }): Promise<void>
  /** The platform's test person (getAuthTestUserInfo); null where the platform has none (production). */
  testUser(): InsuredPerson | null
}

export const AUTH_CODE_TTL_MS = 5 * 60 * 1000
/** A payAuthNo lets us settle on the person's account: it is kept for two hours, then the patient authorises again. */
export const PAY_AUTH_TTL_MS = 2 * 60 * 60 * 1000
export const AUTH_CODE_REFUSED = '医保授权已失效，请重新授权'
export const PAY_AUTH_REFUSED = '医保授权已过期，请重新授权'
/** What a hospital without insurance mobile payment is told (the gateway's per hospital, or no gateway at all). */
export const INSURANCE_OFF = '该医院暂未开通医保移动支付'

const person = (name: string, first17: string, insuType: string, insuTypeName: string): InsuredPerson => ({
  name,
  idCard: first17 + idCardCheckChar(first17),
  insuType,
  insuTypeName,
})

/** The sandbox platform's insured people (fictional): one employee, one resident, as the test platform lists them. */
export const SANDBOX_INSURED: readonly InsuredPerson[] = [
  person('孙建国', '32010219780615003', '310', '职工基本医疗保险'),
  person('周敏', '44030419920318004', '390', '城乡居民基本医疗保险'),
]

/**
 * The sandbox's split rule, in percent of the fees the fund pays (统筹): employees 70, residents 50. The personal
 * account is not used online and the rest is cash, rounded so the fund never pays more than its share. Real
 * platforms apply the city's own deductibles, caps and item catalogues; the sandbox keeps one rule per type.
 */
export const SANDBOX_FUND_PERCENT: Readonly<Record<string, number>> = { '310': 70, '390': 50 }

export function sandboxSplit(totalFen: number, insuType: string): Omit<FeeSplit, 'payOrdId'> {
  const fundFen = Math.floor((totalFen * (SANDBOX_FUND_PERCENT[insuType] ?? 0)) / 100)
  return { fundFen, accountFen: 0, cashFen: totalFen - fundFen }
}

/** Records a one-time code for a person chosen on the sandbox authorisation page; the person is stored encrypted. */
export async function issueSandboxInsuranceCode(db: Db, cipher: FieldCipher, insured: InsuredPerson): Promise<string> {
  const code = randomToken(16)
  await db.insert(insuranceAuthCodes).values({
    codeHash: sha256(code),
    personEnc: cipher.encrypt(JSON.stringify(insured)),
    expiresAt: new Date(Date.now() + AUTH_CODE_TTL_MS),
  })
  return code
}

/**
 * The sandbox platform: its authorisation page lives on this server (routes/sandbox/insurance.ts), codes are redeemed
 * once, and a payAuthNo is signed for one person until it expires, so an upload for anyone else is refused as the
 * real platform refuses it.
 */
export function sandboxInsurance(db: Db, cipher: FieldCipher, secret: string): InsuranceProvider {
  const sign = (idCard: string, until: number) => hmacHex(secret, `insurance:${idCard}:${until}`)
  return {
    kind: 'sandbox',
    async authorizeUrl({ channel, hospitalCode, redirect }) {
      return `/sandbox/insurance/authorize?${new URLSearchParams({ channel, hospitalCode, redirect }).toString()}`
    },
    async userQuery({ authCode }) {
      const [row] = await db
        .update(insuranceAuthCodes)
        .set({ usedAt: new Date() })
        .where(and(eq(insuranceAuthCodes.codeHash, sha256(authCode)), isNull(insuranceAuthCodes.usedAt), gt(insuranceAuthCodes.expiresAt, new Date())))
        .returning()
      if (!row) throw badInput(AUTH_CODE_REFUSED)
      const insured = JSON.parse(cipher.decrypt(row.personEnc)) as InsuredPerson
      const until = Date.now() + PAY_AUTH_TTL_MS
      return { payAuthNo: `SBX.${until}.${sign(insured.idCard, until)}`, person: insured, expiresAt: new Date(until) }
    },
    async uploadFees({ payAuthNo, person: who, items }) {
      const [, untilText, mac] = payAuthNo.split('.')
      const until = Number(untilText)
      if (!mac || !Number.isSafeInteger(until) || until <= Date.now() || !safeEqual(mac, sign(who.idCard, until))) throw badInput(PAY_AUTH_REFUSED)
      const insured = SANDBOX_INSURED.find((p) => p.idCard === who.idCard && p.name === who.name)
      if (!insured) throw badInput('未查询到参保信息')
      const totalFen = items.reduce((sum, i) => sum + i.fen * i.count, 0)
      return { payOrdId: `SBXORD${randomToken(9)}`, ...sandboxSplit(totalFen, insured.insuType) }
    },
    async refund() {
      // the sandbox fund keeps no balances: giving a part back always succeeds
    },
    testUser: () => SANDBOX_INSURED[0]!,
  }
}

/**
 * No insurance gateway on a server that is not a demo: no sandbox fund paying 70 % / 50 % of real bills and no test
 * person handed out. Nothing was settled through it, so there is nothing it could be asked to refund.
 */
export function disabledInsurance(): InsuranceProvider {
  const off = async (): Promise<never> => {
    throw badInput(INSURANCE_OFF)
  }
  return { kind: 'disabled', authorizeUrl: off, userQuery: off, uploadFees: off, refund: off, testUser: () => null }
}

/**
 * A hospital's insurance gateway (医保前置机): the national platform's interfaces (user query, 6201 fee upload, 6203
 * refund) need the hospital's own certificates and encryption, so hospitals reach them through a gateway on their
 * network. This server speaks one small JSON contract to it, each body signed with HMAC-SHA256 of the app secret:
 * POST {url}/user-query {channel, authCode} -> {payAuthNo, expiresAt, person}; POST {url}/fee-upload
 * {payAuthNo, name, idCard, orgCode, orderNo, items} -> {payOrdId, fundFen, accountFen, cashFen};
 * POST {url}/refund {payOrdId, orderNo, refundNo, reason} -> {}. Answers are `{code: 0, data}` or `{code, msg}`.
 * The authorisation page is the channel's own (WeChat's 医保电子凭证 page, Alipay's), built from `authorizePages`.
 */
export function gatewayInsurance(cfg: NonNullable<Config['insurance']>, publicUrl: string | null): InsuranceProvider {
  async function call<T>(path: string, body: Record<string, unknown>): Promise<T> {
    const text = JSON.stringify(body)
    const res = await fetch(`${cfg.url.replace(/\/$/, '')}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': cfg.appId, 'x-signature': hmacHex(cfg.secret, text) },
      body: text,
      signal: AbortSignal.timeout(15_000),
    })
    if (!res.ok) throw new Error(`insurance gateway answered HTTP ${res.status}`)
    const answer = (await res.json()) as { code: number; msg?: string; data?: T }
    // a refusal of the platform's (code, expired authorisation, not insured) is the patient's to read
    if (answer.code !== 0 || answer.data === undefined) throw badInput(answer.msg?.slice(0, 100) || '医保结算失败，请稍后重试')
    return answer.data
  }
  return {
    kind: 'real',
    async authorizeUrl({ channel, hospitalCode, redirect }) {
      const template = cfg.authorizePages[channel]
      if (!template || !cfg.orgCodes[hospitalCode]) throw badInput(INSURANCE_OFF)
      if (!publicUrl) throw new Error('PUBLIC_URL must be set for the insurance authorisation to return to the app')
      const back = `${publicUrl.replace(/\/$/, '')}/h5${redirect}`
      return template.replace('{orgCode}', encodeURIComponent(cfg.orgCodes[hospitalCode]!)).replace('{redirect}', encodeURIComponent(back))
    },
    async userQuery({ channel, authCode }) {
      const data = await call<{ payAuthNo: string; expiresAt: string; person: InsuredPerson }>('/user-query', { channel, authCode })
      if (!data.payAuthNo || !data.person?.idCard || !data.person.name || Number.isNaN(Date.parse(data.expiresAt))) throw new Error('insurance gateway answered a user query without its fields')
      return { payAuthNo: data.payAuthNo, person: data.person, expiresAt: new Date(data.expiresAt) }
    },
    async uploadFees({ payAuthNo, person: who, hospitalCode, orderNo, items }) {
      const orgCode = cfg.orgCodes[hospitalCode]
      if (!orgCode) throw badInput(INSURANCE_OFF)
      return call<FeeSplit>('/fee-upload', { payAuthNo, name: who.name, idCard: who.idCard, orgCode, orderNo, items })
    },
    async refund(input) {
      await call('/refund', input)
    },
    testUser: () => null,
  }
}
