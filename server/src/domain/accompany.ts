import { and, asc, count, eq, isNull } from 'drizzle-orm'
import type { Accompany, AccompanyInput, UpdateAccompanyInput } from '../../../types/api/patient'
import type { FieldCipher } from '../crypto'
import { uniqueViolation, type Db, type Tx } from '../db'
import { accompanies, patients } from '../db/schema'
import { badInput, conflict, forbidden } from '../errors'
import { isValidIdCard, parseIdCard } from '@/utils/idCard'
import { maskIdCard, maskMobile, maskName } from '@/utils/mask'
import { MAX_ESCORTS, RELATION_SELF, missingPatientFields } from './patientRules'
import { isKnownRelation, requireOwnPatient } from './patient'

/** An escort looks after an inpatient and signs for them on the ward: an adult by their own identity card. */
export const ESCORT_MIN_AGE = 18
/** spec §5 incomplete-information modal text. */
export const INCOMPLETE_PATIENT = '当前就诊人信息不完整，请先完善就诊人信息。'

type AccompanyRow = typeof accompanies.$inferSelect
type PatientRow = typeof patients.$inferSelect

function toAccompany(cipher: FieldCipher, row: AccompanyRow, masked: boolean): Accompany {
  const name = cipher.decrypt(row.nameEnc)
  const idCard = cipher.decrypt(row.idCardEnc)
  const mobile = cipher.decrypt(row.mobileEnc)
  return {
    id: row.id,
    patientId: row.patientId,
    name: masked ? maskName(name) : name,
    idCard: masked ? maskIdCard(idCard) : idCard,
    mobile: masked ? maskMobile(mobile) : mobile,
    relation: row.relation,
    createdAt: row.createdAt.toISOString(),
  }
}

const open = (sealed: string | null, cipher: FieldCipher) => (sealed ? cipher.decrypt(sealed) : null)

/** The patient's own identity number, when they have one, after checking they may have an escort at all. */
function requireCompletePatient(cipher: FieldCipher, patient: PatientRow): string | null {
  const idCard = open(patient.idCardEnc, cipher)
  const missing = missingPatientFields({
    name: open(patient.nameEnc, cipher),
    idCard,
    mobile: open(patient.mobileEnc, cipher),
    neonate: patient.source === 'neonate',
    guardianName: open(patient.guardianNameEnc, cipher),
    guardianIdCard: open(patient.guardianIdCardEnc, cipher),
  })
  if (missing.length) throw badInput(INCOMPLETE_PATIENT)
  return idCard
}

/** Relations an escort may have to the patient: the seeded 'relation' dictionary without 本人. */
async function requireEscortRelation(db: Db | Tx, relation: string) {
  if (relation === RELATION_SELF) throw badInput('陪护人不能是就诊人本人')
  if (!(await isKnownRelation(db, relation))) throw badInput('请选择陪护人与就诊人的关系')
}

/** The caller's own active escort of one of their bound patients, or 2999 with nothing revealed. */
async function requireOwnAccompany(db: Db | Tx, userId: number, id: number): Promise<AccompanyRow> {
  const [row] = await db
    .select({ accompany: accompanies })
    .from(accompanies)
    .innerJoin(patients, eq(patients.id, accompanies.patientId))
    .where(
      and(
        eq(accompanies.id, id),
        eq(accompanies.userId, userId),
        isNull(accompanies.unboundAt),
        eq(patients.userId, userId),
        isNull(patients.unboundAt),
      ),
    )
    .limit(1)
  if (!row) throw forbidden()
  return row.accompany
}

/**
 * Adds an escort to one of the caller's patients. The patient must be complete (spec §5); the escort an adult by a
 * valid identity number, not the patient themself, not already an escort of this patient, and within MAX_ESCORTS.
 */
export async function addAccompany(db: Db, cipher: FieldCipher, userId: number, input: AccompanyInput): Promise<Accompany> {
  const idCard = input.idCard.toUpperCase()
  try {
    return await db.transaction(async (tx) => {
      const patient = await requireOwnPatient(tx, userId, input.patientId)
      const patientIdCard = requireCompletePatient(cipher, patient)
      if (!isValidIdCard(idCard)) throw badInput('陪护人身份证号不正确')
      if ((parseIdCard(idCard)?.age ?? 0) < ESCORT_MIN_AGE) throw badInput(`陪护人须年满${ESCORT_MIN_AGE}周岁`)
      if (patientIdCard && patientIdCard.toUpperCase() === idCard) throw badInput('陪护人不能是就诊人本人')
      await requireEscortRelation(tx, input.relation)
      // one writer per patient at a time, so the limit holds on a PostgreSQL server too
      await tx.select({ id: patients.id }).from(patients).where(eq(patients.id, patient.id)).for('update')
      const current = and(eq(accompanies.patientId, patient.id), isNull(accompanies.unboundAt))
      const personIndex = cipher.blindIndex(idCard)
      const [same] = await tx
        .select({ id: accompanies.id })
        .from(accompanies)
        .where(and(current, eq(accompanies.personIndex, personIndex)))
        .limit(1)
      if (same) throw conflict('该陪护人已添加')
      const [row] = await tx.select({ n: count() }).from(accompanies).where(current)
      if ((row?.n ?? 0) >= MAX_ESCORTS) throw badInput(`每位就诊人最多添加${MAX_ESCORTS}位陪护人`)
      const [created] = await tx
        .insert(accompanies)
        .values({
          patientId: patient.id,
          userId,
          nameEnc: cipher.encrypt(input.name),
          idCardEnc: cipher.encrypt(idCard),
          personIndex,
          mobileEnc: cipher.encrypt(input.mobile),
          relation: input.relation,
        })
        .returning()
      return toAccompany(cipher, created!, false)
    })
  } catch (err) {
    if (uniqueViolation(err) === 'accompanies_person_key') throw conflict('该陪护人已添加')
    throw err
  }
}

/** Changes an escort's mobile and relation; name and identity number stay as bound. */
export async function updateAccompany(db: Db, cipher: FieldCipher, userId: number, input: UpdateAccompanyInput): Promise<Accompany> {
  await requireOwnAccompany(db, userId, input.id)
  await requireEscortRelation(db, input.relation)
  const [updated] = await db
    .update(accompanies)
    .set({ mobileEnc: cipher.encrypt(input.mobile), relation: input.relation })
    .where(and(eq(accompanies.id, input.id), isNull(accompanies.unboundAt)))
    .returning()
  if (!updated) throw forbidden()
  return toAccompany(cipher, updated, false)
}

/** One escort whole, for the edit page. */
export async function getAccompany(db: Db, cipher: FieldCipher, userId: number, id: number): Promise<Accompany> {
  return toAccompany(cipher, await requireOwnAccompany(db, userId, id), false)
}

/** A patient's active escorts, oldest first; names, identity numbers and mobiles masked (spec §9). */
export async function listAccompanies(db: Db, cipher: FieldCipher, userId: number, patientId: number): Promise<Accompany[]> {
  await requireOwnPatient(db, userId, patientId)
  const rows = await db
    .select()
    .from(accompanies)
    .where(and(eq(accompanies.patientId, patientId), isNull(accompanies.unboundAt)))
    .orderBy(asc(accompanies.createdAt), asc(accompanies.id))
  return rows.map((r) => toAccompany(cipher, r, true))
}

/** Unbinds an escort; the row stays for the passes that name it. */
export async function unbindAccompany(db: Db, userId: number, id: number): Promise<{ id: number }> {
  await requireOwnAccompany(db, userId, id)
  const [row] = await db
    .update(accompanies)
    .set({ unboundAt: new Date() })
    .where(and(eq(accompanies.id, id), isNull(accompanies.unboundAt)))
    .returning({ id: accompanies.id })
  if (!row) throw forbidden()
  return { id: row.id }
}
