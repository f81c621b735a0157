import type { Conversation, Message } from 'tim-js-sdk'
import TIM, { type TimSdk } from '@/platform/im'
import type { ChatConversation, ChatMessage, ChatMessagePage, ChatMessageStatus, NetworkState } from '../../../types/api/chat'
import { ChatEventSource, type ChatDriver } from './driver'
import { PRESCRIPTION_MESSAGE, isOrderDescription } from '@/utils/chatRules'

/** spec §9: messaging log level 1 (Tencent's release level: important information only). */
export const TIM_LOG_LEVEL = 1

/** Shown for a kind of message the app does not display (voice, video, file, location, ...). */
export const UNSUPPORTED_TEXT = '[暂不支持的消息类型]'
/** Shown for a message its sender recalled. */
export const REVOKED_TEXT = '[消息已撤回]'
/** What other Tencent IM clients show for our picture message (its custom `extension`). */
export const IMAGE_SUMMARY = '[图片]'

type TimInstance = ReturnType<TimSdk['create']>

/**
 * What we put in a message's cloudCustomData (kept by Tencent with the message, delivered to the peer and to our
 * other devices, returned by the history): our own id of the message, and its desc when it has one.
 */
interface CloudData {
  clientId?: string
  description?: string
}

/** Our cloudCustomData, or the doctor side's: a JSON object, or a bare order description. */
function readCloudData(raw: string | undefined): CloudData {
  if (!raw) return {}
  try {
    const value: unknown = JSON.parse(raw)
    if (value && typeof value === 'object') {
      const { clientId, description } = value as Record<string, unknown>
      return {
        ...(typeof clientId === 'string' && clientId ? { clientId } : {}),
        ...(typeof description === 'string' ? { description } : {}),
      }
    }
  } catch {
    // not JSON: a bare desc
  }
  return isOrderDescription(raw) ? { description: raw } : {}
}

/** Our picture: already uploaded to our file service, so it travels as a custom message naming its url. */
interface ImageData {
  type: 'image'
  url: string
}

function readImageData(data: unknown): ImageData | null {
  if (typeof data !== 'string' || !data.startsWith('{')) return null
  try {
    const value = JSON.parse(data) as Partial<ImageData> | null
    return value?.type === 'image' && typeof value.url === 'string' ? { type: 'image', url: value.url } : null
  } catch {
    return null
  }
}

interface ImageInfo {
  url?: string
  width?: number
  height?: number
  size?: number
}

/** The url of the biggest picture Tencent keeps of an image (original, large, thumbnail): by area, then by bytes. */
export function largestImageUrl(payload: { imageInfoArray?: ImageInfo[] } | undefined): string {
  const area = (i: ImageInfo) => (i.width ?? 0) * (i.height ?? 0)
  const bigger = (a: ImageInfo, b: ImageInfo) => area(b) > area(a) || (area(b) === area(a) && (b.size ?? 0) > (a.size ?? 0))
  let best: ImageInfo | null = null
  for (const info of payload?.imageInfoArray ?? []) if (info.url && (!best || bigger(best, info))) best = info
  return best?.url ?? ''
}

const errorOf = (e: unknown, fallback: string) => {
  if (e instanceof Error) return e
  const message = (e as { message?: unknown } | null)?.message
  return new Error(typeof message === 'string' && message ? message : fallback)
}

/**
 * The Tencent IM (v2 SDK) driver: the `tim` driver of /dld-im/im/user-sig. The SDK comes through the platform
 * layer (tim-js-sdk in H5, tim-wx-sdk in the mini-programs); only the internet pages that chat import this module
 * (src/platform/imDriver.ts registers it for the chat store), so the SDK ships with them and not in the main package.
 *
 * Message ids: ours is the id the store gave the message (sent again as is on a resend). It travels in the
 * message's cloudCustomData (`{"clientId": ...}`), so the history and our other devices see the same id; messages
 * without one (the doctor side's) keep Tencent's own ID. A message that failed is resent as the same Tencent message
 * (`resendMessage`: the same ID, sequence and random, which Tencent knows a message by), not as a new one.
 */
export class TimChatDriver extends ChatEventSource implements ChatDriver {
  private readonly tim: TimInstance
  /** Tencent messages whose sending failed, by our id: a resend sends the same one again. */
  private readonly failed = new Map<string, Message>()
  private userID = ''
  private sdkReady = false

  constructor(
    sdkAppId: number,
    private readonly sdk: TimSdk = TIM,
  ) {
    super()
    this.tim = sdk.create({ SDKAppID: sdkAppId })
    this.tim.setLogLevel(TIM_LOG_LEVEL)
    // Tencent: listen before logging in, or the first events are missed
    const { EVENT } = sdk
    this.tim.on(EVENT.SDK_READY, () => {
      this.sdkReady = true
      this.emit('ready', undefined)
    })
    this.tim.on(EVENT.SDK_NOT_READY, () => {
      this.sdkReady = false
    })
    this.tim.on(EVENT.MESSAGE_RECEIVED, ({ data }: { data: Message[] }) => {
      const messages = data.map((m) => this.toChatMessage(m)).filter((m): m is ChatMessage => m !== null)
      if (messages.length) this.emit('messageReceived', messages)
    })
    this.tim.on(EVENT.CONVERSATION_LIST_UPDATED, ({ data }: { data: Conversation[] }) => {
      this.emit('conversationListUpdated', this.toConversations(data))
    })
    this.tim.on(EVENT.KICKED_OUT, ({ data }: { data?: { type?: string } }) => {
      this.sdkReady = false
      this.emit('kickedOut', { reason: data?.type || 'kicked out' })
    })
    this.tim.on(EVENT.NET_STATE_CHANGE, ({ data }: { data?: { state?: string } }) => {
      const state = this.networkState(data?.state)
      if (state) this.emit('networkStateChange', { state })
    })
    this.tim.on(EVENT.ERROR, ({ data }: { data?: { code?: number; message?: string } }) => {
      this.emit('error', { code: data?.code ?? 0, message: data?.message ?? '' })
    })
  }

  /** Resolves once Tencent has accepted the signature; 'ready' follows from the SDK. */
  async login(userID: string, userSig: string): Promise<void> {
    // Tencent answers any login while signed in as "repeat login", whoever it names: another account signs out first
    if (this.userID && this.userID !== userID) await this.logout().catch(() => undefined)
    const res = (await this.tim.login({ userID, userSig }).catch((e: unknown) => {
      throw errorOf(e, 'IM login failed')
    })) as { data?: { repeatLogin?: boolean } }
    this.userID = userID
    // still signed in (a re-login after an error): the SDK stays ready and will not say so again
    if (res?.data?.repeatLogin && this.sdkReady) this.emit('ready', undefined)
  }

  async logout(): Promise<void> {
    this.userID = ''
    this.sdkReady = false
    // Tencent drops its messages with the session: a failed one can no longer be resent as it was
    this.failed.clear()
    await this.tim.logout().catch((e: unknown) => {
      // not signed in (2024) is where logging out ends anyway
      if ((e as { code?: number } | null)?.code !== 2024) throw errorOf(e, 'IM logout failed')
    })
  }

  /** The nick arrives packed by the store (spec §3). */
  async updateProfile({ nick, avatar }: { nick: string; avatar: string }): Promise<void> {
    await this.tim.updateMyProfile({ nick, avatar }).catch((e: unknown) => {
      throw errorOf(e, 'IM profile update failed')
    })
  }

  async getConversationList(): Promise<ChatConversation[]> {
    const res = (await this.tim.getConversationList().catch((e: unknown) => {
      throw errorOf(e, 'IM conversations failed')
    })) as { data: { conversationList: Conversation[] } }
    return this.toConversations(res.data.conversationList)
  }

  /** Tencent's pages of 15, oldest first; its nextReqMessageID is our cursor, null once it says the history is complete. */
  async getMessageList(conversationID: string, cursor?: string): Promise<ChatMessagePage> {
    const res = (await this.tim.getMessageList({ conversationID, ...(cursor ? { nextReqMessageID: cursor } : {}) }).catch((e: unknown) => {
      throw errorOf(e, 'IM history failed')
    })) as { data: { messageList: Message[]; nextReqMessageID: string; isCompleted: boolean } }
    const { messageList, nextReqMessageID, isCompleted } = res.data
    return {
      messages: messageList.map((m) => this.toChatMessage(m)).filter((m): m is ChatMessage => m !== null),
      nextCursor: isCompleted || !nextReqMessageID ? null : nextReqMessageID,
    }
  }

  async sendMessage(message: ChatMessage): Promise<ChatMessage> {
    const again = this.failed.get(message.id)
    const outgoing = again ?? this.createMessage(message)
    try {
      const res = (await (again ? this.tim.resendMessage(again) : this.tim.sendMessage(outgoing))) as { data: { message: Message } }
      this.failed.delete(message.id)
      return this.toChatMessage(res.data.message) ?? { ...message, status: 'sendSuccess' }
    } catch (e) {
      this.failed.set(message.id, outgoing)
      throw errorOf(e, 'IM send failed')
    }
  }

  async setMessageRead(conversationID: string): Promise<void> {
    await this.tim.setMessageRead({ conversationID }).catch((e: unknown) => {
      throw errorOf(e, 'IM read mark failed')
    })
  }

  private createMessage(message: ChatMessage): Message {
    const { TYPES } = this.sdk
    const group = message.conversationID.startsWith(TYPES.CONV_GROUP)
    const options = {
      to: message.to,
      conversationType: group ? TYPES.CONV_GROUP : TYPES.CONV_C2C,
      cloudCustomData: JSON.stringify({ clientId: message.id, ...(message.description ? { description: message.description } : {}) } satisfies CloudData),
    }
    if (message.type === 'image') {
      // Tencent's image message uploads a local file; ours is uploaded already, so the custom message names its url
      const data: ImageData = { type: 'image', url: message.payload }
      return this.tim.createCustomMessage({ ...options, payload: { data: JSON.stringify(data), description: '', extension: IMAGE_SUMMARY } })
    }
    return this.tim.createTextMessage({ ...options, payload: { text: message.payload } })
  }

  private networkState(state: string | undefined): NetworkState | null {
    const { TYPES } = this.sdk
    if (state === TYPES.NET_STATE_CONNECTED) return 'connected'
    if (state === TYPES.NET_STATE_CONNECTING) return 'connecting'
    if (state === TYPES.NET_STATE_DISCONNECTED) return 'disconnected'
    return null
  }

  private status(status: string): ChatMessageStatus {
    if (status === 'unSend') return 'created'
    if (status === 'fail') return 'sendFail'
    return 'sendSuccess'
  }

  /**
   * text → text; image → image with the url of its biggest size; custom → our picture (see `createMessage`), else
   * text with its extension or data, its desc the description; other kinds → a placeholder text. The description is
   * the custom desc, else the one in cloudCustomData. Group tips and system notices are not chat and are dropped.
   */
  toChatMessage(m: Message): ChatMessage | null {
    const { TYPES } = this.sdk
    if (m.isDeleted || m.type === TYPES.MSG_GRP_TIP || m.type === TYPES.MSG_GRP_SYS_NOTICE) return null
    const cloud = readCloudData(m.cloudCustomData)
    const base = {
      id: cloud.clientId ?? m.ID,
      conversationID: m.conversationID,
      from: m.from,
      to: m.to,
      description: cloud.description ?? '',
      time: m.time * 1000,
      status: this.status(m.status),
    }
    if (m.isRevoked) return { ...base, type: 'text', payload: REVOKED_TEXT }
    const payload = (m.payload ?? {}) as Record<string, unknown>
    if (m.type === TYPES.MSG_TEXT) return { ...base, type: 'text', payload: String(payload.text ?? '') }
    if (m.type === TYPES.MSG_IMAGE) return { ...base, type: 'image', payload: largestImageUrl(payload as { imageInfoArray?: ImageInfo[] }) }
    if (m.type === TYPES.MSG_CUSTOM) {
      const image = readImageData(payload.data)
      if (image) return { ...base, type: 'image', payload: image.url }
      const data = typeof payload.data === 'string' ? payload.data : ''
      const desc = typeof payload.description === 'string' ? payload.description : ''
      // the desc may also come alone, as the custom data
      const description = desc || base.description || (isOrderDescription(data) ? data : '')
      const extension = typeof payload.extension === 'string' ? payload.extension : ''
      return { ...base, type: description === PRESCRIPTION_MESSAGE ? PRESCRIPTION_MESSAGE : 'text', payload: extension || data, description }
    }
    return { ...base, type: 'text', payload: UNSUPPORTED_TEXT }
  }

  private toConversations(list: Conversation[]): ChatConversation[] {
    return list.map((c) => this.toConversation(c)).filter((c): c is ChatConversation => c !== null)
  }

  /** C2C and group conversations (the system one is not a chat); the last message from Tencent's summary of it. */
  toConversation(c: Conversation): ChatConversation | null {
    const { TYPES } = this.sdk
    const { conversationID } = c
    let peer: string
    if (conversationID.startsWith(TYPES.CONV_C2C)) peer = c.userProfile?.userID || conversationID.slice(TYPES.CONV_C2C.length)
    else if (conversationID.startsWith(TYPES.CONV_GROUP)) peer = c.groupProfile?.groupID || conversationID.slice(TYPES.CONV_GROUP.length)
    else return null
    return { conversationID, peer, unreadCount: c.unreadCount ?? 0, lastMessage: this.lastMessageOf(c, peer) }
  }

  private lastMessageOf(c: Conversation, peer: string): ChatMessage | null {
    const last = c.lastMessage as
      | { lastTime?: number | string; lastSequence?: number | string; fromAccount?: string; messageForShow?: string; payload?: unknown; type?: string; isRevoked?: boolean; cloudCustomData?: string }
      | null
      | undefined
    if (!last?.lastTime) return null
    const from = String(last.fromAccount ?? '')
    const mapped = this.toChatMessage({
      // the summary has no message ID: the conversation and sequence name it
      ID: `${c.conversationID}-${last.lastSequence ?? ''}`,
      type: last.type,
      payload: last.payload,
      conversationID: c.conversationID,
      from,
      to: from === peer ? this.userID : peer,
      time: Number(last.lastTime),
      status: 'success',
      isRevoked: Boolean(last.isRevoked),
      isDeleted: false,
      cloudCustomData: last.cloudCustomData ?? '',
    } as Message)
    if (!mapped) return null
    // Tencent's own summary ("[语音]" ...) says more than our placeholder
    return mapped.payload === UNSUPPORTED_TEXT && last.messageForShow ? { ...mapped, payload: last.messageForShow } : mapped
  }
}
