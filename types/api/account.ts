/**
 * The account holder's rights (server/src/domain/account.ts; this server's own calls, the spec lists none):
 * `GET /dld-user/user/closure`, `POST /dld-user/user/accountCode`, `POST /dld-user/user/export`,
 * `POST /dld-user/user/close`. Amounts are in fen, times ISO 8601.
 */

/** The 账号与隐私 page's first look. */
export interface AccountClosure {
  /** The account's mobile, masked: where the codes go. */
  mobile: string
  /** What keeps the account from being closed now, e.g. `1个未就诊的挂号`; empty when it can be closed. */
  blockers: string[]
}

type Row = Record<string, unknown>

/** Everything the hospital holds about the account, decrypted, as the holder downloads it. */
export interface AccountExport {
  exportedAt: string
  notice: string
  account: Row & { id: number; mobile: string }
  patients: (Row & { patientId: number; name: string; idCard: string })[]
  escorts: Row[]
  addresses: Row[]
  registrations: Row[]
  orders: Row[]
  consultations: Row[]
  chat: Row[]
  evaluations: Row[]
  gifts: Row[]
  followedDoctors: Row[]
  messages: Row[]
  files: Row[]
  /** Satisfaction surveys answered: the choices and the words (none once the account closed). */
  surveys: Row[]
  /** The versions of the user agreement and privacy policy agreed to, and when. */
  consents: Row[]
  /** Complaints and suggestions sent to hospitals, with their answers (the words gone once the account closed). */
  suggestions: Row[]
}

/** `POST /dld-user/user/modifyiIdentify`: the account holder's own real name and identity number (实名认证). */
export interface IdentityInput {
  name: string
  idCard: string
}

/** What the server answers after storing them encrypted: both masked (spec §9). */
export interface DeclaredIdentity {
  name: string
  idCard: string
  /** The number passed the identity-card rules (spec §5). */
  verified: boolean
}
