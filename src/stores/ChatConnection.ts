import { action, computed, makeObservable, observable, runInAction } from 'mobx'
import * as im from '@/services/im'
import type { ChatDriver } from '@/services/chat/driver'
import { LocalChatDriver } from '@/services/chat/localDriver'
import { whenTimDriver } from '@/services/chat/timRegistry'
import { patientImAccount } from '@/utils/chatRules'
import { packNickname, type NicknameParts } from '@/utils/nickname'
import type { UserSig } from '../../types/api/auth'
import type { ChatEvents } from '../../types/api/chat'
import { ConsultationList } from './ConsultationList'

/** spec §9: re-login attempts stay under 5. */
export const RELOGIN_LIMIT = 5

/** A message sent before the driver is ready waits this long for it, then fails (and can be sent again). */
export const READY_WAIT_MS = 10_000

/** The IM profile: nick and avatar, plus the patient's sex, age and order type once a consultation knows them (spec §3). */
export type ChatProfile = { nick: string; avatar: string } & Partial<Omit<NicknameParts, 'nick'>>

/**
 * The chat connection of spec §3 and §4, over whichever driver is attached (our own chat service's, built in, or the
 * Tencent IM SDK's, which the internet pages that chat bring): the signature and login, logging in again, the network
 * state, and the consultation list with the IM unread counts (`conversations`). Without a driver it still holds the
 * signature and the server's list and counts.
 * The room (ChatStore) builds on it: `onReady` and `onMessages` are where it takes over.
 */
export class ChatConnection {
  userID = ''
  signature: UserSig | null = null
  /** the driver is logged in and has said it is ready */
  ready = false
  /** the driver's connection is up (its last network state); a ready driver may be reconnecting */
  connected = true
  readonly conversations = new ConsultationList({
    readyDriver: () => (this.ready ? this.driver : null),
    countsFromServer: () => this.signature !== null && this.driver === null,
  })

  protected driver: ChatDriver | null = null
  private profile: ChatProfile | null = null
  private reloginAttempts = 0
  private relogging = false
  /** Stops waiting for the Tencent IM driver (a signature said `tim` before a chat page brought it). */
  private stopWaitingForTim: (() => void) | null = null
  /** Sends waiting for the driver to be ready (each settles with whether it became ready in time). */
  private readonly readyWaiters = new Set<(ready: boolean) => void>()

  constructor(driver?: ChatDriver) {
    makeObservable<ChatConnection, 'driver' | 'profile' | 'listen' | 'handleReady' | 'handleLost' | 'handleNetworkState' | 'handleMessages' | 'handleConversationsUpdated' | 'login' | 'relogin' | 'pushProfile' | 'markConversationRead' | 'whenReady'>(
      this,
      {
        userID: observable,
        signature: observable,
        ready: observable,
        connected: observable,
        driver: observable.ref,
        profile: observable,
        online: computed,
        attach: action.bound,
        dispose: action.bound,
        requestSignature: action.bound,
        reset: action.bound,
        listen: action.bound,
        handleReady: action.bound,
        handleLost: action.bound,
        handleNetworkState: action.bound,
        handleMessages: action.bound,
        handleConversationsUpdated: action.bound,
        login: action.bound,
        relogin: action.bound,
        pushProfile: action.bound,
        markConversationRead: action.bound,
        whenReady: action.bound,
      },
      { autoBind: true },
    )
    if (driver) this.attach(driver)
  }

  /** Messages can go out now: the driver is ready and connected. */
  get online() {
    return this.ready && this.connected
  }

  /** Connects a driver; logs in at once when startup has already fetched the signature. */
  attach(driver: ChatDriver) {
    this.dispose()
    this.driver = driver
    this.listen(driver, 'on')
    if (this.signature) void this.login()
  }

  /** Drops the pending refresh and lets go of the driver, so nothing outlives the store. */
  dispose() {
    this.stopWaitingForTim?.()
    this.stopWaitingForTim = null
    this.conversations.stop()
    for (const settle of [...this.readyWaiters]) settle(false)
    if (this.driver) this.listen(this.driver, 'off')
    this.driver = null
    this.ready = false
  }

  /**
   * spec §2 startup: the signature of IM account 0_ + user id; with a driver attached, the login follows, and the
   * profile (packed nickname and avatar) is set once the driver is ready. The signature says which service: ours is
   * built in (attaching logs in); Tencent IM's driver attaches once a chat page has brought it, and until then the
   * unread counts are the server's.
   */
  async requestSignature(userId: number, profile?: ChatProfile) {
    const sig = await im.getUserSig(patientImAccount(userId))
    runInAction(() => {
      this.userID = sig.imAccount
      this.signature = sig
      if (profile) this.profile = profile
    })
    if (this.driver) await this.login()
    else if (sig.driver === 'local') this.attach(new LocalChatDriver())
    else if (sig.driver === 'tim') {
      this.attachTim(sig.sdkAppId)
      await this.conversations.refreshUnread()
    }
  }

  /** Signs out of chat: the user changed or signed out. */
  reset() {
    if (this.driver && this.ready) void this.driver.logout().catch((e) => console.warn('chat logout failed', e))
    this.stopWaitingForTim?.()
    this.stopWaitingForTim = null
    for (const settle of [...this.readyWaiters]) settle(false)
    this.ready = false
    this.userID = ''
    this.signature = null
    this.profile = null
    this.conversations.clear()
    this.onSignedOut()
  }

  /** The driver is ready (after login or a reconnect): the room takes over from here. */
  protected onReady() {}

  /** Signed out (reset): the room closes. */
  protected onSignedOut() {}

  /** Messages arrived; the room shows those of its chat. */
  protected onMessages(_messages: ChatEvents['messageReceived']) {}

  /** Everything of a conversation is read: at once in the lists, then on the service. */
  protected async markConversationRead(conversationID: string) {
    const driver = this.driver
    if (!driver) return
    this.conversations.markRead(conversationID)
    await driver.setMessageRead(conversationID).catch((e: unknown) => console.warn('chat read mark failed', e))
  }

  /**
   * Tencent IM's driver, when a chat page has brought it (at once if one has): the SDK lives with those pages (in the
   * mini-programs, in the internet subpackage). If the SDK cannot start, the store goes on without chat.
   */
  private attachTim(sdkAppId: number) {
    this.stopWaitingForTim?.()
    this.stopWaitingForTim = whenTimDriver((create) => {
      try {
        this.attach(create(sdkAppId))
      } catch (e) {
        console.warn('chat SDK not started', e)
      }
    })
  }

  private listen(driver: ChatDriver, method: 'on' | 'off') {
    driver[method]('ready', this.handleReady)
    driver[method]('kickedOut', this.handleLost)
    driver[method]('error', this.handleLost)
    driver[method]('networkStateChange', this.handleNetworkState)
    driver[method]('messageReceived', this.handleMessages)
    driver[method]('conversationListUpdated', this.handleConversationsUpdated)
  }

  private handleReady() {
    this.ready = true
    this.connected = true
    this.reloginAttempts = 0
    for (const settle of [...this.readyWaiters]) settle(true)
    void this.conversations.refresh()
    void this.pushProfile()
    this.onReady()
  }

  private handleLost(why: ChatEvents['kickedOut'] | ChatEvents['error']) {
    console.warn('chat lost, logging in again', why)
    this.ready = false
    void this.relogin()
  }

  /**
   * spec §4: network states do not log in again (the driver reconnects by itself); the store logs them and keeps
   * whether the connection is up, so the room says so and a message waits for it instead of failing at once.
   */
  private handleNetworkState({ state }: ChatEvents['networkStateChange']) {
    console.info('chat network', state)
    this.connected = state === 'connected'
    if (this.online) for (const settle of [...this.readyWaiters]) settle(true)
  }

  private handleMessages(messages: ChatEvents['messageReceived']) {
    this.onMessages(messages)
  }

  private handleConversationsUpdated() {
    this.conversations.scheduleRefresh()
  }

  private async login() {
    const { driver, signature } = this
    if (!driver || !signature) return
    try {
      await driver.login(signature.imAccount, signature.userSig)
    } catch (e) {
      console.warn('chat login failed', e)
      await this.relogin() // spec §8: a failed start logs in again
    }
  }

  /** spec §4: a fresh signature each time, fewer than 5 attempts until the driver is ready again. */
  private async relogin() {
    const driver = this.driver
    if (!driver || this.relogging || !this.userID) return
    this.relogging = true
    try {
      while (this.driver === driver && this.reloginAttempts < RELOGIN_LIMIT) {
        this.reloginAttempts += 1
        try {
          const sig = await im.getUserSig(this.userID)
          runInAction(() => {
            this.signature = sig
          })
          await driver.login(sig.imAccount, sig.userSig)
          return
        } catch (e) {
          console.warn(`chat re-login ${this.reloginAttempts} failed`, e)
        }
      }
    } finally {
      this.relogging = false
    }
  }

  private async pushProfile() {
    if (!this.driver || !this.profile) return
    const { nick, avatar, sex = '', age = '', orderType = '' } = this.profile
    try {
      await this.driver.updateProfile({ nick: packNickname({ nick, sex, age, orderType }), avatar })
    } catch (e) {
      console.warn('chat profile update failed', e)
    }
  }

  /** Resolves true once the driver is ready and connected, false when it is not within READY_WAIT_MS (or there is none). */
  protected whenReady(): Promise<boolean> {
    if (this.online) return Promise.resolve(true)
    if (!this.driver) return Promise.resolve(false)
    return new Promise((resolve) => {
      const settle = (ready: boolean) => {
        clearTimeout(timer)
        this.readyWaiters.delete(settle)
        resolve(ready)
      }
      const timer = setTimeout(() => settle(false), READY_WAIT_MS)
      this.readyWaiters.add(settle)
    })
  }

}
