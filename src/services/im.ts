import { get } from './request'
import type { UserSig } from '../../types/api/auth'
import type { UnreadCount } from '../../types/api/chat'

/** `/dld-im` (spec §7 "Auth and wechat"): the chat signature and what the server counts of the chat. */

/** The signature of an IM account (0_ + the user id): which chat service, and the credentials to log in to it. */
export const getUserSig = (imAccount: string) => get<UserSig>('/dld-im/im/user-sig', { imAccount }, { noLoading: true })

/** The badge's number from the server; silent: when it cannot be had, the badge keeps the last one. */
export const getUnreadCount = () => get<UnreadCount>('/dld-im/im/update-unread-count', undefined, { silent: true, noLoading: true })
