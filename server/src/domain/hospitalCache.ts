/**
 * The hospitals this process has read, by code and by id: nearly every patient call names its hospital, and
 * hospitalByCode and hospitalById on the plain database read it from here (readHospitalsThrough, as the cache
 * starts). A hospital row changes a few times a year and is read on every start of the app: reading it again each
 * time was most of the home-page call's cost (issue 21). The rows kept are shared by every call, and frozen: a call that
 * changed one would change it for all the others.
 *
 * Rule: a kept row is trusted only while this process hears every change. The database announces each statement
 * that touches `hospitals` or `hospital_configs` on HOSPITAL_CHANNEL (migrations 0034 and 0035, triggers, so an
 * operator's own SQL counts too), and every process forgets all it kept: the rows and what was derived from a
 * hospital's settings (`kept`). While the listening connection is down nothing is kept or answered from here;
 * when it is back, what was kept before is forgotten. A row read while a change was announced is not kept.
 * Only the plain database is cached: a transaction reads its own rows.
 */
import type { Database } from '../db'
import { findHospitalByCode, findHospitalById, readHospitalsThrough, type HospitalRow, type KeptHospitals } from './hospital'

export const HOSPITAL_CHANNEL = 'hospital_changed'

/** `value` and everything in it frozen (a row's JSON settings are objects of their own). */
function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const inner of Object.values(value)) frozen(inner)
  }
  return value
}

export class HospitalCache implements KeptHospitals {
  private readonly rows = new Map<string, HospitalRow>()
  private readonly rowsById = new Map<number, HospitalRow>()
  private readonly derived = new Map<string, unknown>()
  /** Bumped by every announced change: a read that began before it may hold the old row. */
  private generation = 0
  private listening = false
  private stop: (() => Promise<void>) | null = null

  constructor(private readonly database: Database) {}

  async start(): Promise<void> {
    this.stop = await this.database.listen(
      HOSPITAL_CHANNEL,
      () => this.forget(),
      (listening) => {
        this.forget()
        this.listening = listening
      },
    )
    this.listening = true
    readHospitalsThrough(this.database.db, this)
  }

  async close(): Promise<void> {
    readHospitalsThrough(this.database.db, null)
    this.listening = false
    this.forget()
    await this.stop?.()
  }

  /** The hospital with this code, or null; as findHospitalByCode on the database. */
  byCode(code: string): Promise<HospitalRow | null> {
    return this.keep(this.rows, code, () => findHospitalByCode(this.database.db, code))
  }

  /** The hospital with this id, or null; as findHospitalById on the database. */
  byId(id: number): Promise<HospitalRow | null> {
    return this.keep(this.rowsById, id, () => findHospitalById(this.database.db, id))
  }

  private async keep<K>(rows: Map<K, HospitalRow>, key: K, read: () => Promise<HospitalRow | null>): Promise<HospitalRow | null> {
    if (!this.listening) return read()
    const kept = rows.get(key)
    if (kept) return kept
    const generation = this.generation
    const row = await read()
    if (row && this.listening && generation === this.generation) rows.set(key, frozen(row))
    return row
  }

  /**
   * What `read` answers for `key`, read from the hospitals and their settings only (a hospital's registration
   * settings): kept under the same rule as the rows, so a changed setting is read again at once.
   */
  async kept<T>(key: string, read: () => Promise<T>): Promise<T> {
    if (!this.listening) return read()
    if (this.derived.has(key)) return this.derived.get(key) as T
    const generation = this.generation
    const value = await read()
    if (this.listening && generation === this.generation) this.derived.set(key, value)
    return value
  }

  private forget() {
    this.generation++
    this.rows.clear()
    this.rowsById.clear()
    this.derived.clear()
  }
}
