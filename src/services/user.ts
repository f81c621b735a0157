import { get } from './request'
import type { PageQuery } from './records'
import type { Page } from '../../types/api/hospital'
import type { AccessRecord } from '../../types/api/audit'

/** The account's own calls, `/dld-user`. */
const API = '/dld-user/user'

/** 访问记录: who at the hospital read or changed the data of the caller's patients, newest first (this server's own call). */
export const listAccessRecords = (q: PageQuery) => get<Page<AccessRecord>>(`${API}/access-log`, q, { noLoading: true })
