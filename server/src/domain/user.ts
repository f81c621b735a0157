import { eq } from 'drizzle-orm'
import type { Db } from '../db'
import type { FieldCipher } from '../crypto'
import { identities, users } from '../db/schema'
import { badInput, unauthenticated } from '../errors'
import { isValidIdCard } from '@/utils/idCard'
import { maskIdCard, maskMobile, maskName } from '@/utils/mask'
import type { AuthContext } from './auth'
import { consentNeeded } from './protocol'

/** The signed-in person as the app sees them; id 0 until a mobile number is bound. */
export async function userInfo(db: Db, cipher: FieldCipher, auth: AuthContext) {
  const identity = await db.query.identities.findFirst({ where: eq(identities.id, auth.identityId) })
  if (!identity) throw unauthenticated()
  const user = auth.userId ? await db.query.users.findFirst({ where: eq(users.id, auth.userId) }) : undefined
  return {
    id: user?.id ?? 0,
    nickname: user?.nickname || identity.nickname || '',
    wechatAvatar: user?.avatar || identity.avatar || '',
    mobile: user ? maskMobile(cipher.decrypt(user.mobileEnc)) : '',
    roles: user?.roles ?? [],
    appId: auth.appId,
    provider: auth.provider,
    /** 实名认证 as the account holder declared it, masked; null until they have. */
    identity: user?.realNameEnc && user.idCardEnc ? declared(cipher.decrypt(user.realNameEnc), cipher.decrypt(user.idCardEnc)) : null,
    /** The platform's agreement or policy changed (or was never agreed to): the app asks before going on. */
    consentNeeded: await consentNeeded(db, user?.id ?? 0),
  }
}

/** A declared identity as it is ever answered: masked (spec §9). `verified`: the number passed the rules of spec §5. */
const declared = (name: string, idCard: string) => ({ name: maskName(name), idCard: maskIdCard(idCard), verified: isValidIdCard(idCard) })

export async function updateProfile(db: Db, userId: number, profile: { nickname: string; avatar: string }) {
  const [user] = await db.update(users).set(profile).where(eq(users.id, userId)).returning()
  if (!user) throw unauthenticated()
  return { id: user.id, nickname: user.nickname, wechatAvatar: user.avatar }
}

export async function rolesOf(db: Db, userId: number): Promise<string[]> {
  return (await db.query.users.findFirst({ where: eq(users.id, userId) }))?.roles ?? []
}

/**
 * Stores the account holder's own real name and identity number, encrypted (`/dld-user/user/modifyiIdentify`);
 * answers them masked (spec §9). `verified`: the number passed the identity-card rules (spec §5).
 */
export async function saveIdentity(db: Db, cipher: FieldCipher, userId: number, input: { name: string; idCard: string }) {
  const idCard = input.idCard.toUpperCase()
  if (!isValidIdCard(idCard)) throw badInput('身份证号码不正确')
  const [user] = await db
    .update(users)
    .set({ realNameEnc: cipher.encrypt(input.name), idCardEnc: cipher.encrypt(idCard) })
    .where(eq(users.id, userId))
    .returning({ id: users.id })
  if (!user) throw unauthenticated()
  return declared(input.name, idCard)
}
