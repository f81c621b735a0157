import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { and, asc, count, desc, eq, inArray, isNull, ne, type SQLWrapper } from 'drizzle-orm'
import type {
  BindHealthCardInput,
  BindNeonateInput,
  BindPatientInput,
  CompletePatientInput,
  HealthCardQrCode,
  HospitalCard,
  IdCardOcrResult,
  Patient,
  PatientDetail,
  PatientRecordInfo,
  UnbindPatientResult,
} from '../../../types/api/patient'
import type { Db, Tx } from '../db'
import { accompanies, dictItems, files, hospitals, patientCards, patients, users } from '../db/schema'
import { open, type FieldCipher } from '../crypto'
import { badInput, conflict, forbidden, notFound } from '../errors'
import type { OcrProvider } from '../plugins/providers/ocr'
import type { HealthCardProvider } from '../plugins/providers/healthCard'
import type { HisCardHolder, HisProvider } from '../plugins/providers/his'
import { isValidIdCard, parseIdCard } from '@/utils/idCard'
import { maskIdCard, maskMobile, maskName } from '@/utils/mask'
import { isMobile } from '@/utils/phoneCode'
import { consumeSmsCode } from './auth'
import { requireHospitalByCode } from './hospital'
import { UPLOADED_PICTURE } from './file'
import {
  GUARDIAN_MIN_AGE,
  MAX_PATIENTS,
  NEONATE_DEFAULT_RELATION,
  RELATION_SELF,
  ageOn,
  missingPatientFields,
  neonateBirthdayProblem,
  type PatientFacts,
} from './patientRules'

type PatientRow = typeof patients.$inferSelect
type HospitalRow = typeof hospitals.$inferSelect

/** spec §5: the exact text of the incomplete-information modal, also the answer when a flow needs a complete patient. */
export const INCOMPLETE_PATIENT = '当前就诊人信息不完整，请先完善就诊人信息。'
export const PATIENT_LIMIT_REACHED = `最多绑定${MAX_PATIENTS}位就诊人`
export const PATIENT_ALREADY_BOUND = '该就诊人已绑定'
export const SELF_ALREADY_BOUND = '已绑定“本人”，请选择其他关系'
export const NAME_ID_LOCKED = '姓名和身份证号不可修改'
export const OCR_UNREADABLE = '未能识别身份证，请拍摄身份证人像面'
/** SMS codes that prove a patient's mobile carry this purpose, apart from the account's own bind codes. */
export const PATIENT_SMS_PURPOSE = 'patient'

/**
 * The patient `patientId` if it is `userId`'s and still bound (a booking joins its own reads onto it; a prepared
 * statement passes placeholders).
 */
export const ownPatient = (userId: number | SQLWrapper, patientId: number | SQLWrapper) => and(eq(patients.id, patientId), eq(patients.userId, userId), isNull(patients.unboundAt))!

/**
 * The caller's own bound patient, or 2999 with nothing revealed (someone else's, unbound or missing look the same).
 * Every call that takes a patient id goes through here first.
 */
export async function requireOwnPatient(db: Db | Tx, userId: number, patientId: number) {
  const [row] = await db.select().from(patients).where(ownPatient(userId, patientId)).limit(1)
  if (!row) throw forbidden()
  return row
}

// ---- reading -------------------------------------------------------------------------------------------------


/** A patient whose information is complete, or the refusal the app answers with its completion modal (spec §5). */
export function requireCompletePatient(cipher: FieldCipher, patient: PatientRow): void {
  if (missingPatientFields(factsOf(patient, cipher)).length) throw badInput(INCOMPLETE_PATIENT)
}

function factsOf(row: PatientRow, cipher: FieldCipher): PatientFacts {
  return {
    name: open(cipher, row.nameEnc),
    idCard: open(cipher, row.idCardEnc),
    mobile: open(cipher, row.mobileEnc),
    neonate: row.source === 'neonate',
    guardianName: open(cipher, row.guardianNameEnc),
    guardianIdCard: open(cipher, row.guardianIdCardEnc),
  }
}

/** A patient as the app sees it; names, identity numbers and mobiles masked unless `whole` (spec §9). */
function toPatient(row: PatientRow, cipher: FieldCipher, hisMedCardNo: string, whole: true): PatientDetail
function toPatient(row: PatientRow, cipher: FieldCipher, hisMedCardNo: string, whole: false): Patient
function toPatient(row: PatientRow, cipher: FieldCipher, hisMedCardNo: string, whole: boolean): Patient | PatientDetail {
  const facts = factsOf(row, cipher)
  const missing = missingPatientFields(facts)
  const patient: Patient = {
    id: row.id,
    name: whole ? (facts.name ?? '') : maskName(facts.name),
    idCard: whole ? (facts.idCard ?? '') : maskIdCard(facts.idCard),
    mobile: whole ? (facts.mobile ?? '') : maskMobile(facts.mobile),
    sex: row.sex,
    sexText: row.sex === 1 ? '男' : '女',
    birthday: row.birthday,
    age: ageOn(row.birthday),
    relation: row.relation,
    source: row.source,
    neonate: facts.neonate,
    isDefault: row.isDefault,
    hisMedCardNo,
    complete: missing.length === 0,
    missing,
  }
  if (!whole) return patient
  return { ...patient, guardianName: facts.guardianName ?? '', guardianIdCard: facts.guardianIdCard ?? '' }
}

/** Card numbers of these patients at the hospital asked about (none when no hospital is asked about). */
async function cardNumbers(db: Db | Tx, cipher: FieldCipher, patientIds: number[], hospital: HospitalRow | null) {
  const numbers = new Map<number, string>()
  if (!hospital || patientIds.length === 0) return numbers
  const rows = await db
    .select()
    .from(patientCards)
    .where(and(eq(patientCards.hospitalId, hospital.id), inArray(patientCards.patientId, patientIds)))
  for (const r of rows) numbers.set(r.patientId, cipher.decrypt(r.cardNoEnc))
  return numbers
}

const hospitalOrNull = (db: Db, hospitalCode: string | undefined) => (hospitalCode ? requireHospitalByCode(db, hospitalCode) : Promise.resolve(null))

async function activePatients(db: Db | Tx, userId: number) {
  return db
    .select()
    .from(patients)
    .where(and(eq(patients.userId, userId), isNull(patients.unboundAt)))
    .orderBy(desc(patients.isDefault), asc(patients.createdAt), asc(patients.id))
}

/** The caller's bound patients, default first then oldest first, masked. */
export async function listPatients(db: Db, cipher: FieldCipher, userId: number, hospitalCode?: string): Promise<Patient[]> {
  const hospital = await hospitalOrNull(db, hospitalCode)
  const rows = await activePatients(db, userId)
  const cards = await cardNumbers(db, cipher, rows.map((r) => r.id), hospital)
  return rows.map((r) => toPatient(r, cipher, cards.get(r.id) ?? '', false))
}

/** One patient of the caller: masked (`whole` false) for a flow's checks, whole for the edit page. */
export async function getPatient(db: Db, cipher: FieldCipher, userId: number, patientId: number, hospitalCode: string | undefined, whole: true): Promise<PatientDetail>
export async function getPatient(db: Db, cipher: FieldCipher, userId: number, patientId: number, hospitalCode: string | undefined, whole: false): Promise<Patient>
export async function getPatient(db: Db, cipher: FieldCipher, userId: number, patientId: number, hospitalCode: string | undefined, whole: boolean) {
  const row = await requireOwnPatient(db, userId, patientId)
  const hospital = await hospitalOrNull(db, hospitalCode)
  const cards = await cardNumbers(db, cipher, [row.id], hospital)
  return whole ? toPatient(row, cipher, cards.get(row.id) ?? '', true) : toPatient(row, cipher, cards.get(row.id) ?? '', false)
}

export async function getDefaultPatient(db: Db, cipher: FieldCipher, userId: number, hospitalCode?: string): Promise<Patient | null> {
  const hospital = await hospitalOrNull(db, hospitalCode)
  const [row] = await db
    .select()
    .from(patients)
    .where(and(eq(patients.userId, userId), eq(patients.isDefault, true), isNull(patients.unboundAt)))
    .limit(1)
  if (!row) return null
  const cards = await cardNumbers(db, cipher, [row.id], hospital)
  return toPatient(row, cipher, cards.get(row.id) ?? '', false)
}

// ---- rules checked before and inside the write ----------------------------------------------------------------

/** Binding and unbinding for one account run one at a time: the limit and the one-default rule are counted under it. */
async function lockAccount(tx: Tx, userId: number) {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update')
}

/** Whether the relation is one of the seeded 'relation' dictionary's (patients' and escorts' alike). */
export async function isKnownRelation(db: Db | Tx, relation: string): Promise<boolean> {
  const [row] = await db
    .select({ id: dictItems.id })
    .from(dictItems)
    .where(and(eq(dictItems.type, 'relation'), eq(dictItems.label, relation)))
    .limit(1)
  return row !== undefined
}

async function requireRelation(db: Db | Tx, relation: string) {
  if (!(await isKnownRelation(db, relation))) throw badInput('与就诊人关系不正确')
}

interface NewPatientChecks {
  personIndex?: string
  relation: string
  /** The patient being edited, left out of the duplicate and 本人 checks. */
  exceptId?: number
  counting: boolean
}

/** The account's rules for a new or changed patient; run once before any code is spent and again under the lock. */
async function checkAccountRules(db: Db | Tx, userId: number, check: NewPatientChecks) {
  const mine = and(eq(patients.userId, userId), isNull(patients.unboundAt), check.exceptId ? ne(patients.id, check.exceptId) : undefined)
  if (check.counting) {
    const [row] = await db.select({ n: count() }).from(patients).where(mine)
    if ((row?.n ?? 0) >= MAX_PATIENTS) throw badInput(PATIENT_LIMIT_REACHED)
  }
  if (check.personIndex) {
    const [same] = await db.select({ id: patients.id }).from(patients).where(and(mine, eq(patients.personIndex, check.personIndex))).limit(1)
    if (same) throw conflict(PATIENT_ALREADY_BOUND)
  }
  if (check.relation === RELATION_SELF) {
    const [self] = await db.select({ id: patients.id }).from(patients).where(and(mine, eq(patients.relation, RELATION_SELF))).limit(1)
    if (self) throw conflict(SELF_ALREADY_BOUND)
  }
}

/** The unique indexes are the last line of defence; their violations read as the rule they stand for. */
function asRuleViolation(err: unknown): never {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') {
      if (e.constraint === 'patients_person_key') throw conflict(PATIENT_ALREADY_BOUND)
      if (e.constraint === 'patients_default_key') throw conflict('默认就诊人正在变更，请稍后重试')
      if (e.constraint === 'patient_cards_key') throw conflict('就诊卡正在办理，请稍后重试')
    }
  }
  throw err
}

async function clearDefault(tx: Tx, userId: number) {
  await tx
    .update(patients)
    .set({ isDefault: false })
    .where(and(eq(patients.userId, userId), eq(patients.isDefault, true), isNull(patients.unboundAt)))
}

// ---- filing at a hospital -------------------------------------------------------------------------------------

async function cardOf(tx: Db | Tx, patientId: number, hospitalId: number) {
  const [row] = await tx
    .select()
    .from(patientCards)
    .where(and(eq(patientCards.patientId, patientId), eq(patientCards.hospitalId, hospitalId)))
    .limit(1)
  return row ?? null
}

/** The patient as the HIS files a card for them: the identity number, or for a child without one the guardian's. */
function cardHolderOf(row: PatientRow, cipher: FieldCipher): HisCardHolder {
  const facts = factsOf(row, cipher)
  return {
    name: facts.name ?? '',
    idCard: facts.idCard,
    sex: row.sex,
    birthday: row.birthday,
    mobile: facts.mobile,
    guardianName: facts.guardianName,
    guardianIdCard: facts.guardianIdCard,
  }
}

/**
 * Files a complete patient at a hospital: the card number is the HIS's (found by identity number, or made by it), and
 * the app's card row is created once. Concurrent filings of one patient meet on the unique index.
 */
async function fileInTx(tx: Tx, cipher: FieldCipher, his: HisProvider, patient: PatientRow, hospital: HospitalRow): Promise<HospitalCard> {
  const answer = (cardNoEnc: string, existed: boolean): HospitalCard => ({
    patientId: patient.id,
    hospitalCode: hospital.code,
    hospitalName: hospital.name,
    hisMedCardNo: cipher.decrypt(cardNoEnc),
    existed,
  })
  const existing = await cardOf(tx, patient.id, hospital.id)
  if (existing) return answer(existing.cardNoEnc, true)
  requireCompletePatient(cipher, patient)
  const card = await his.fileCard(tx, { hospitalCode: hospital.code, patient: cardHolderOf(patient, cipher) })
  const [row] = await tx
    .insert(patientCards)
    .values({ patientId: patient.id, hospitalId: hospital.id, cardNoEnc: cipher.encrypt(card.cardNo) })
    .onConflictDoNothing({ target: [patientCards.patientId, patientCards.hospitalId] })
    .returning()
  // a card the HIS already had (filed at the window, or bound by another account) counts as existing
  if (row) return answer(row.cardNoEnc, card.existed)
  const raced = await cardOf(tx, patient.id, hospital.id)
  if (!raced) throw new Error('patient card insert conflicted but no card was found')
  return answer(raced.cardNoEnc, true)
}

/** GET /patient/hospital/patient/bind and /dld-hospital/autoRegister: the patient's card at a hospital, issued once. */
export async function fileAtHospital(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  userId: number,
  patientId: number,
  hospitalCode: string,
): Promise<HospitalCard> {
  await requireOwnPatient(db, userId, patientId)
  const hospital = await requireHospitalByCode(db, hospitalCode)
  try {
    return await db.transaction(async (tx) => fileInTx(tx, cipher, his, await requireOwnPatient(tx, userId, patientId), hospital))
  } catch (err) {
    return asRuleViolation(err)
  }
}

/**
 * The card of a patient the caller has just been checked to own (a booking has read the row): `known` when the caller
 * read the patient's card row with the patient (null: none), else one read; when the patient is not filed yet (rare:
 * nearly every booking's patient is), filed as fileAtHospital does.
 */
export async function cardAtHospital(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  patient: PatientRow,
  hospital: HospitalRow,
  known?: typeof patientCards.$inferSelect | null,
): Promise<HospitalCard> {
  const existing = known === undefined ? await cardOf(db, patient.id, hospital.id) : known
  if (existing) return { patientId: patient.id, hospitalCode: hospital.code, hospitalName: hospital.name, hisMedCardNo: cipher.decrypt(existing.cardNoEnc), existed: true }
  try {
    return await db.transaction(async (tx) => fileInTx(tx, cipher, his, patient, hospital))
  } catch (err) {
    return asRuleViolation(err)
  }
}

/**
 * GET /patient/record/info: the patient's card at the hospital. Not filed through the app yet: the card the HIS already
 * has for this person (made at the window), if any, which the next filing takes over.
 */
export async function patientRecordInfo(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  userId: number,
  patientId: number,
  hospitalCode: string,
): Promise<PatientRecordInfo> {
  const patient = await requireOwnPatient(db, userId, patientId)
  const hospital = await requireHospitalByCode(db, hospitalCode)
  const card = await cardOf(db, patientId, hospital.id)
  const known =
    card || his.kind === 'disabled' || missingPatientFields(factsOf(patient, cipher)).length
      ? null
      : await his.findCard({ hospitalCode: hospital.code, patient: cardHolderOf(patient, cipher) })
  return {
    patientId,
    hospitalCode: hospital.code,
    hospitalName: hospital.name,
    filed: !!card || !!known,
    hisMedCardNo: card ? cipher.decrypt(card.cardNoEnc) : (known ?? ''),
    filedAt: card ? card.createdAt.toISOString() : null,
  }
}

export const NO_HEALTH_CARD = '该就诊人未绑定电子健康卡'

/**
 * GET /jkt/photoUrl: the QR code of a patient's electronic health card (电子健康卡) at a hospital, as the health-card
 * platform draws it, for the hospital's scanners. Only for a patient of the caller's bound with a health card.
 */
export async function healthCardQr(
  db: Db,
  cipher: FieldCipher,
  provider: HealthCardProvider,
  userId: number,
  patientId: number,
  hospitalCode: string,
): Promise<HealthCardQrCode> {
  const patient = await requireOwnPatient(db, userId, patientId)
  const hospital = await requireHospitalByCode(db, hospitalCode)
  const healthCardId = open(cipher, patient.healthCardEnc)
  const idCard = open(cipher, patient.idCardEnc)
  if (!healthCardId || !idCard) throw badInput(NO_HEALTH_CARD)
  const qr = await provider.qrCode({ hospitalCode: hospital.code, healthCardId, idCard })
  return { patientId, url: qr.image, text: qr.text }
}

// ---- binding --------------------------------------------------------------------------------------------------

interface NewPatient {
  name: string
  idCard: string | null
  personIndex: string
  mobile: string | null
  sex: 1 | 2
  birthday: string
  relation: string
  source: PatientRow['source']
  guardianName?: string
  guardianIdCard?: string
  healthCardId?: string
  isDefault?: boolean
}

/**
 * The shared path of every bind: rules checked, then `verify` (spends the SMS or health code), then the insert under
 * the account lock with the rules checked again. The first patient, or one asked to be, becomes the default.
 */
async function addPatient(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  userId: number,
  p: NewPatient,
  hospital: HospitalRow | null,
  verify: () => Promise<void>,
): Promise<Patient> {
  const checks = { personIndex: p.personIndex, relation: p.relation, counting: true }
  await checkAccountRules(db, userId, checks)
  await verify()
  try {
    return await db.transaction(async (tx) => {
      await lockAccount(tx, userId)
      await checkAccountRules(tx, userId, checks)
      const [current] = await tx
        .select({ id: patients.id })
        .from(patients)
        .where(and(eq(patients.userId, userId), eq(patients.isDefault, true), isNull(patients.unboundAt)))
        .limit(1)
      const makeDefault = !current || !!p.isDefault
      // the old default is cleared before the new one is set: the partial unique index allows one at a time
      if (makeDefault && current) await clearDefault(tx, userId)
      const [row] = await tx
        .insert(patients)
        .values({
          userId,
          hospitalId: hospital?.id ?? null,
          nameEnc: cipher.encrypt(p.name),
          idCardEnc: p.idCard ? cipher.encrypt(p.idCard) : null,
          personIndex: p.personIndex,
          mobileEnc: p.mobile ? cipher.encrypt(p.mobile) : null,
          sex: p.sex,
          birthday: p.birthday,
          relation: p.relation,
          source: p.source,
          guardianNameEnc: p.guardianName ? cipher.encrypt(p.guardianName) : null,
          guardianIdCardEnc: p.guardianIdCard ? cipher.encrypt(p.guardianIdCard) : null,
          healthCardEnc: p.healthCardId ? cipher.encrypt(p.healthCardId) : null,
          isDefault: makeDefault,
        })
        .returning()
      if (!row) throw new Error('patient insert returned nothing')
      // filed at the hospital at once when asked and complete; an incomplete patient is filed after completion, and
      // without a HIS to file with, when one is there
      let hisMedCardNo = ''
      if (hospital && his.kind !== 'disabled' && missingPatientFields(factsOf(row, cipher)).length === 0) {
        hisMedCardNo = (await fileInTx(tx, cipher, his, row, hospital)).hisMedCardNo
      }
      return toPatient(row, cipher, hisMedCardNo, false)
    })
  } catch (err) {
    return asRuleViolation(err)
  }
}

/**
 * Proves the patient's mobile: the account's own mobile was verified when the account was bound and needs no second
 * code (a patient binding themself a minute later is not asked again); any other mobile needs its SMS code. Spent
 * outside the bind transaction, so a wrong guess is counted even though the bind fails (as bindMobile does).
 */
const spendSmsCode = (db: Db, cipher: FieldCipher, userId: number, mobile: string, code: string | undefined) => async () => {
  const [account] = await db.select({ mobileIndex: users.mobileIndex }).from(users).where(eq(users.id, userId))
  if (account?.mobileIndex === cipher.blindIndex(mobile)) return
  if (!code) throw badInput('请输入验证码')
  await consumeSmsCode(db, cipher, mobile, code, PATIENT_SMS_PURPOSE)
}

/** POST /patient/bind without id: by identity card, typed or read from a photo. Sex and birthday come from the number. */
export async function bindPatient(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: BindPatientInput): Promise<Patient> {
  await requireRelation(db, input.relation)
  const hospital = await hospitalOrNull(db, input.hospitalCode)
  const parsed = parseIdCard(input.idCard)
  if (!parsed) throw badInput('身份证号码不正确')
  return addPatient(
    db,
    cipher,
    his,
    userId,
    {
      name: input.name,
      idCard: input.idCard,
      personIndex: cipher.blindIndex(input.idCard),
      mobile: input.mobile,
      sex: parsed.sex,
      birthday: parsed.birthday,
      relation: input.relation,
      source: input.source ?? 'idCard',
      isDefault: input.isDefault,
    },
    hospital,
    spendSmsCode(db, cipher, userId, input.mobile, input.code),
  )
}

/** The blind index of a child bound without an identity card: guardian, name and birth date together. */
export const neonatePersonIndex = (cipher: FieldCipher, guardianIdCard: string, name: string, birthday: string) =>
  cipher.blindIndex(`neonate:${guardianIdCard}:${name}:${birthday}`)

function checkGuardian(guardianIdCard: string) {
  const guardian = parseIdCard(guardianIdCard)
  if (!guardian || !isValidIdCard(guardianIdCard)) throw badInput('监护人身份证号码不正确')
  if (guardian.age < GUARDIAN_MIN_AGE) throw badInput(`监护人须年满${GUARDIAN_MIN_AGE}周岁`)
}

/** POST /patient/bind/neonate: a young child without an identity card, under an adult guardian. */
export async function bindNeonate(db: Db, cipher: FieldCipher, his: HisProvider, userId: number, input: BindNeonateInput): Promise<Patient> {
  const relation = input.relation || NEONATE_DEFAULT_RELATION
  if (relation === RELATION_SELF) throw badInput('儿童就诊人不能选择“本人”')
  await requireRelation(db, relation)
  const problem = neonateBirthdayProblem(input.birthday)
  if (problem) throw badInput(problem)
  checkGuardian(input.guardianIdCard)
  const hospital = await hospitalOrNull(db, input.hospitalCode)
  return addPatient(
    db,
    cipher,
    his,
    userId,
    {
      name: input.name,
      idCard: null,
      personIndex: neonatePersonIndex(cipher, input.guardianIdCard, input.name, input.birthday),
      mobile: input.mobile,
      sex: input.sex,
      birthday: input.birthday,
      relation,
      source: 'neonate',
      guardianName: input.guardianName,
      guardianIdCard: input.guardianIdCard,
      isDefault: input.isDefault,
    },
    hospital,
    spendSmsCode(db, cipher, userId, input.mobile, input.code),
  )
}

/**
 * POST /patient/bind/eHealth: the health-card provider vouches for the person, so no SMS code; a card without a
 * mobile gives an incomplete patient.
 */
export async function bindHealthCard(
  db: Db,
  cipher: FieldCipher,
  his: HisProvider,
  provider: HealthCardProvider,
  userId: number,
  input: BindHealthCardInput,
): Promise<Patient> {
  await requireRelation(db, input.relation)
  const hospital = await hospitalOrNull(db, input.hospitalCode)
  // the limit needs no card: refuse before the one-time code is spent
  await checkAccountRules(db, userId, { relation: input.relation, counting: true })
  const holder = await provider.redeem(input.healthCode)
  const idCard = holder.idCard.trim().toUpperCase()
  const parsed = parseIdCard(idCard)
  if (!parsed || !isValidIdCard(idCard) || !holder.name.trim()) throw badInput('健康卡信息不完整，请使用身份证绑定')
  return addPatient(
    db,
    cipher,
    his,
    userId,
    {
      name: holder.name.trim(),
      idCard,
      personIndex: cipher.blindIndex(idCard),
      mobile: isMobile(holder.mobile) ? holder.mobile : null,
      sex: parsed.sex,
      birthday: parsed.birthday,
      relation: input.relation,
      source: 'eHealth',
      healthCardId: holder.healthCardId,
      isDefault: input.isDefault,
    },
    hospital,
    async () => undefined,
  )
}

/**
 * POST /patient/bind with id: completes or edits a bound patient. Name and identity number are filled only where
 * missing; a changed mobile needs its SMS code; the relation may change; a child's guardian may be set or changed.
 * Answers the patient whole, as the edit page shows it.
 */
export async function completePatient(db: Db, cipher: FieldCipher, userId: number, input: CompletePatientInput): Promise<PatientDetail> {
  const row = await requireOwnPatient(db, userId, input.id)
  const facts = factsOf(row, cipher)
  const neonate = row.source === 'neonate'
  const changes: Partial<typeof patients.$inferInsert> = {}
  let personIndex: string | undefined

  const name = input.name || undefined
  if (name !== undefined && name !== facts.name) {
    if (facts.name) throw badInput(NAME_ID_LOCKED)
    changes.nameEnc = cipher.encrypt(name)
  }
  const idCard = input.idCard || undefined
  if (idCard !== undefined && idCard !== facts.idCard) {
    if (facts.idCard) throw badInput(NAME_ID_LOCKED)
    const parsed = parseIdCard(idCard)
    if (!parsed) throw badInput('身份证号码不正确')
    // a child who now has a card: the number decides sex and birth date, and who the person is
    changes.idCardEnc = cipher.encrypt(idCard)
    changes.sex = parsed.sex
    changes.birthday = parsed.birthday
    personIndex = cipher.blindIndex(idCard)
  }

  const guardianName = input.guardianName || undefined
  const guardianIdCard = input.guardianIdCard || undefined
  if (!neonate && (guardianName || guardianIdCard)) throw badInput('仅无身份证的儿童需要填写监护人信息')
  if (guardianName !== undefined && guardianName !== facts.guardianName) changes.guardianNameEnc = cipher.encrypt(guardianName)
  if (guardianIdCard !== undefined && guardianIdCard !== facts.guardianIdCard) {
    checkGuardian(guardianIdCard)
    changes.guardianIdCardEnc = cipher.encrypt(guardianIdCard)
    if (!facts.idCard && !personIndex) personIndex = neonatePersonIndex(cipher, guardianIdCard, name ?? facts.name ?? '', row.birthday)
  }

  const relation = input.relation || row.relation
  if (relation !== row.relation) {
    if (neonate && relation === RELATION_SELF) throw badInput('儿童就诊人不能选择“本人”')
    await requireRelation(db, relation)
    changes.relation = relation
  }

  const mobile = input.mobile || undefined
  const mobileChanged = mobile !== undefined && mobile !== facts.mobile
  if (mobileChanged) changes.mobileEnc = cipher.encrypt(mobile)
  if (personIndex) changes.personIndex = personIndex

  if (Object.keys(changes).length > 0) {
    const checks = { personIndex, relation: changes.relation ?? '', exceptId: row.id, counting: false }
    await checkAccountRules(db, userId, checks)
    if (mobileChanged) await spendSmsCode(db, cipher, userId, mobile, input.code)()
    try {
      await db.transaction(async (tx) => {
        await lockAccount(tx, userId)
        await requireOwnPatient(tx, userId, row.id)
        await checkAccountRules(tx, userId, checks)
        await tx.update(patients).set(changes).where(eq(patients.id, row.id))
      })
    } catch (err) {
      asRuleViolation(err)
    }
  }
  return getPatient(db, cipher, userId, row.id, undefined, true)
}

// ---- default and unbinding ------------------------------------------------------------------------------------

/** POST /patient/default/:id: exactly one default at all times; the old one is cleared first. */
export async function setDefaultPatient(db: Db, cipher: FieldCipher, userId: number, patientId: number, hospitalCode?: string): Promise<Patient> {
  await requireOwnPatient(db, userId, patientId)
  const hospital = await hospitalOrNull(db, hospitalCode)
  try {
    await db.transaction(async (tx) => {
      await lockAccount(tx, userId)
      const row = await requireOwnPatient(tx, userId, patientId)
      if (row.isDefault) return
      await clearDefault(tx, userId)
      await tx.update(patients).set({ isDefault: true }).where(eq(patients.id, patientId))
    })
  } catch (err) {
    asRuleViolation(err)
  }
  const row = await requireOwnPatient(db, userId, patientId)
  const cards = await cardNumbers(db, cipher, [row.id], hospital)
  return toPatient(row, cipher, cards.get(row.id) ?? '', false)
}

/**
 * POST /patient/unbind/:id: the row stays for the records that name it. The patient's escorts go with it; when it was
 * the default, the oldest remaining patient becomes the default.
 */
export async function unbindPatient(db: Db, userId: number, patientId: number): Promise<UnbindPatientResult> {
  await requireOwnPatient(db, userId, patientId)
  try {
    return await db.transaction(async (tx) => {
      await lockAccount(tx, userId)
      const row = await requireOwnPatient(tx, userId, patientId)
      const now = new Date()
      await tx.update(patients).set({ unboundAt: now, isDefault: false }).where(eq(patients.id, row.id))
      await tx
        .update(accompanies)
        .set({ unboundAt: now })
        .where(and(eq(accompanies.patientId, row.id), isNull(accompanies.unboundAt)))
      if (!row.isDefault) return { defaultPatientId: null }
      const [next] = await tx
        .select({ id: patients.id })
        .from(patients)
        .where(and(eq(patients.userId, userId), isNull(patients.unboundAt)))
        .orderBy(asc(patients.createdAt), asc(patients.id))
        .limit(1)
      if (!next) return { defaultPatientId: null }
      await tx.update(patients).set({ isDefault: true }).where(eq(patients.id, next.id))
      return { defaultPatientId: next.id }
    })
  } catch (err) {
    return asRuleViolation(err)
  }
}

// ---- identity-card photo and health-card authorisation ---------------------------------------------------------

/**
 * POST /patient/hospital/patient/ocr: reads an identity card off a picture the caller's own identity uploaded
 * (anyone else's upload answers 2999).
 */
export async function readIdCardPhoto(db: Db, ocr: OcrProvider, uploadDir: string, identityId: number, url: string): Promise<IdCardOcrResult> {
  const storedName = UPLOADED_PICTURE.exec(url)?.[1]
  if (!storedName) throw badInput('请先上传身份证照片')
  const [file] = await db
    .select({ storedName: files.storedName })
    .from(files)
    .where(and(eq(files.storedName, storedName), eq(files.identityId, identityId)))
    .limit(1)
  if (!file) throw forbidden()
  const bytes = await readFile(join(uploadDir, file.storedName)).catch(() => null)
  if (!bytes) throw notFound('文件')
  const result = await ocr.readIdCard(bytes)
  if (!result) throw badInput(OCR_UNREADABLE)
  return result
}

/** POST /thirdParty/tencent-EHealth/refreshUrl: where to send the browser to choose a health card. */
export async function healthCardAuthorizeUrl(db: Db, provider: HealthCardProvider, input: { hospitalCode: string; redirect: string }) {
  await requireHospitalByCode(db, input.hospitalCode)
  return { url: await provider.authorizeUrl(input) }
}
