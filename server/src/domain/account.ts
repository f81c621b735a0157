/**
 * A patient's rights over the account (个人信息保护法, PIPL arts. 45 and 47; the spec shows neither, this server adds
 * them under mine → 账号与隐私): a copy of everything the hospital holds about the account, and closing it.
 *
 * Both are proven by an SMS code sent to the account's own mobile (purposes 'export' and 'close'): a phone left
 * signed in must not hand out full identity numbers or end the account.
 *
 * Closing keeps what the law obliges the hospital to keep and makes it unreachable from the account:
 * - kept, unchanged: registrations, orders, payments, refunds and the ledger (accounting records), consultations,
 *   their medical records and chat (互联网诊疗监管细则: the records of a consultation are kept at least 15 years;
 *   medical records of outpatients likewise), insurance settlements, evaluations (made anonymous), the audit log; the
 *   patients those records name keep their name and identity number, since a record must say whose it is. Nothing is
 *   deleted automatically when a period ends: that is the hospital's decision under its own records policy.
 * - removed: the account's profile (nickname, avatar, mobile, declared real name and identity number, roles), the
 *   patients' own mobile numbers, escorts (陪护人), delivery addresses, followed doctors, message-centre notices, read
 *   marks, the own words of survey answers (their choices stay in the counts, no longer anyone's words), and the
 *   WeChat/Alipay nickname and avatar of every identity bound to it.
 * - unreachable: every identity is unbound (its sessions stay signed in as a WeChat/Alipay user with no account),
 *   the mobile is freed (binding it again makes a new, empty account), every patient is unbound and the chat
 *   signatures are revoked. The closed row keeps its id so that the kept records still join.
 *
 * An account with something still under way (a booking not yet seen, a consultation not finished, an order being
 * paid, money on its way back) cannot be closed: the patient is told what, so that nothing paid for is abandoned.
 */
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm'
import type { AccountClosure, AccountExport } from '../../../types/api/account'
import type { Db, Tx } from '../db'
import type { FieldCipher } from '../crypto'
import type { SmsProvider } from '../plugins/providers/sms'
import {
  accompanies,
  addresses,
  chatMessages,
  chatReads,
  departments,
  doctorFans,
  doctors,
  evaluations,
  files,
  gifts,
  hospitals,
  identities,
  inquiries,
  insuranceAuths,
  medicalRecords,
  orders,
  patientCards,
  patients,
  refunds,
  registrations,
  userMessages,
  surveyAnswers,
  userSuggestions,
  surveys,
  users,
} from '../db/schema'
import { conflict, unauthenticated } from '../errors'
import { maskMobile } from '@/utils/mask'
import { consumeSmsCode, createSmsCode } from './auth'
import { revokeChatSignatures } from './chat'
import { consentsOf } from './protocol'
import { DOCTOR_PREFIX, patientImAccount } from '@/utils/chatRules'
import { hospitalToday } from './register/rules'

/** What an account SMS code proves the holder wants. */
export type AccountCodePurpose = 'export' | 'close'

/** The mobile a closed account held is freed; the row keeps this marker in the unique blind-index column instead. */
const closedMarker = (userId: number) => `closed:${userId}`

async function liveUser(db: Db, userId: number) {
  const [user] = await db.select().from(users).where(eq(users.id, userId))
  if (!user || user.closedAt) throw unauthenticated()
  return user
}

/** Sends a code for `purpose` to the account's own mobile; answers it masked, and the code for tests to read. */
export async function sendAccountCode(db: Db, cipher: FieldCipher, sms: SmsProvider, userId: number, purpose: AccountCodePurpose) {
  const mobile = cipher.decrypt((await liveUser(db, userId)).mobileEnc)
  const code = await createSmsCode(db, cipher, mobile, purpose)
  await sms.sendCode(mobile, code)
  return { mobile: maskMobile(mobile), code }
}

/** What keeps the account from being closed now, in the patient's words; none means it can be closed. */
export async function closureBlockers(db: Db, userId: number, now = new Date()): Promise<string[]> {
  const today = hospitalToday(now)
  const [row] = await db
    .select({
      bookings: sql<number>`(select count(*) from ${registrations} where ${registrations.userId} = ${userId}
        and (${registrations.status} = 'holding' or (${registrations.status} = 'booked' and ${registrations.visitDate} >= ${today})))`.mapWith(Number),
      consultations: sql<number>`(select count(*) from ${inquiries} where ${inquiries.userId} = ${userId}
        and ${inquiries.status} in ('unpaid', 'waiting', 'inProgress'))`.mapWith(Number),
      paying: sql<number>`(select count(*) from ${orders} where ${orders.userId} = ${userId}
        and ${orders.status} in ('created', 'paying'))`.mapWith(Number),
      refunding: sql<number>`(select count(*) from ${orders} where ${orders.userId} = ${userId} and (${orders.status} = 'refunding'
        or exists (select 1 from ${refunds} where ${refunds.orderId} = ${orders.id} and ${refunds.status} = 'pending')))`.mapWith(Number),
    })
    .from(sql`(select 1) as one`)
  const blockers: string[] = []
  if (row?.bookings) blockers.push(`${row.bookings}个未就诊的挂号`)
  if (row?.consultations) blockers.push(`${row.consultations}个未结束的问诊`)
  if (row?.paying) blockers.push(`${row.paying}个待支付的订单`)
  if (row?.refunding) blockers.push(`${row.refunding}笔退款中的订单`)
  return blockers
}

/** The closing page's first look: where the code goes and what is still under way. */
export async function closureStatus(db: Db, cipher: FieldCipher, userId: number): Promise<AccountClosure> {
  const user = await liveUser(db, userId)
  return { mobile: maskMobile(cipher.decrypt(user.mobileEnc)), blockers: await closureBlockers(db, userId) }
}

export const closureRefusal = (blockers: string[]) => `您还有${blockers.join('、')}，请完成或取消后再注销账号`

/**
 * Closes the account (see the top of this file). The code is spent first, outside the transaction, so that a wrong
 * guess counts however the rest ends; the account row is locked so that two closings, or a closing and a change of
 * mobile, do not interleave.
 */
export async function closeAccount(
  db: Db,
  cipher: FieldCipher,
  userId: number,
  code: string,
  /** Writes the audit row in the closing transaction, with the patients the account had. */
  audit: (tx: Tx, patientIds: number[]) => Promise<void>,
  now = new Date(),
): Promise<void> {
  const user = await liveUser(db, userId)
  const blockers = await closureBlockers(db, userId, now)
  if (blockers.length) throw conflict(closureRefusal(blockers))
  await consumeSmsCode(db, cipher, cipher.decrypt(user.mobileEnc), code, 'close')
  return db.transaction(async (tx) => {
    const [locked] = await tx.select({ closedAt: users.closedAt }).from(users).where(eq(users.id, userId)).for('update')
    if (!locked || locked.closedAt) throw unauthenticated()
    // checked again: something that began since the first look keeps the account open. A booking committed while
    // this transaction runs is not seen; its hold then runs out unpaid (nobody can pay it), giving the place back.
    const late = await closureBlockers(tx, userId, now)
    if (late.length) throw conflict(closureRefusal(late))

    await tx
      .update(users)
      .set({ closedAt: now, nickname: '', avatar: '', mobileEnc: '', mobileIndex: closedMarker(userId), realNameEnc: null, idCardEnc: null, roles: [] })
      .where(eq(users.id, userId))
    await tx.update(identities).set({ userId: null, nickname: '', avatar: '' }).where(eq(identities.userId, userId))
    const owned = await tx.select({ id: patients.id }).from(patients).where(eq(patients.userId, userId))
    const patientIds = owned.map((p) => p.id)
    await tx.update(patients).set({ mobileEnc: null, isDefault: false, unboundAt: sql`coalesce(${patients.unboundAt}, ${now})` }).where(eq(patients.userId, userId))
    if (patientIds.length) {
      await tx
        .update(accompanies)
        .set({ nameEnc: '', idCardEnc: '', mobileEnc: '', personIndex: sql`'closed:' || ${accompanies.id}`, unboundAt: sql`coalesce(${accompanies.unboundAt}, ${now})` })
        .where(inArray(accompanies.patientId, patientIds))
    }
    await tx
      .update(addresses)
      .set({ nameEnc: '', mobileEnc: '', detailEnc: '', latitude: null, longitude: null, isDefault: false, deletedAt: sql`coalesce(${addresses.deletedAt}, ${now})` })
      .where(eq(addresses.userId, userId))
    await tx.update(evaluations).set({ anonymous: true }).where(eq(evaluations.userId, userId))
    await tx.delete(doctorFans).where(eq(doctorFans.userId, userId))
    await tx.delete(userMessages).where(eq(userMessages.userId, userId))
    await tx.update(surveyAnswers).set({ textsEnc: null }).where(eq(surveyAnswers.userId, userId))
    await tx.update(userSuggestions).set({ contentEnc: null, pictures: [] }).where(eq(userSuggestions.userId, userId))
    await tx.delete(chatReads).where(eq(chatReads.account, patientImAccount(userId)))
    await revokeChatSignatures(tx, patientImAccount(userId), now)
    await audit(tx, patientIds)
  })
}

const iso = (d: Date | null) => (d ? d.toISOString() : null)

function parsed(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * Everything the hospital holds about the account, readable (decrypted), for the holder to keep (PIPL art. 45):
 * the profile, patients with their cards, escorts, addresses, bookings, orders with refunds, consultations with
 * their medical records and chat, evaluations, gifts, followed doctors, notices, uploaded files, survey answers, consents
 * to the agreement and policy, and complaints with their answers. The code was
 * spent by the caller.
 */
export async function exportAccount(
  db: Db,
  cipher: FieldCipher,
  userId: number,
  code: string,
  now = new Date(),
): Promise<AccountExport & { /** for the audit log, not the file */ patientIds: number[] }> {
  const user = await liveUser(db, userId)
  await consumeSmsCode(db, cipher, cipher.decrypt(user.mobileEnc), code, 'export')
  const dec = (v: string | null) => (v ? cipher.decrypt(v) : '')
  const account = patientImAccount(userId)

  const ids = await db.select().from(identities).where(eq(identities.userId, userId)).orderBy(asc(identities.id))
  const pats = await db.select().from(patients).where(eq(patients.userId, userId)).orderBy(asc(patients.id))
  const patientIds = pats.map((p) => p.id)
  const cards = patientIds.length
    ? await db
        .select({ patientId: patientCards.patientId, cardNoEnc: patientCards.cardNoEnc, hospitalName: hospitals.name })
        .from(patientCards)
        .innerJoin(hospitals, eq(hospitals.id, patientCards.hospitalId))
        .where(inArray(patientCards.patientId, patientIds))
    : []
  const escorts = patientIds.length ? await db.select().from(accompanies).where(inArray(accompanies.patientId, patientIds)).orderBy(asc(accompanies.id)) : []
  const addrs = await db.select().from(addresses).where(eq(addresses.userId, userId)).orderBy(asc(addresses.id))
  const regs = await db
    .select({ r: registrations, hospitalName: hospitals.name, deptName: departments.name, doctorName: doctors.name })
    .from(registrations)
    .innerJoin(hospitals, eq(hospitals.id, registrations.hospitalId))
    .innerJoin(departments, eq(departments.id, registrations.deptId))
    .leftJoin(doctors, eq(doctors.id, registrations.doctorId))
    .where(eq(registrations.userId, userId))
    .orderBy(asc(registrations.id))
  const ords = await db
    .select({ o: orders, hospitalName: hospitals.name })
    .from(orders)
    .innerJoin(hospitals, eq(hospitals.id, orders.hospitalId))
    .where(eq(orders.userId, userId))
    .orderBy(asc(orders.id))
  const orderIds = ords.map((o) => o.o.id)
  const refs = orderIds.length ? await db.select().from(refunds).where(inArray(refunds.orderId, orderIds)).orderBy(asc(refunds.id)) : []
  const inqs = await db
    .select({ i: inquiries, doctorName: doctors.name })
    .from(inquiries)
    .innerJoin(doctors, eq(doctors.id, inquiries.doctorId))
    .where(eq(inquiries.userId, userId))
    .orderBy(asc(inquiries.id))
  const records = await db.select().from(medicalRecords).where(eq(medicalRecords.userId, userId))
  const chat = await db
    .select()
    .from(chatMessages)
    .where(or(eq(chatMessages.fromAccount, account), eq(chatMessages.toAccount, account)))
    .orderBy(asc(chatMessages.id))
  const doctorNames = new Map(
    (await db.select({ id: doctors.id, name: doctors.name }).from(doctors).where(inArray(doctors.id, [0, ...chatDoctorIds(chat, account)]))).map((d) => [
      `${DOCTOR_PREFIX}${d.id}`,
      d.name,
    ]),
  )
  const evals = await db.select().from(evaluations).where(eq(evaluations.userId, userId)).orderBy(asc(evaluations.id))
  const gs = await db.select().from(gifts).where(eq(gifts.userId, userId)).orderBy(asc(gifts.id))
  const follows = await db
    .select({ doctorName: doctors.name, at: doctorFans.createdAt })
    .from(doctorFans)
    .innerJoin(doctors, eq(doctors.id, doctorFans.doctorId))
    .where(eq(doctorFans.userId, userId))
  const notices = await db.select().from(userMessages).where(eq(userMessages.userId, userId)).orderBy(asc(userMessages.id))
  const answers = await db
    .select({ title: surveys.title, choices: surveyAnswers.choices, textsEnc: surveyAnswers.textsEnc, at: surveyAnswers.createdAt })
    .from(surveyAnswers)
    .innerJoin(surveys, eq(surveys.id, surveyAnswers.surveyId))
    .where(eq(surveyAnswers.userId, userId))
    .orderBy(asc(surveyAnswers.id))
  const feedback = await db
    .select({ s: userSuggestions, hospitalName: hospitals.name })
    .from(userSuggestions)
    .innerJoin(hospitals, eq(hospitals.id, userSuggestions.hospitalId))
    .where(eq(userSuggestions.userId, userId))
    .orderBy(asc(userSuggestions.id))
  const uploads = ids.length ? await db.select().from(files).where(inArray(files.identityId, ids.map((i) => i.id))).orderBy(asc(files.id)) : []
  const insured = patientIds.length
    ? await db
        .select({ patientId: insuranceAuths.patientId, createdAt: insuranceAuths.createdAt, expiresAt: insuranceAuths.expiresAt })
        .from(insuranceAuths)
        .where(and(eq(insuranceAuths.userId, userId), inArray(insuranceAuths.patientId, patientIds)))
    : []

  return {
    exportedAt: now.toISOString(),
    notice: '这是医院保存的与您账号有关的全部个人信息的副本，含完整的身份证号等敏感信息，请妥善保管，不要发给他人。金额单位为分。',
    account: {
      id: user.id,
      nickname: user.nickname,
      avatar: user.avatar,
      mobile: dec(user.mobileEnc),
      realName: dec(user.realNameEnc),
      idCard: dec(user.idCardEnc),
      createdAt: user.createdAt.toISOString(),
      boundIdentities: ids.map((i) => ({ provider: i.provider, nickname: i.nickname, avatar: i.avatar, createdAt: i.createdAt.toISOString() })),
    },
    patients: pats.map((p) => ({
      patientId: p.id,
      name: dec(p.nameEnc),
      idCard: dec(p.idCardEnc),
      mobile: dec(p.mobileEnc),
      sex: p.sex === 1 ? '男' : '女',
      birthday: p.birthday,
      relation: p.relation,
      guardianName: dec(p.guardianNameEnc),
      guardianIdCard: dec(p.guardianIdCardEnc),
      healthCard: dec(p.healthCardEnc),
      isDefault: p.isDefault,
      createdAt: p.createdAt.toISOString(),
      unboundAt: iso(p.unboundAt),
      cards: cards.filter((c) => c.patientId === p.id).map((c) => ({ hospitalName: c.hospitalName, cardNo: dec(c.cardNoEnc) })),
      insuranceAuthorisations: insured.filter((a) => a.patientId === p.id).map((a) => ({ createdAt: a.createdAt.toISOString(), expiresAt: a.expiresAt.toISOString() })),
    })),
    escorts: escorts.map((e) => ({
      patientId: e.patientId,
      name: dec(e.nameEnc),
      accompanyIdCard: dec(e.idCardEnc),
      mobile: dec(e.mobileEnc),
      relation: e.relation,
      createdAt: e.createdAt.toISOString(),
      unboundAt: iso(e.unboundAt),
    })),
    addresses: addrs.map((a) => ({
      name: dec(a.nameEnc),
      mobile: dec(a.mobileEnc),
      region: a.regionText,
      detail: dec(a.detailEnc),
      isDefault: a.isDefault,
      createdAt: a.createdAt.toISOString(),
      deletedAt: iso(a.deletedAt),
    })),
    registrations: regs.map(({ r, hospitalName, deptName, doctorName }) => ({
      regNo: r.regNo,
      patientId: r.patientId,
      hospitalName,
      deptName,
      doctorName: doctorName ?? '',
      visitDate: r.visitDate,
      timeRange: r.timeRange,
      feeFen: r.feeFen,
      insurance: r.insurance,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
      cancelledAt: iso(r.cancelledAt),
    })),
    orders: ords.map(({ o, hospitalName }) => ({
      orderNo: o.orderNo,
      hospitalName,
      business: o.business,
      subject: o.subject,
      amountFen: o.amountFen,
      insuranceFen: o.insuranceFen,
      status: o.status,
      channel: o.channel ?? '',
      createdAt: o.createdAt.toISOString(),
      paidAt: iso(o.paidAt),
      refunds: refs
        .filter((f) => f.orderId === o.id)
        .map((f) => ({ refundNo: f.refundNo, amountFen: f.amountFen, status: f.status, reason: f.reason, createdAt: f.createdAt.toISOString(), finishedAt: iso(f.finishedAt) })),
    })),
    consultations: inqs.map(({ i, doctorName }) => {
      const record = records.find((m) => m.inquiryId === i.id)
      return {
        inquiryNo: i.inquiryNo,
        patientId: i.patientId,
        doctorName,
        kind: i.kind,
        description: dec(i.descriptionEnc),
        pictures: i.pictures,
        intake: i.intakeEnc ? parsed(dec(i.intakeEnc)) : null,
        complaint: dec(i.complaintEnc),
        priceFen: i.priceFen,
        status: i.status,
        createdAt: i.createdAt.toISOString(),
        finishedAt: iso(i.finishedAt),
        medicalRecord: record ? { fields: parsed(dec(record.fieldsEnc)), diseaseCodes: record.diseaseCodes, updatedAt: record.updatedAt.toISOString() } : null,
      }
    }),
    chat: chat.map((m) => ({
      at: m.createdAt.toISOString(),
      from: m.fromAccount === account ? '我' : (doctorNames.get(m.fromAccount) ?? m.fromAccount),
      to: m.toAccount === account ? '我' : (doctorNames.get(m.toAccount) ?? m.toAccount),
      orderNo: m.orderNo ?? '',
      type: m.type,
      content: parsed(dec(m.payloadEnc)),
    })),
    evaluations: evals.map((e) => ({ score: e.score, tags: e.tags, content: e.content, anonymous: e.anonymous, createdAt: e.createdAt.toISOString() })),
    gifts: gs.map((g) => ({ giftNo: g.giftNo, giftCode: g.giftCode, priceFen: g.priceFen, message: g.message, status: g.status, createdAt: g.createdAt.toISOString() })),
    followedDoctors: follows.map((f) => ({ doctorName: f.doctorName, since: f.at.toISOString() })),
    messages: notices.map((n) => ({ title: n.title, content: n.content, createdAt: n.createdAt.toISOString(), readAt: iso(n.readAt) })),
    files: uploads.map((f) => ({ url: `/dld-file/files/${f.storedName}`, name: f.originalName, mime: f.mime, size: f.size, createdAt: f.createdAt.toISOString() })),
    surveys: answers.map((a) => ({ survey: a.title, choices: a.choices, words: a.textsEnc ? (JSON.parse(dec(a.textsEnc)) as unknown) : null, answeredAt: a.at.toISOString() })),
    consents: await consentsOf(db, userId),
    suggestions: feedback.map(({ s, hospitalName }) => ({
      hospitalName,
      kind: s.kind,
      content: dec(s.contentEnc),
      pictures: s.pictures,
      answer: s.answer,
      createdAt: s.createdAt.toISOString(),
      answeredAt: iso(s.answeredAt),
    })),
    patientIds,
  }
}

/** The doctors a patient's chat went to or came from (`d_<id>`). */
function chatDoctorIds(chat: { fromAccount: string; toAccount: string }[], own: string): number[] {
  const ids = new Set<number>()
  for (const m of chat) {
    const peer = m.fromAccount === own ? m.toAccount : m.fromAccount
    if (peer.startsWith(DOCTOR_PREFIX)) ids.add(Number(peer.slice(DOCTOR_PREFIX.length)))
  }
  return [...ids].filter(Number.isSafeInteger)
}
