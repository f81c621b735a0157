import { get, post } from './request'
import type { PageQuery } from './records'
import type { Page } from '../../types/api/hospital'
import type { AccessRecord } from '../../types/api/audit'
import type { AccountClosure, AccountExport, DeclaredIdentity, IdentityInput } from '../../types/api/account'

/** The account's own calls, `/dld-user`. */
const API = '/dld-user/user'

/** 访问记录: who at the hospital read or changed the data of the caller's patients, newest first (this server's own call). */
export const listAccessRecords = (q: PageQuery) => get<Page<AccessRecord>>(`${API}/access-log`, q, { noLoading: true })

/** 账号与隐私: where the codes go (masked) and what keeps the account from being closed now. */
export const closureStatus = () => get<AccountClosure>(`${API}/closure`, undefined, { noLoading: true })

/** What an account code proves: downloading the account's data, or closing it. */
export type AccountCodePurpose = 'export' | 'close'

/** Sends a code to the account's own mobile. */
export const sendAccountCode = (purpose: AccountCodePurpose) => post<{ sent: boolean; resendAfter: number; mobile: string }>(`${API}/accountCode`, { purpose })

/** Everything the hospital holds about the account, proven by an 'export' code. */
export const exportAccount = (code: string) => post<AccountExport>(`${API}/export`, { code })

/** Closes the account, proven by a 'close' code. */
export const closeAccount = (code: string) => post<{ closed: true }>(`${API}/close`, { code })

/** 实名认证: the account holder's own real name and identity number, stored encrypted; answered masked. */
export const saveIdentity = (input: IdentityInput) => post<DeclaredIdentity>(`${API}/modifyiIdentify`, input)
