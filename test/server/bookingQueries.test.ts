import { after, before, it } from 'node:test'
import assert from 'node:assert/strict'
import { and, eq, gt, isNull } from 'drizzle-orm'
import { hospitals, scheduleSlots, schedules } from '../../server/src/db/schema'
import { queriesOf } from '../../server/src/db'
import { startTestApp, signInUser, envelopeOf, randomIp, type TestApp } from './harness'
import { addPatient, newKey } from './fixtures'

/**
 * The work one booking does, counted in statements sent to the database: a rule about work, not time (the booking
 * benchmark's throughput follows from it). It fails when someone adds a query back to the booking path; lower the
 * figure when a change takes one away.
 */
const MAX_QUERIES_PER_BOOKING = 6

let t: TestApp
before(async () => {
  t = await startTestApp({ countQueries: true })
})
after(() => t.close())

/** Free places of 10392 from the day after tomorrow, each of a different schedule (so one patient may take them all). */
async function freePlaces(count: number) {
  const soon = new Date(Date.now() + 2 * 86_400_000).toLocaleDateString('sv', { timeZone: 'Asia/Shanghai' })
  const rows = await t.database.db
    .selectDistinctOn([schedules.deptId, schedules.visitDate, schedules.segment], { scheduleId: schedules.id, timeRange: scheduleSlots.timeRange })
    .from(scheduleSlots)
    .innerJoin(schedules, eq(schedules.id, scheduleSlots.scheduleId))
    .innerJoin(hospitals, eq(hospitals.id, schedules.hospitalId))
    .where(and(eq(hospitals.code, '10392'), eq(schedules.stopped, false), gt(schedules.visitDate, soon), isNull(scheduleSlots.registrationId)))
    .limit(count)
  assert.equal(rows.length, count)
  return rows
}

it('a paid registration is booked in at most MAX_QUERIES_PER_BOOKING statements once the patient is filed at the hospital', async () => {
  const caller = await signInUser(t.app)
  const patientId = await addPatient(t, caller.userId, { name: '张三丰', sex: 1, birthday: '1990-03-07', mobile: '13612345678' })
  const [first, second] = await freePlaces(2)
  const book = (place: { scheduleId: number; timeRange: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/dld-palm/api/register',
      remoteAddress: randomIp(),
      headers: caller.headers,
      payload: { scheduleId: place.scheduleId, patientId, timeRange: place.timeRange, idempotencyKey: newKey('q') },
    })
  // the first booking files the patient at the hospital (the HIS gives a card number): work done once per patient
  const filed = envelopeOf(await book(first!))
  assert.equal(filed.code, 200, filed.msg)

  let answer: ReturnType<typeof envelopeOf<{ id: number; status: string }>> | null = null
  const queries = await queriesOf(async () => {
    answer = envelopeOf(await book(second!))
  })
  assert.equal(answer!.code, 200, answer!.msg)
  assert.equal(answer!.data.status, 'holding')
  assert.ok(queries.length <= MAX_QUERIES_PER_BOOKING, `${queries.length} statements:\n${queries.join('\n')}`)
  // the answer is built from what the booking wrote: the same as the registration read back
  const detail = envelopeOf(
    await t.app.inject({ method: 'GET', url: '/dld-palm/api/register/detail', query: { id: String(answer!.data.id) }, remoteAddress: randomIp(), headers: caller.headers }),
  )
  assert.equal(detail.code, 200, detail.msg)
  assert.deepEqual(answer!.data, detail.data)
})

/** The statements of `work` that read the hospitals table. */
async function hospitalReads(work: () => Promise<void>) {
  const queries = await queriesOf(work)
  return queries.filter((q) => /from "hospitals"/.test(q))
}

it('a call that names its hospital reads the hospital from what this process keeps, not with a statement each time', async () => {
  const departments = async () => {
    const env = envelopeOf<{ deptName: string }[]>(await t.app.inject({ method: 'GET', url: '/dld-palm/api/department/10392', remoteAddress: randomIp() }))
    assert.equal(env.code, 200, env.msg)
    assert.ok(env.data.length > 0, 'the demo hospital has clinic groups')
    return env.data
  }
  const first = await departments()
  let again: unknown = null
  assert.deepEqual(await hospitalReads(async () => void (again = await departments())), [], 'the hospital was read again')
  assert.deepEqual(again, first)
  // a code no hospital has is still not found (nothing is kept for it)
  const missing = envelopeOf(await t.app.inject({ method: 'GET', url: '/dld-palm/api/department/99999', remoteAddress: randomIp() }))
  assert.equal(missing.code, 404, missing.msg)
})

it('a call that names its hospital by id reads it from what this process keeps too', async () => {
  const [demo] = await t.database.db.select({ id: hospitals.id }).from(hospitals).where(eq(hospitals.code, '10392'))
  const menus = async (id: number) => envelopeOf<{ name: string }[]>(await t.app.inject({ method: 'GET', url: `/dld-hospital/common/menuConfig/${id}`, remoteAddress: randomIp() }))
  const first = await menus(demo!.id)
  assert.equal(first.code, 200, first.msg)
  assert.ok(first.data.length > 0, 'the demo hospital has menu entries')
  let again: unknown = null
  assert.deepEqual(await hospitalReads(async () => void (again = (await menus(demo!.id)).data)), [], 'the hospital was read again')
  assert.deepEqual(again, first.data)
  assert.equal((await menus(999_999)).code, 404)
})
