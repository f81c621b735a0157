/**
 * Gifts to doctors (心意, spec §1 gifts to doctors; §2 /internet/tim/gift; §7 Internet hospital → Evaluation and
 * gifts): a patient picks one of the catalogue's gifts for an online doctor, optionally for one of their consultations,
 * and pays it through the payment core (business 'gift'). The gift is created unpaid with its order in one
 * transaction; the order's payment makes it paid (and tells the patient in the message centre), the order's closing
 * closes it. A doctor's page lists the paid gifts.
 */
import { and, desc, eq, sql } from 'drizzle-orm'
import type { Gift, GiftInput, GiftItem, GiftPayment, ReceivedGift } from '../../../types/api/evaluation'
import type { Page } from '../../../types/api/hospital'
import { maskName } from '@/utils/mask'
import { fenToYuan } from '@/utils/number'
import type { Db, Tx } from '../db'
import { open, type FieldCipher } from '../crypto'
import { doctors, gifts, inquiries, onlineDoctors, orders, patients, users } from '../db/schema'
import { badInput, conflict, notFound } from '../errors'
import type { AuthContext } from './auth'
import { requireOwnInquiry } from './inquiry'
import { DUPLICATE_REQUEST, answerSameKeyRace, answerWithMadeMeanwhile, createOrder, isReturnUrl, startPayment, type OrderHandlers } from './payment'
import type { PayProvidersOf } from '../plugins/providers'
import { newBusinessNo } from './payment/orders'
import { addUserMessage } from './userMessage'
import { GIFT_MESSAGE_MAX as MESSAGE_MAX, GIFT_PAY_MINUTES as PAY_MINUTES } from '@/utils/internetRules'

/** The catalogue (amounts in fen). */
export const GIFTS: readonly GiftItem[] = [
  { code: 'flower', name: '鲜花', priceFen: 100 },
  { code: 'tea', name: '暖心茶', priceFen: 660 },
  { code: 'letter', name: '感谢信', priceFen: 990 },
  { code: 'banner', name: '锦旗', priceFen: 6600 },
]
export { MESSAGE_MAX, PAY_MINUTES }
export const MAX_PAGE_SIZE = 50
export const ANONYMOUS_NAME = '匿名用户'

export const UNKNOWN_GIFT = '请选择要送出的心意'
export const OTHER_DOCTOR = '该问诊不是与这位医生的问诊'
export const GIFT_GONE = '心意已失效，费用将原路退回'
export const NOTICE_GIFT_PAID = '心意已送达'

type GiftRow = typeof gifts.$inferSelect

const giftOf = (code: string) => GIFTS.find((g) => g.code === code)

/** POST /im/gift/gifts. */
export function giftCatalogue(): GiftItem[] {
  return GIFTS.map((g) => ({ ...g }))
}

/** G + date + 12 random digits, like every business number here. */
const newGiftNo = (now: Date) => newBusinessNo('G', now)

async function giftView(db: Db | Tx, id: number): Promise<Gift> {
  const [row] = await db
    .select({ gift: gifts, doctorName: doctors.name, orderNo: orders.orderNo })
    .from(gifts)
    .innerJoin(doctors, eq(doctors.id, gifts.doctorId))
    .leftJoin(orders, eq(orders.id, gifts.orderId))
    .where(eq(gifts.id, id))
  if (!row) throw notFound('心意')
  const { gift } = row
  return {
    id: gift.id,
    giftNo: gift.giftNo,
    doctorId: gift.doctorId,
    doctorName: row.doctorName,
    inquiryId: gift.inquiryId,
    giftCode: gift.giftCode,
    giftName: giftOf(gift.giftCode)?.name ?? gift.giftCode,
    priceFen: gift.priceFen,
    message: gift.message,
    status: gift.status,
    orderNo: row.orderNo ?? null,
    paidAt: gift.paidAt?.toISOString() ?? null,
    createdAt: gift.createdAt.toISOString(),
  }
}

/** The same attempt again (same key): its gift, or 409 when the key was used for another gift. */
async function byIdempotencyKey(db: Db, userId: number, input: GiftInput): Promise<GiftRow | null> {
  const [row] = await db
    .select()
    .from(gifts)
    .where(and(eq(gifts.userId, userId), eq(gifts.idempotencyKey, input.idempotencyKey)))
    .limit(1)
  if (!row) return null
  if (row.doctorId !== input.doctorId || row.giftCode !== input.giftCode || row.inquiryId !== (input.inquiryId ?? null)) throw conflict(DUPLICATE_REQUEST)
  return row
}

/** The gift and, while it is unpaid, how to pay it (the payment core's action). */
async function answer(db: Db, providers: PayProvidersOf, caller: AuthContext, id: number, returnUrl: string): Promise<GiftPayment> {
  const gift = await giftView(db, id)
  const pay = gift.status === 'unpaid' && gift.orderNo ? await startPayment(db, providers, caller, { orderNo: gift.orderNo, returnUrl }) : null
  return { gift, pay }
}

/**
 * POST /im/gift/toPay. The consultation named must be the caller's own (2999) and with that doctor; then in ONE
 * transaction the gift (unpaid, at the catalogue's price) and its payment order (business 'gift', the idempotency key
 * from the input). The same key answers the same gift, and how to pay it while it is unpaid.
 */
export async function giftToPay(
  db: Db,
  providers: PayProvidersOf,
  caller: AuthContext & { userId: number },
  input: GiftInput,
  now: Date,
): Promise<GiftPayment> {
  const userId = caller.userId
  if (input.inquiryId !== undefined) {
    const inq = await requireOwnInquiry(db, userId, input.inquiryId)
    if (inq.doctorId !== input.doctorId) throw badInput(OTHER_DOCTOR)
  }
  if (!isReturnUrl(input.returnUrl)) throw badInput('返回页面不正确')
  const item = giftOf(input.giftCode)
  if (!item) throw badInput(UNKNOWN_GIFT)
  const message = input.message.trim()
  if (message.length > MESSAGE_MAX) throw badInput(`留言不能超过${MESSAGE_MAX}个字`)
  const again = await byIdempotencyKey(db, userId, input)
  if (again) return answer(db, providers, caller, again.id, input.returnUrl)
  const [doctor] = await db
    .select({ hospitalId: onlineDoctors.hospitalId, name: doctors.name })
    .from(onlineDoctors)
    .innerJoin(doctors, eq(doctors.id, onlineDoctors.doctorId))
    .where(eq(onlineDoctors.doctorId, input.doctorId))
  if (!doctor) throw notFound('医生')

  const madeMeanwhile = answerWithMadeMeanwhile(async () => {
    const made = await byIdempotencyKey(db, userId, input)
    return made ? answer(db, providers, caller, made.id, input.returnUrl) : null
  })
  let id: number
  try {
    id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(gifts)
        .values({
          giftNo: newGiftNo(now),
          userId,
          doctorId: input.doctorId,
          inquiryId: input.inquiryId ?? null,
          giftCode: item.code,
          priceFen: item.priceFen,
          message,
          status: 'unpaid',
          idempotencyKey: input.idempotencyKey,
          createdAt: now,
        })
        .returning()
      const order = await createOrder(tx, {
        userId,
        hospitalId: doctor.hospitalId,
        business: 'gift',
        businessId: row!.id,
        subject: `心意·${item.name} ${doctor.name}`.slice(0, 64),
        amountFen: item.priceFen,
        // closing the order closes the gift (onClosed)
        expiresAt: new Date(now.getTime() + PAY_MINUTES * 60_000),
        idempotencyKey: `gift:${input.idempotencyKey}`,
      })
      await tx.update(gifts).set({ orderId: order.id }).where(eq(gifts.id, row!.id))
      return row!.id
    })
  } catch (err) {
    return answerSameKeyRace(err, 'gifts_idempotency_key', DUPLICATE_REQUEST, madeMeanwhile)
  }
  return answer(db, providers, caller, id, input.returnUrl)
}

/**
 * POST /im/gift/doctor/gifts: a doctor's received (paid) gifts, the latest paid first. The sender is named by the
 * consultation's patient, else the account's nickname, masked either way (spec §9); 匿名用户 when neither is known.
 */
export async function doctorGifts(db: Db, cipher: FieldCipher, input: { doctorId: number; page: number; size: number }): Promise<Page<ReceivedGift>> {
  const [doctor] = await db.select({ id: onlineDoctors.doctorId }).from(onlineDoctors).where(eq(onlineDoctors.doctorId, input.doctorId))
  if (!doctor) throw notFound('医生')
  const size = Math.min(input.size, MAX_PAGE_SIZE)
  const where = and(eq(gifts.doctorId, input.doctorId), eq(gifts.status, 'paid'))
  const [rows, [total]] = await Promise.all([
    db
      .select({ gift: gifts, patientNameEnc: patients.nameEnc, nickname: users.nickname })
      .from(gifts)
      .innerJoin(users, eq(users.id, gifts.userId))
      .leftJoin(inquiries, eq(inquiries.id, gifts.inquiryId))
      .leftJoin(patients, eq(patients.id, inquiries.patientId))
      .where(where)
      .orderBy(desc(gifts.paidAt), desc(gifts.id))
      .limit(size)
      .offset((input.page - 1) * size),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(gifts)
      .where(where),
  ])
  return {
    records: rows.map(({ gift, patientNameEnc, nickname }) => ({
      id: gift.id,
      giftCode: gift.giftCode,
      giftName: giftOf(gift.giftCode)?.name ?? gift.giftCode,
      senderName: maskName(open(cipher, patientNameEnc) ?? nickname) || ANONYMOUS_NAME,
      message: gift.message,
      paidAt: (gift.paidAt ?? gift.createdAt).toISOString(),
    })),
    total: total?.n ?? 0,
    page: input.page,
    size,
  }
}

/** What the payment core calls when a gift's order changes (inside the transaction that changes it). */
export const giftOrderHandlers: OrderHandlers = {
  async onPaid(tx, order) {
    const paidAt = order.paidAt ?? new Date()
    const [row] = await tx
      .update(gifts)
      .set({ status: 'paid', paidAt })
      .where(and(eq(gifts.id, order.businessId), eq(gifts.orderId, order.id), eq(gifts.status, 'unpaid')))
      .returning()
    // the gift is gone: the payment core refunds on a business error
    if (!row) throw badInput(GIFT_GONE)
    const [doc] = await tx.select({ name: doctors.name }).from(doctors).where(eq(doctors.id, row.doctorId))
    const name = giftOf(row.giftCode)?.name ?? row.giftCode
    await addUserMessage(
      tx,
      {
        userId: row.userId,
        kind: 'payment',
        title: NOTICE_GIFT_PAID,
        content: `您送给${doc?.name ?? ''}医生的${name}（¥${fenToYuan(row.priceFen)}）已支付成功，感谢您的心意`,
        link: `/internet/doctor/index?id=${row.doctorId}`,
      },
      paidAt,
    )
  },
  async onClosed(tx, order) {
    await tx
      .update(gifts)
      .set({ status: 'closed' })
      .where(and(eq(gifts.id, order.businessId), eq(gifts.orderId, order.id), eq(gifts.status, 'unpaid')))
  },
}
