import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { eq } from 'drizzle-orm'
import { users } from '../../server/src/db/schema'
import { startTestApp, signInWechat, signInUser, envelopeOf, DEMO, type TestApp } from './harness'

let t: TestApp
type Caller = { headers: Record<string, string> }
let patient: Caller
let staff: Caller
let admin: Caller

before(async () => {
  t = await startTestApp()
  patient = await signInUser(t.app)
  const s = await signInUser(t.app)
  await t.database.db.update(users).set({ roles: ['staff:10392'] }).where(eq(users.id, s.userId))
  staff = s
  // the seeded platform administrator, reached by binding their mobile
  admin = await signInUser(t.app, DEMO.staffMobile)
})
after(() => t.close())

const CONFIG = '/dld-palm/admin/hospital-config'
const readConfig = (hospitalCode: string | undefined, headers?: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: CONFIG, query: hospitalCode ? { hospitalCode } : {}, headers }).then((r) => envelopeOf(r))
const writeConfig = (body: Record<string, unknown>, headers?: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: CONFIG, payload: body, headers }).then((r) => envelopeOf(r))
const publicConfig = (code: string, key: string) =>
  t.app.inject({ method: 'GET', url: `/dld-palm/api/hospital/config/${code}/${encodeURIComponent(key)}` }).then((r) => envelopeOf(r))

type Entry = { key: string; value: string; updatedAt: string }
const valueOf = (list: Entry[], key: string) => list.find((e) => e.key === key)?.value

describe('GET /dld-palm/admin/hospital-config', () => {
  it('answers 401 without a token', async () => {
    const env = await readConfig('10392')
    assert.equal(env.code, 401)
    assert.equal(env.data, null)
  })

  it('answers 403 to an identity without a bound mobile', async () => {
    const s = await signInWechat(t.app)
    const env = await readConfig('10392', s.headers)
    assert.equal(env.code, 403)
    assert.equal(env.msg, '请先绑定手机号')
  })

  it('requires a hospital code', async () => {
    const env = await readConfig(undefined, staff.headers)
    assert.equal(env.code, 400)
    assert.match(env.msg, /^参数错误/)
  })

  it('answers 2999 to a patient, and to staff of another hospital', async () => {
    const env = await readConfig('10392', patient.headers)
    assert.equal(env.code, 2999)
    assert.equal(env.data, null)
    assert.equal((await readConfig('10388', staff.headers)).code, 2999)
    // an unknown hospital reveals nothing to someone who is not its staff
    assert.equal((await readConfig('99999', staff.headers)).code, 2999)
  })

  it('lists every setting of the hospital to its staff, private ones included', async () => {
    const env = await readConfig('10392', staff.headers)
    assert.equal(env.code, 200)
    const list = env.data as Entry[]
    assert.deepEqual(
      list.map((e) => e.key),
      ['internet.supervisionPlatform', 'private.hisEndpoint', 'register.cancelDeadline', 'register.freeForElderly', 'register.holdMinutes'],
    )
    assert.equal(valueOf(list, 'register.holdMinutes'), '15')
    assert.ok(!Number.isNaN(Date.parse(list[0]!.updatedAt)))
  })

  it('lets an administrator read any hospital; an unknown one is 404', async () => {
    assert.equal((await readConfig('10388', admin.headers)).code, 200)
    assert.equal((await readConfig('10412', admin.headers)).code, 200)
    const unknown = await readConfig('99999', admin.headers)
    assert.equal(unknown.code, 404)
    assert.equal(unknown.msg, '医院不存在')
  })
})

describe('POST /dld-palm/admin/hospital-config', () => {
  it('answers 401 without a token', async () => {
    const env = await writeConfig({ hospitalCode: '10392', key: 'register.holdMinutes', value: '1' })
    assert.equal(env.code, 401)
  })

  it('answers 403 to an identity without a bound mobile', async () => {
    const s = await signInWechat(t.app)
    const env = await writeConfig({ hospitalCode: '10392', key: 'register.holdMinutes', value: '1' }, s.headers)
    assert.equal(env.code, 403)
  })

  it('rejects a malformed key and an over-long value', async () => {
    const badKey = await writeConfig({ hospitalCode: '10392', key: 'bad key!', value: 'x' }, staff.headers)
    assert.equal(badKey.code, 400)
    assert.match(badKey.msg, /^参数错误/)
    assert.match(badKey.msg, /配置项名称格式不正确/)
    for (const key of ['1starts.with.digit', 'a'.repeat(65), '']) {
      assert.equal((await writeConfig({ hospitalCode: '10392', key, value: 'x' }, staff.headers)).code, 400, key)
    }
    const long = await writeConfig({ hospitalCode: '10392', key: 'notice.long', value: 'x'.repeat(4001) }, staff.headers)
    assert.equal(long.code, 400)
    assert.match(long.msg, /^参数错误/)
    assert.equal(valueOf((await readConfig('10392', staff.headers)).data, 'notice.long'), undefined)
    // 4000 is still fine
    assert.equal((await writeConfig({ hospitalCode: '10392', key: 'notice.long', value: 'x'.repeat(4000) }, staff.headers)).code, 200)
  })

  it('answers 2999 to a patient and changes nothing', async () => {
    const env = await writeConfig({ hospitalCode: '10392', key: 'register.holdMinutes', value: '99' }, patient.headers)
    assert.equal(env.code, 2999)
    assert.equal(env.data, null)
    assert.equal((await publicConfig('10392', 'register.holdMinutes')).data.value, '15')
    const created = await writeConfig({ hospitalCode: '10392', key: 'patient.was.here', value: '1' }, patient.headers)
    assert.equal(created.code, 2999)
    assert.equal((await publicConfig('10392', 'patient.was.here')).data.value, null)
  })

  it('staff write their own hospital, not another', async () => {
    const own = await writeConfig({ hospitalCode: '10392', key: 'register.cancelDeadline', value: '18:00' }, staff.headers)
    assert.equal(own.code, 200)
    assert.equal(own.data.key, 'register.cancelDeadline')
    assert.equal(own.data.value, '18:00')
    assert.equal((await publicConfig('10392', 'register.cancelDeadline')).data.value, '18:00')

    const other = await writeConfig({ hospitalCode: '10388', key: 'register.cancelDeadline', value: '18:00' }, staff.headers)
    assert.equal(other.code, 2999)
    assert.equal((await publicConfig('10388', 'register.cancelDeadline')).data.value, '17:00')
  })

  it('a role change takes effect on the next call', async () => {
    const u = await signInUser(t.app)
    assert.equal((await writeConfig({ hospitalCode: '10412', key: 'k.one', value: 'a' }, u.headers)).code, 2999)
    await t.database.db.update(users).set({ roles: ['staff:10412'] }).where(eq(users.id, u.userId))
    assert.equal((await writeConfig({ hospitalCode: '10412', key: 'k.one', value: 'a' }, u.headers)).code, 200)
    await t.database.db.update(users).set({ roles: [] }).where(eq(users.id, u.userId))
    assert.equal((await writeConfig({ hospitalCode: '10412', key: 'k.one', value: 'b' }, u.headers)).code, 2999)
  })

  it('an administrator writes any hospital; an unknown hospital is 404', async () => {
    for (const code of ['10392', '10388', '10412']) {
      const env = await writeConfig({ hospitalCode: code, key: 'admin.note', value: `note ${code}` }, admin.headers)
      assert.equal(env.code, 200, code)
      assert.equal((await publicConfig(code, 'admin.note')).data.value, `note ${code}`)
    }
    assert.equal((await writeConfig({ hospitalCode: '99999', key: 'admin.note', value: 'x' }, admin.headers)).code, 404)
  })

  it('an update overwrites the one entry for the key', async () => {
    const first = await writeConfig({ hospitalCode: '10392', key: 'register.holdMinutes', value: '20' }, staff.headers)
    assert.equal(first.code, 200)
    const second = await writeConfig({ hospitalCode: '10392', key: 'register.holdMinutes', value: '30' }, staff.headers)
    assert.equal(second.data.value, '30')
    assert.ok(Date.parse(second.data.updatedAt) >= Date.parse(first.data.updatedAt))
    const list = (await readConfig('10392', staff.headers)).data as Entry[]
    assert.deepEqual(
      list.filter((e) => e.key === 'register.holdMinutes').map((e) => e.value),
      ['30'],
    )
    assert.equal((await publicConfig('10392', 'register.holdMinutes')).data.value, '30')
    // other hospitals keep theirs
    assert.equal((await publicConfig('10388', 'register.holdMinutes')).data.value, '15')
  })
})

describe('POST /dld-palm/admin/system/dict', () => {
  const dict = (payload: unknown) => t.app.inject({ method: 'POST', url: '/dld-palm/admin/system/dict', payload: payload as object }).then((r) => envelopeOf(r))

  it('rejects a malformed or missing type', async () => {
    for (const type of ['Relation', 'card-type', '', 'a'.repeat(41)]) {
      const env = await dict({ type })
      assert.equal(env.code, 400, type)
      assert.match(env.msg, /^参数错误/)
    }
    assert.match((await dict({ type: 'bad type' })).msg, /字典类型格式不正确/)
    assert.equal((await dict({})).code, 400)
  })

  it('answers the relations in order, starting with 本人', async () => {
    const env = await dict({ type: 'relation' })
    assert.equal(env.code, 200)
    assert.deepEqual(
      env.data.map((e: { label: string }) => e.label),
      ['本人', '父母', '配偶', '子女', '其他'],
    )
    assert.deepEqual(env.data[0], { label: '本人', value: '0', sort: 0 })
    assert.equal((await dict({ type: 'card_type' })).data[0].label, '居民身份证')
  })

  it('answers the 56 ethnic groups with their national codes, then 其他', async () => {
    const env = await dict({ type: 'nation' })
    assert.equal(env.code, 200)
    assert.equal(env.data.length, 58)
    assert.deepEqual(env.data[0], { label: '汉族', value: '01', sort: 0 })
    assert.deepEqual(env.data[55], { label: '基诺族', value: '56', sort: 55 })
    assert.equal(env.data[56].label, '其他')
    assert.equal(new Set(env.data.map((e: { value: string }) => e.value)).size, 58)
  })

  it('answers an empty list for a type that has no entries', async () => {
    const env = await dict({ type: 'no_such_dict' })
    assert.equal(env.code, 200)
    assert.deepEqual(env.data, [])
  })
})

describe('GET /dld-palm/api/hospital/config/:hospitalCode/:key', () => {
  it('rejects a malformed key', async () => {
    const env = await publicConfig('10392', 'bad key!')
    assert.equal(env.code, 400)
    assert.match(env.msg, /^参数错误/)
  })

  it('answers 2999 for a private setting, without a token or with one', async () => {
    for (const key of ['private.hisEndpoint', 'secret.anything']) {
      const env = await publicConfig('10392', key)
      assert.equal(env.code, 2999, key)
      assert.equal(env.data, null)
    }
    const withStaffToken = await t.app.inject({ method: 'GET', url: '/dld-palm/api/hospital/config/10392/private.hisEndpoint', headers: staff.headers })
    assert.equal(envelopeOf(withStaffToken).code, 2999)
    assert.doesNotMatch(withStaffToken.body, /his\.internal/)
  })

  it('answers 404 for an unknown hospital', async () => {
    const env = await publicConfig('99999', 'register.holdMinutes')
    assert.equal(env.code, 404)
    assert.equal(env.msg, '医院不存在')
  })

  it('answers the value of a public setting, and null for one never set', async () => {
    const env = await publicConfig('10412', 'register.holdMinutes')
    assert.equal(env.code, 200)
    assert.deepEqual(env.data, { key: 'register.holdMinutes', value: '15' })
    assert.deepEqual((await publicConfig('10412', 'never.set')).data, { key: 'never.set', value: null })
  })
})
