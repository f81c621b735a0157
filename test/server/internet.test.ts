import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { and, eq, isNull } from 'drizzle-orm'
import { departments, doctorFans, doctors, hospitals, onlineDoctorServices, onlineDoctors, physicianAssistants } from '../../server/src/db/schema'
import { averageReplyTime } from '../../src/utils/time'
import { starRating } from '../../src/utils/level'
import type { OnlineDoctor, OnlineDoctorInfo } from '../../types/api/internet'
import { startTestApp, signInUser, callApi, assertUnauthorisedCall, type CallOptions, type Method, type TestApp, assertBadInput } from './harness'

const A = '/dld-hospital'

type Caller = { headers: Record<string, string>; userId: number }

let t: TestApp
let owner: Caller
let stranger: Caller

before(async () => {
  t = await startTestApp()
  owner = await signInUser(t.app)
  stranger = await signInUser(t.app)
})
after(() => t.close())

const db = () => t.database.db

const call = <T = any>(method: Method, url: string, opts: CallOptions = {}) => callApi<T>(t.app, method, url, opts)
const ok = async <T = any>(method: Method, url: string, opts: Parameters<typeof call>[2] = {}) => {
  const env = await call<T>(method, url, opts)
  assert.equal(env.code, 200, `${url}: ${env.code} ${env.msg}`)
  return env.data
}


const assertUnauthorised = (method: Method, url: string, opts: Omit<CallOptions, 'caller'> = {}) => assertUnauthorisedCall(t.app, method, url, opts)

// ---- the seeded data, read back from the database ----------------------------------------------------------------

interface Seeded {
  id: number
  name: string
  title: string
  deptId: number
  deptName: string
  parentId: number | null
  deptSort: number
  hospitalCode: string
  level: number
  avgReplySeconds: number
  servedCount: number
  goodRate: number
  online: boolean
  sort: number
  priceFen: number | null
  speciality: string
  intro: string
}

async function seeded(code?: string): Promise<Seeded[]> {
  const rows = await db()
    .select({
      id: doctors.id,
      name: doctors.name,
      title: doctors.title,
      speciality: doctors.speciality,
      intro: doctors.intro,
      deptId: doctors.deptId,
      deptName: departments.name,
      parentId: departments.parentId,
      deptSort: departments.sort,
      hospitalCode: hospitals.code,
      level: onlineDoctors.level,
      avgReplySeconds: onlineDoctors.avgReplySeconds,
      servedCount: onlineDoctors.servedCount,
      goodRate: onlineDoctors.goodRate,
      online: onlineDoctors.online,
      sort: onlineDoctors.sort,
      priceFen: onlineDoctorServices.priceFen,
    })
    .from(onlineDoctors)
    .innerJoin(doctors, eq(doctors.id, onlineDoctors.doctorId))
    .innerJoin(departments, eq(departments.id, doctors.deptId))
    .innerJoin(hospitals, eq(hospitals.id, onlineDoctors.hospitalId))
    .leftJoin(onlineDoctorServices, and(eq(onlineDoctorServices.doctorId, onlineDoctors.doctorId), eq(onlineDoctorServices.type, 'text')))
    .where(code ? eq(hospitals.code, code) : undefined)
  return rows
}

/** A registration doctor who does not consult online. */
async function offlineOnlyDoctor(code = '10412') {
  const [row] = await db()
    .select({ id: doctors.id, name: doctors.name })
    .from(doctors)
    .innerJoin(hospitals, eq(hospitals.id, doctors.hospitalId))
    .leftJoin(onlineDoctors, eq(onlineDoctors.doctorId, doctors.id))
    .where(and(eq(hospitals.code, code), isNull(onlineDoctors.doctorId)))
    .limit(1)
  return row!
}

const list = (query: Record<string, string>) => ok<{ records: OnlineDoctor[]; total: number; page: number; size: number }>('GET', `${A}/index/doctorList`, { query })
const ids = (xs: { id: number }[]) => xs.map((x) => x.id)
const sortedIds = (xs: { id: number }[]) => ids(xs).sort((a, b) => a - b)

/** What a patient reads for one doctor, against the row in the database. */
function assertShows(d: OnlineDoctor, row: Seeded) {
  assert.equal(d.doctorName, row.name)
  assert.equal(d.title, row.title)
  assert.equal(d.deptId, row.deptId)
  assert.equal(d.deptName, row.deptName)
  assert.equal(d.hospitalCode, row.hospitalCode)
  assert.equal(d.level, row.level)
  assert.deepEqual(d.stars, starRating(row.level))
  assert.equal(d.priceFen, row.priceFen)
  assert.equal(d.avgReplySeconds, row.avgReplySeconds)
  assert.equal(d.replyTimeText, averageReplyTime(row.avgReplySeconds))
  assert.equal(d.servedCount, row.servedCount)
  assert.equal(d.goodRate, row.goodRate)
  assert.equal(d.online, row.online)
  assert.equal(d.speciality, row.speciality)
  assert.equal(d.imAccount, `d_${row.id}`)
  assert.equal(d.avatar, `/static/doctors/${row.id}.svg`)
}

// ---- the seed ----------------------------------------------------------------------------------------------------

describe('seeded online doctors', () => {
  it('each internet hospital has a dozen-odd doctors with varied levels, prices and reply times, some offline; palm-only none', async () => {
    const all = await seeded()
    assert.deepEqual([...new Set(all.map((r) => r.hospitalCode))].sort(), ['10392', '10412', 'aixin'])
    assert.ok(all.length >= 17 && all.length <= 25, `${all.length} online doctors`)
    for (const code of ['10392', '10412', 'aixin']) {
      const rows = all.filter((r) => r.hospitalCode === code)
      assert.ok(rows.some((r) => !r.online) && rows.some((r) => r.online), `${code}: online and offline doctors`)
      assert.ok(new Set(rows.map((r) => r.deptId)).size >= 3, `${code}: several departments`)
    }
    assert.ok(new Set(all.map((r) => r.level)).size >= 3, 'varied levels')
    for (const r of all) {
      assert.ok(r.priceFen !== null && Number.isInteger(r.priceFen) && r.priceFen >= 0 && r.priceFen <= 5000, `price ${r.priceFen}`)
      assert.ok(r.avgReplySeconds >= 120 && r.avgReplySeconds <= 8 * 3600, `reply ${r.avgReplySeconds}`)
      assert.ok(r.level >= 0 && r.level <= 5)
    }
    const assistants = await db().select({ code: hospitals.code }).from(physicianAssistants).innerJoin(hospitals, eq(hospitals.id, physicianAssistants.hospitalId))
    assert.deepEqual(assistants.map((a) => a.code).sort(), ['10392', '10392', '10412', '10412', 'aixin'])
  })
})

// ---- listings ----------------------------------------------------------------------------------------------------

describe('GET /dld-hospital/index/doctorList', () => {
  it('400 without a hospital, with an unknown sort or a bad page size; a palm-only hospital has no online doctors', async () => {
    assertBadInput(await call('GET', `${A}/index/doctorList`))
    assertBadInput(await call('GET', `${A}/index/doctorList`, { query: { hospitalCode: '10412', sort: 'cheapest' } }))
    assertBadInput(await call('GET', `${A}/index/doctorList`, { query: { hospitalCode: '10412', size: '0' } }))
    assertBadInput(await call('GET', `${A}/index/doctorList`, { query: { hospitalCode: '10412', size: '51' } }))
    assertBadInput(await call('GET', `${A}/index/doctorList`, { query: { hospitalCode: '10388' } }), '该医院暂未开通互联网医院服务')
    const unknown = await call('GET', `${A}/index/doctorList`, { query: { hospitalCode: '99999' } })
    assert.equal(unknown.code, 404)
  })

  it('400 for a department of another hospital', async () => {
    const other = (await seeded('10392'))[0]!
    assertBadInput(await call('GET', `${A}/index/doctorList`, { query: { hospitalCode: '10412', deptId: String(other.deptId) } }), '该医院没有这个科室')
  })

  it('lists every online doctor of the hospital as the database has them, accepting ones first, offline ones marked', async () => {
    const rows = await seeded('10412')
    const page = await list({ hospitalCode: '10412', size: '50' })
    assert.equal(page.total, rows.length)
    assert.deepEqual(sortedIds(page.records), sortedIds(rows))
    for (const d of page.records) assertShows(d, rows.find((r) => r.id === d.id)!)
    const firstOffline = page.records.findIndex((d) => !d.online)
    assert.ok(firstOffline > 0, 'some doctors are offline')
    assert.ok(page.records.slice(firstOffline).every((d) => !d.online), 'accepting doctors come first')
    // within each group, the hospital's order
    const key = (d: OnlineDoctor) => {
      const r = rows.find((x) => x.id === d.id)!
      return [r.deptSort, r.deptId, r.sort]
    }
    for (const group of [page.records.slice(0, firstOffline), page.records.slice(firstOffline)]) {
      for (let i = 1; i < group.length; i++) {
        const [a, b] = [key(group[i - 1]!), key(group[i]!)]
        assert.ok(a[0]! < b[0]! || (a[0] === b[0] && (a[1]! < b[1]! || (a[1] === b[1] && a[2]! <= b[2]!))), 'hospital order')
      }
    }
  })

  it('pages through the list without repeats or gaps', async () => {
    const whole = await list({ hospitalCode: '10412', size: '50' })
    const first = await list({ hospitalCode: '10412', size: '4', page: '1' })
    const second = await list({ hospitalCode: '10412', size: '4', page: '2' })
    const third = await list({ hospitalCode: '10412', size: '4', page: '3' })
    assert.equal(first.total, whole.total)
    assert.deepEqual([first.page, first.size, second.page], [1, 4, 2])
    assert.deepEqual(ids([...first.records, ...second.records, ...third.records]), ids(whole.records).slice(0, 12))
    const beyond = await list({ hospitalCode: '10412', size: '4', page: '100' })
    assert.deepEqual(beyond.records, [])
  })

  it('sorts by level (highest first), reply time (fastest first) and price (cheapest first)', async () => {
    for (const code of ['10392', '10412']) {
      const rows = await seeded(code)
      const byLevel = (await list({ hospitalCode: code, sort: 'level', size: '50' })).records
      const byReply = (await list({ hospitalCode: code, sort: 'replyTime', size: '50' })).records
      const byPrice = (await list({ hospitalCode: code, sort: 'price', size: '50' })).records
      for (const sorted of [byLevel, byReply, byPrice]) assert.deepEqual(sortedIds(sorted), sortedIds(rows))
      const pairs = <T>(xs: T[]) => xs.slice(1).map((x, i) => [xs[i]!, x] as const)
      for (const [a, b] of pairs(byLevel)) assert.ok(a.level >= b.level, `level ${a.level} before ${b.level}`)
      for (const [a, b] of pairs(byReply)) assert.ok(a.avgReplySeconds <= b.avgReplySeconds, `reply ${a.avgReplySeconds} before ${b.avgReplySeconds}`)
      for (const [a, b] of pairs(byPrice)) assert.ok(a.priceFen! <= b.priceFen!, `price ${a.priceFen} before ${b.priceFen}`)
      // the seed gives each order something to do
      assert.notDeepEqual(ids(byLevel), ids(byPrice))
    }
  })

  it('a department shows only its doctors; a clinic group shows its departments’ doctors', async () => {
    const rows = await seeded('10412')
    const dept = rows[0]!
    const inDept = await list({ hospitalCode: '10412', deptId: String(dept.deptId), size: '50' })
    assert.deepEqual(sortedIds(inDept.records), sortedIds(rows.filter((r) => r.deptId === dept.deptId)))
    assert.equal(inDept.total, rows.filter((r) => r.deptId === dept.deptId).length)
    const inGroup = await list({ hospitalCode: '10412', deptId: String(dept.parentId), size: '50' })
    assert.deepEqual(sortedIds(inGroup.records), sortedIds(rows.filter((r) => r.parentId === dept.parentId)))
  })

  it('reply time reads as spec §9 says: unknown is 6小时 and sorts as six hours; seconds, minutes, hours, days', async () => {
    const rows = await seeded('10392')
    const [a, b, c, d] = rows
    const set = (id: number, s: number) => db().update(onlineDoctors).set({ avgReplySeconds: s }).where(eq(onlineDoctors.doctorId, id))
    const original = rows.slice(0, 4).map((r) => [r.id, r.avgReplySeconds] as const)
    try {
      await set(a!.id, 0)
      await set(b!.id, 45)
      await set(c!.id, 90_000)
      await set(d!.id, 5 * 3600 + 59 * 60)
      const records = (await list({ hospitalCode: '10392', sort: 'replyTime', size: '50' })).records
      const text = (id: number) => records.find((r) => r.id === id)!.replyTimeText
      assert.deepEqual([text(a!.id), text(b!.id), text(c!.id), text(d!.id)], ['6小时', '45秒', '1天', '5小时'])
      assert.equal(records[0]!.id, b!.id, '45 s is the fastest')
      assert.equal(records.at(-1)!.id, c!.id, 'a day is the slowest')
      // unknown (6小时) after 5 h 59 min
      assert.ok(ids(records).indexOf(a!.id) > ids(records).indexOf(d!.id))
    } finally {
      for (const [id, s] of original) await set(id, s)
    }
  })
})

describe('GET /dld-hospital/index/search', () => {
  it('400 without a keyword or with one over 20 characters', async () => {
    assertBadInput(await call('GET', `${A}/index/search`, { query: { hospitalCode: '10412' } }))
    assertBadInput(await call('GET', `${A}/index/search`, { query: { hospitalCode: '10412', keyword: '  ' } }), /请输入搜索关键词/)
    assertBadInput(await call('GET', `${A}/index/search`, { query: { hospitalCode: '10412', keyword: '心'.repeat(21) } }), /搜索关键词不能超过20个字/)
  })

  it('finds online doctors by name, by speciality and by department, never a doctor who does not consult online', async () => {
    const rows = await seeded('10412')
    const doctor = rows[1]!
    const byName = await ok('GET', `${A}/index/search`, { query: { hospitalCode: '10412', keyword: doctor.name } })
    assert.equal(byName.doctors[0].id, doctor.id)
    assertShows(byName.doctors[0], doctor)

    const byDept = await ok('GET', `${A}/index/search`, { query: { hospitalCode: '10412', keyword: doctor.deptName } })
    const inDept = rows.filter((r) => r.deptName.includes(doctor.deptName))
    for (const r of inDept) assert.ok(ids(byDept.doctors).includes(r.id), `${r.name} of ${r.deptName}`)
    assert.ok(byDept.depts.some((d: { id: number; doctorCount: number }) => d.id === doctor.deptId && d.doctorCount === rows.filter((r) => r.deptId === doctor.deptId).length))

    const speciality = doctor.speciality.split('、')[0]!
    const bySpeciality = await ok('GET', `${A}/index/search`, { query: { hospitalCode: '10412', keyword: speciality } })
    assert.ok(ids(bySpeciality.doctors).includes(doctor.id))
    for (const d of bySpeciality.doctors as OnlineDoctor[]) assert.ok(d.speciality.includes(speciality) || d.deptName.includes(speciality) || d.doctorName.includes(speciality))

    const other = await offlineOnlyDoctor('10412')
    const none = await ok('GET', `${A}/index/search`, { query: { hospitalCode: '10412', keyword: other.name } })
    assert.ok(!ids(none.doctors).includes(other.id))
  })

  it('without a hospital searches every internet hospital', async () => {
    const [a] = await seeded('10392')
    const [b] = await seeded('10412')
    const found = await ok('GET', `${A}/index/search`, { query: { keyword: a!.deptName } })
    assert.ok(ids(found.doctors).includes(a!.id))
    const foundB = await ok('GET', `${A}/index/search`, { query: { keyword: b!.name } })
    assert.ok(ids(foundB.doctors).includes(b!.id))
  })
})

describe('GET /dld-hospital/index/hospitalDept', () => {
  it('400 without a hospital; palm-only hospital refused', async () => {
    assertBadInput(await call('GET', `${A}/index/hospitalDept`))
    assertBadInput(await call('GET', `${A}/index/hospitalDept`, { query: { hospitalCode: '10388' } }))
  })

  it('the departments with online doctors, in the hospital’s order, with counts', async () => {
    const rows = await seeded('10412')
    const depts = await ok('GET', `${A}/index/hospitalDept`, { query: { hospitalCode: '10412' } })
    const expected = [...new Set(rows.sort((a, b) => a.deptSort - b.deptSort || a.deptId - b.deptId).map((r) => r.deptId))]
    assert.deepEqual(ids(depts), expected)
    for (const d of depts) {
      const mine = rows.filter((r) => r.deptId === d.id)
      assert.equal(d.deptName, mine[0]!.deptName)
      assert.equal(d.doctorCount, mine.length)
      assert.equal(d.onlineCount, mine.filter((r) => r.online).length)
    }
  })
})

describe('GET /dld-hospital/index/hotService', () => {
  it('400 for a limit over 20', async () => {
    assertBadInput(await call('GET', `${A}/index/hotService`, { query: { limit: '21' } }))
  })

  it('the most consulted doctors accepting consultations, of one hospital or all', async () => {
    const rows = await seeded('10412')
    const hot = await ok<OnlineDoctor[]>('GET', `${A}/index/hotService`, { query: { hospitalCode: '10412', limit: '3' } })
    const expected = rows.filter((r) => r.online).sort((a, b) => b.servedCount - a.servedCount || a.id - b.id).slice(0, 3)
    assert.deepEqual(ids(hot), ids(expected))
    const everywhere = await ok<OnlineDoctor[]>('GET', `${A}/index/hotService`, { query: { limit: '20' } })
    const all = (await seeded()).filter((r) => r.online)
    assert.equal(everywhere.length, Math.min(20, all.length))
    assert.ok(everywhere.every((d) => d.online))
    assert.equal(everywhere[0]!.servedCount, Math.max(...all.map((r) => r.servedCount)))
  })
})

describe('GET /dld-hospital/index/city', () => {
  it('the cities of the hospitals with the internet service, each with those hospitals', async () => {
    const cities = await ok('GET', `${A}/index/city`)
    const rows = await db().select().from(hospitals).where(eq(hospitals.isInternet, true))
    const expected = [...new Set(rows.map((h) => h.city))].sort()
    assert.deepEqual(cities.map((c: { city: string }) => c.city), expected)
    const codes = cities.flatMap((c: { hospitals: { hospitalCode: string }[] }) => c.hospitals.map((h) => h.hospitalCode)).sort()
    assert.deepEqual(codes, rows.map((h) => h.code).sort())
    assert.ok(!codes.includes('10388'), 'the palm-only hospital is not listed')
  })
})

describe('GET /dld-hospital/index/physicianAssistant', () => {
  it('400 without a hospital', async () => {
    assertBadInput(await call('GET', `${A}/index/physicianAssistant`))
  })

  it('the hospital’s assistants with IM accounts a_<id> and portraits', async () => {
    const rows = await db()
      .select({ id: physicianAssistants.id, name: physicianAssistants.name })
      .from(physicianAssistants)
      .innerJoin(hospitals, eq(hospitals.id, physicianAssistants.hospitalId))
      .where(eq(hospitals.code, '10412'))
    const assistants = await ok<{ avatar: string }[]>('GET', `${A}/index/physicianAssistant`, { query: { hospitalCode: '10412' } })
    assert.deepEqual(
      assistants,
      rows.sort((a, b) => a.id - b.id).map((r) => ({ id: r.id, name: r.name, imAccount: `a_${r.id}`, avatar: `/static/assistants/${r.id}.svg`, hospitalCode: '10412' })),
    )
    const svg = await t.app.inject({ method: 'GET', url: assistants[0]!.avatar })
    assert.equal(svg.statusCode, 200)
    assert.match(svg.body, new RegExp(`>${Array.from(rows[0]!.name)[0]}</text>`))
  })
})

describe('GET /dld-hospital/doctor/info', () => {
  it('400 for a bad id, 404 for a doctor who does not consult online', async () => {
    assertBadInput(await call('GET', `${A}/doctor/info`, { query: { id: 'abc' } }))
    const other = await offlineOnlyDoctor()
    const missing = await call('GET', `${A}/doctor/info`, { query: { id: String(other.id) } })
    assert.equal(missing.code, 404)
    assert.equal(missing.msg, '医生不存在')
  })

  it('one doctor in full, for anyone; offline doctors say so', async () => {
    const rows = await seeded('10412')
    const offline = rows.find((r) => !r.online)!
    const info = await ok<OnlineDoctorInfo>('GET', `${A}/doctor/info`, { query: { id: String(offline.id) } })
    assertShows(info, offline)
    assert.equal(info.online, false)
    assert.equal(info.intro, offline.intro)
    assert.equal(info.hospitalName, '示范互联网医院')
    assert.deepEqual(info.services, [{ type: 'text', name: '图文问诊', priceFen: offline.priceFen }])
    assert.equal(info.followed, false)
  })
})

// ---- following ---------------------------------------------------------------------------------------------------

const fansRows = async (userId: number) => (await db().select().from(doctorFans).where(eq(doctorFans.userId, userId))).map((r) => r.doctorId).sort((a, b) => a - b)

describe('PUT /dld-hospital/im/fans/follow', () => {
  it('401 / 403 for callers who are not bound users', async () => {
    const [d] = await seeded('10412')
    await assertUnauthorised('PUT', `${A}/im/fans/follow`, { body: { doctorId: d!.id } })
  })

  it('400 without a doctor, 404 for a doctor who does not consult online', async () => {
    assertBadInput(await call('PUT', `${A}/im/fans/follow`, { caller: owner, body: {} }))
    const other = await offlineOnlyDoctor()
    const refused = await call('PUT', `${A}/im/fans/follow`, { caller: owner, body: { doctorId: other.id } })
    assert.equal(refused.code, 404)
    assert.deepEqual(await fansRows(owner.userId), [])
  })

  it('follows once however often it is asked; the doctor then shows as followed to that caller only', async () => {
    const [d] = await seeded('10412')
    const first = await ok('PUT', `${A}/im/fans/follow`, { caller: owner, body: { doctorId: d!.id } })
    const again = await ok('PUT', `${A}/im/fans/follow`, { caller: owner, body: { doctorId: String(d!.id) } })
    assert.deepEqual(first, { doctorId: d!.id, followed: true, fansCount: 1 })
    assert.deepEqual(again, first)
    assert.deepEqual(await fansRows(owner.userId), [d!.id])
    assert.equal((await ok<OnlineDoctorInfo>('GET', `${A}/doctor/info`, { caller: owner, query: { id: String(d!.id) } })).followed, true)
    const seenByStranger = await ok<OnlineDoctorInfo>('GET', `${A}/doctor/info`, { caller: stranger, query: { id: String(d!.id) } })
    assert.equal(seenByStranger.followed, false)
    assert.equal(seenByStranger.fansCount, 1)
    assert.equal((await ok<OnlineDoctorInfo>('GET', `${A}/doctor/info`, { query: { id: String(d!.id) } })).followed, false)
  })
})

describe('PUT /dld-hospital/im/fans/cancel/follow', () => {
  it('401 / 403 for callers who are not bound users', async () => {
    const [d] = await seeded('10412')
    await assertUnauthorised('PUT', `${A}/im/fans/cancel/follow`, { body: { doctorId: d!.id } })
  })

  it('400 without a doctor', async () => {
    assertBadInput(await call('PUT', `${A}/im/fans/cancel/follow`, { caller: owner, body: { doctorId: '0' } }))
  })

  it('stops following, idempotently, and only for the caller', async () => {
    const rows = await seeded('10392')
    const d = rows[2]!
    const caller = await signInUser(t.app)
    await ok('PUT', `${A}/im/fans/follow`, { caller, body: { doctorId: d.id } })
    await ok('PUT', `${A}/im/fans/follow`, { caller: stranger, body: { doctorId: d.id } })
    const cancelled = await ok('PUT', `${A}/im/fans/cancel/follow`, { caller, body: { doctorId: d.id } })
    assert.deepEqual(cancelled, { doctorId: d.id, followed: false, fansCount: 1 })
    assert.deepEqual(await ok('PUT', `${A}/im/fans/cancel/follow`, { caller, body: { doctorId: d.id } }), cancelled)
    assert.deepEqual(await fansRows(caller.userId), [])
    assert.ok((await fansRows(stranger.userId)).includes(d.id), 'the other patient still follows')
    // never followed: nothing to undo, still fine
    assert.equal((await ok('PUT', `${A}/im/fans/cancel/follow`, { caller, body: { doctorId: rows[0]!.id } })).followed, false)
    await ok('PUT', `${A}/im/fans/cancel/follow`, { caller: stranger, body: { doctorId: d.id } })
  })
})

describe('GET /dld-hospital/im/fans/doctor/list', () => {
  it('401 / 403 for callers who are not bound users', async () => {
    await assertUnauthorised('GET', `${A}/im/fans/doctor/list`)
  })

  it('the caller’s followed doctors, the latest first; another patient’s follows are not in it', async () => {
    const caller = await signInUser(t.app)
    const other = await signInUser(t.app)
    const rows = await seeded()
    const [a, b, c] = [rows.find((r) => r.hospitalCode === '10412')!, rows.find((r) => r.hospitalCode === '10392')!, rows.at(-1)!]
    assert.deepEqual(await ok('GET', `${A}/im/fans/doctor/list`, { caller }), [])
    await ok('PUT', `${A}/im/fans/follow`, { caller, body: { doctorId: a.id } })
    await new Promise((r) => setTimeout(r, 5))
    await ok('PUT', `${A}/im/fans/follow`, { caller, body: { doctorId: b.id } })
    await ok('PUT', `${A}/im/fans/follow`, { caller: other, body: { doctorId: c.id } })
    const mine = await ok<OnlineDoctor[]>('GET', `${A}/im/fans/doctor/list`, { caller })
    assert.deepEqual(ids(mine), [b.id, a.id])
    assertShows(mine[1]!, a)
    assert.deepEqual(ids(await ok<OnlineDoctor[]>('GET', `${A}/im/fans/doctor/list`, { caller: other })), [c.id])
    const onlyOne = await ok<OnlineDoctor[]>('GET', `${A}/im/fans/doctor/list`, { caller, query: { hospitalCode: '10412' } })
    assert.deepEqual(ids(onlyOne), [a.id])
  })
})

describe('GET /dld-hospital/doctor/chronic/getMyDoctor', () => {
  it('401 / 403 for callers who are not bound users', async () => {
    await assertUnauthorised('GET', `${A}/doctor/chronic/getMyDoctor`)
  })

  it('the followed doctors, those accepting consultations first; unfollowing removes one', async () => {
    const caller = await signInUser(t.app)
    const rows = await seeded('10412')
    const offline = rows.find((r) => !r.online)!
    const online = rows.find((r) => r.online)!
    await ok('PUT', `${A}/im/fans/follow`, { caller, body: { doctorId: online.id } })
    await new Promise((r) => setTimeout(r, 5))
    await ok('PUT', `${A}/im/fans/follow`, { caller, body: { doctorId: offline.id } })
    const mine = await ok<OnlineDoctor[]>('GET', `${A}/doctor/chronic/getMyDoctor`, { caller })
    assert.deepEqual(ids(mine), [online.id, offline.id])
    assert.deepEqual(mine.map((d) => d.online), [true, false])
    assert.deepEqual(await ok('GET', `${A}/doctor/chronic/getMyDoctor`, { caller: stranger, query: { hospitalCode: '10412' } }).then((x: OnlineDoctor[]) => x.filter((d) => [online.id, offline.id].includes(d.id))), [])
    await ok('PUT', `${A}/im/fans/cancel/follow`, { caller, body: { doctorId: online.id } })
    assert.deepEqual(ids(await ok<OnlineDoctor[]>('GET', `${A}/doctor/chronic/getMyDoctor`, { caller })), [offline.id])
  })
})
