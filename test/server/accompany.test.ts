import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { eq } from 'drizzle-orm'
import { accompanies, patients } from '../../server/src/db/schema'
import { FieldCipher } from '../../server/src/crypto'
import { MAX_ESCORTS } from '../../server/src/domain/patientRules'
import { startTestApp, signInWechat, signInUser, envelopeOf, type TestApp, LogCapture, idCardFor, idCardEndingInX, b64, unb64 } from './harness'


const PATIENT_ID = idCardFor('19800101', '123')
const ESCORT_A = idCardFor('19750315', '231', '440305')
const ESCORT_B = idCardFor('19880620', '342', '330102')
const ESCORT_C = idCardFor('19900101', '451', '320102')
/** Sixteen years old: too young to sign for a patient. */
const MINOR = idCardFor(`${new Date().getFullYear() - 16}0101`, '562')
/** Every identity number the tests send, for the log and table checks at the end. */
const SENT = new Set<string>([PATIENT_ID, ESCORT_A, ESCORT_B, ESCORT_C, MINOR])
const INCOMPLETE = '当前就诊人信息不完整，请先完善就诊人信息。'

const log = new LogCapture()
let t: TestApp
let cipher: FieldCipher
type Caller = Awaited<ReturnType<typeof signInUser>>
let other: Caller
let othersPatientId: number
let othersEscortId: number

interface Accompany {
  id: number
  patientId: number
  name: string
  idCard: string
  mobile: string
  relation: string
  createdAt: string
}

/** A bound patient, written straight into the table (binding patients is tested with the patient calls). */
async function insertPatient(userId: number, over: Partial<typeof patients.$inferInsert> = {}, idCard: string | null = PATIENT_ID) {
  const [row] = await t.database.db
    .insert(patients)
    .values({
      userId,
      nameEnc: cipher.encrypt('王大明'),
      idCardEnc: idCard ? cipher.encrypt(idCard) : null,
      personIndex: cipher.blindIndex(idCard ?? `neonate:${Math.random()}`),
      mobileEnc: cipher.encrypt('13811112222'),
      sex: 1,
      birthday: '1980-01-01',
      relation: '本人',
      source: 'idCard',
      ...over,
    })
    .returning()
  return row!.id
}

const escort = (patientId: number, over: Record<string, unknown> = {}) => ({
  patientId,
  name: '李陪护',
  idCard: b64(ESCORT_A),
  mobile: '13922223333',
  relation: '子女',
  ...over,
})

type Headers = { headers: Record<string, string> } | undefined
const addEscort = (c: Headers, body: unknown) =>
  t.app.inject({ method: 'POST', url: '/dld-palm/api/accompany', headers: c?.headers, payload: body as object }).then((r) => envelopeOf<Accompany>(r))
const updateEscort = (c: Headers, body: unknown) =>
  t.app.inject({ method: 'PUT', url: '/dld-palm/api/accompany', headers: c?.headers, payload: body as object }).then((r) => envelopeOf<Accompany>(r))
const getEscort = (c: Headers, id: number | string) =>
  t.app.inject({ method: 'GET', url: `/dld-palm/api/accompany/${id}`, headers: c?.headers }).then((r) => envelopeOf<Accompany>(r))
const listEscorts = (c: Headers, patientId: number | string) =>
  t.app.inject({ method: 'GET', url: `/dld-palm/api/accompany/list/${patientId}`, headers: c?.headers }).then((r) => envelopeOf<Accompany[]>(r))
const unbindEscort = (c: Headers, id: number | string) =>
  t.app.inject({ method: 'POST', url: `/dld-palm/api/accompany/${id}`, headers: c?.headers }).then((r) => envelopeOf<{ id: number }>(r))

const escortRows = (patientId: number) => t.database.db.select().from(accompanies).where(eq(accompanies.patientId, patientId)).orderBy(accompanies.id)

before(async () => {
  t = await startTestApp({ config: { logLevel: 'info' }, logStream: log })
  cipher = new FieldCipher(t.config.dataKey)
  other = await signInUser(t.app)
  othersPatientId = await insertPatient(other.userId)
  const created = await addEscort(other, escort(othersPatientId, { idCard: b64(ESCORT_C) }))
  assert.equal(created.code, 200, created.msg)
  othersEscortId = created.data.id
})
after(() => t.close())

describe('POST /dld-palm/api/accompany', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    const anon = await addEscort(undefined, escort(othersPatientId))
    assert.equal(anon.code, 401)
    assert.equal(anon.data, null)
    const unbound = await addEscort(await signInWechat(t.app), escort(othersPatientId))
    assert.equal(unbound.code, 403)
    assert.equal(unbound.msg, '请先绑定手机号')
  })

  it('refuses bad input with a message and adds nobody', async () => {
    const u = await signInUser(t.app)
    const patientId = await insertPatient(u.userId)
    const cases: [Record<string, unknown>, RegExp | string][] = [
      [{ name: '' }, /请输入陪护人姓名/],
      [{ name: '李'.repeat(21) }, /陪护人姓名不能超过20个字/],
      [{ idCard: '' }, /请输入陪护人身份证号/],
      // 17 characters, a bad check character, a 19th character, an impossible birth date
      [{ idCard: b64(ESCORT_A.slice(0, 17)) }, '陪护人身份证号不正确'],
      [{ idCard: b64(ESCORT_A.slice(0, 17) + (ESCORT_A.endsWith('0') ? '1' : '0')) }, '陪护人身份证号不正确'],
      [{ idCard: b64(`${ESCORT_A}1`) }, '陪护人身份证号不正确'],
      [{ idCard: b64('110101199002301234') }, '陪护人身份证号不正确'],
      [{ idCard: 110101197503152314 }, /^参数错误/],
      [{ idCard: b64(MINOR) }, '陪护人须年满18周岁'],
      [{ idCard: b64(PATIENT_ID) }, '陪护人不能是就诊人本人'],
      [{ mobile: '1392222333' }, /手机号格式不正确/],
      [{ relation: '' }, /请选择陪护人与就诊人的关系/],
      [{ relation: '本人' }, '陪护人不能是就诊人本人'],
      [{ relation: '朋友' }, '请选择陪护人与就诊人的关系'],
      [{ patientId: 'abc' }, /^参数错误/],
    ]
    for (const [over, msg] of cases) {
      const env = await addEscort(u, escort(patientId, over))
      assert.equal(env.code, 400, JSON.stringify(over))
      if (typeof msg === 'string') assert.equal(env.msg, msg, JSON.stringify(over))
      else assert.match(env.msg, msg, JSON.stringify(over))
      assert.equal(env.data, null)
    }
    assert.deepEqual(await escortRows(patientId), [])
  })

  it('refuses an escort for an incomplete patient with the completion text (spec §5)', async () => {
    const u = await signInUser(t.app)
    const noMobile = await insertPatient(u.userId, { mobileEnc: null, source: 'eHealth' })
    const env = await addEscort(u, escort(noMobile))
    assert.equal(env.code, 400)
    assert.equal(env.msg, INCOMPLETE)
    const childWithoutGuardian = await insertPatient(u.userId, { source: 'neonate', birthday: '2024-01-01', relation: '子女' }, null)
    assert.equal((await addEscort(u, escort(childWithoutGuardian))).msg, INCOMPLETE)
    assert.deepEqual(await escortRows(noMobile), [])
  })

  it('answers 2999 for someone else’s patient, or one no longer bound, and adds nobody', async () => {
    const u = await signInUser(t.app)
    const before = await escortRows(othersPatientId)
    const env = await addEscort(u, escort(othersPatientId))
    assert.equal(env.code, 2999)
    assert.equal(env.data, null)
    assert.equal((await addEscort(u, escort(99_999_999))).code, 2999)
    const unbound = await insertPatient(u.userId, { unboundAt: new Date() })
    assert.equal((await addEscort(u, escort(unbound))).code, 2999)
    assert.deepEqual(await escortRows(othersPatientId), before)
  })

  it('answers the escort whole', async () => {
    const u = await signInUser(t.app)
    const patientId = await insertPatient(u.userId)
    const env = await addEscort(u, escort(patientId))
    assert.equal(env.code, 200)
    assert.equal(env.msg, 'success')
    const { id, createdAt, idCard, ...rest } = env.data
    assert.ok(id > 0)
    assert.ok(!Number.isNaN(Date.parse(createdAt)))
    assert.equal(unb64(idCard), ESCORT_A)
    assert.deepEqual(rest, { patientId, name: '李陪护', mobile: '13922223333', relation: '子女' })
  })

  it(`refuses the same person twice (409) and more than ${MAX_ESCORTS} escorts`, async () => {
    const u = await signInUser(t.app)
    const patientId = await insertPatient(u.userId)
    const xId = idCardEndingInX('19700101')
    SENT.add(xId)
    SENT.add(xId.toLowerCase())
    assert.equal((await addEscort(u, escort(patientId, { idCard: b64(xId) }))).code, 200)
    const twice = await addEscort(u, escort(patientId, { idCard: b64(xId), name: '另一个名字' }))
    assert.equal(twice.code, 409)
    assert.equal(twice.msg, '该陪护人已添加')
    assert.equal(twice.data, null)
    // a lower-case x is the same check character, so the same person
    assert.equal((await addEscort(u, escort(patientId, { idCard: b64(xId.toLowerCase()) }))).code, 409)
    assert.equal((await addEscort(u, escort(patientId, { idCard: b64(ESCORT_B) }))).code, 200)
    const third = await addEscort(u, escort(patientId, { idCard: b64(ESCORT_C) }))
    assert.equal(third.code, 400)
    assert.equal(third.msg, `每位就诊人最多添加${MAX_ESCORTS}位陪护人`)
    assert.equal((await escortRows(patientId)).length, MAX_ESCORTS)
  })

  it('concurrent adds keep the limit and refuse the same person twice (a race shows on the PostgreSQL run)', async () => {
    const u = await signInUser(t.app)
    const patientId = await insertPatient(u.userId)
    const people = [ESCORT_A, ESCORT_A, ESCORT_B, ESCORT_B, ESCORT_C, ESCORT_C]
    const envs = await Promise.all(people.map((id) => addEscort(u, escort(patientId, { idCard: b64(id) }))))
    assert.equal(envs.filter((e) => e.code === 200).length, MAX_ESCORTS)
    assert.ok(envs.every((e) => [200, 400, 409].includes(e.code)), JSON.stringify(envs.map((e) => e.msg)))
    const rows = await escortRows(patientId)
    assert.equal(rows.length, MAX_ESCORTS)
    assert.equal(new Set(rows.map((r) => r.personIndex)).size, MAX_ESCORTS)
  })

  it('the same person may escort another patient, and again after being unbound', async () => {
    const u = await signInUser(t.app)
    const first = await insertPatient(u.userId)
    const second = await insertPatient(u.userId, { personIndex: cipher.blindIndex(ESCORT_B), idCardEnc: cipher.encrypt(ESCORT_B) })
    const a = await addEscort(u, escort(first))
    assert.equal(a.code, 200)
    assert.equal((await addEscort(u, escort(second))).code, 200)
    assert.equal((await unbindEscort(u, a.data.id)).code, 200)
    assert.equal((await addEscort(u, escort(first))).code, 200)
  })
})

describe('PUT /dld-palm/api/accompany', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    const body = { id: othersEscortId, mobile: '13500000000', relation: '配偶' }
    assert.equal((await updateEscort(undefined, body)).code, 401)
    assert.equal((await updateEscort(await signInWechat(t.app), body)).code, 403)
  })

  it('refuses bad input and changes nothing', async () => {
    const u = await signInUser(t.app)
    const patientId = await insertPatient(u.userId)
    const { id } = (await addEscort(u, escort(patientId))).data
    const before = await escortRows(patientId)
    const cases: [Record<string, unknown>, RegExp | string][] = [
      [{ mobile: '123' }, /手机号格式不正确/],
      [{ relation: '本人' }, '陪护人不能是就诊人本人'],
      [{ relation: '同事' }, '请选择陪护人与就诊人的关系'],
      [{ relation: 'x'.repeat(11) }, /请选择陪护人与就诊人的关系/],
      [{ id: 'one' }, /^参数错误/],
    ]
    for (const [over, msg] of cases) {
      const env = await updateEscort(u, { id, mobile: '13500000000', relation: '配偶', ...over })
      assert.equal(env.code, 400, JSON.stringify(over))
      if (typeof msg === 'string') assert.equal(env.msg, msg)
      else assert.match(env.msg, msg)
    }
    assert.deepEqual(await escortRows(patientId), before)
  })

  it('answers 2999 for someone else’s escort and changes nothing', async () => {
    const u = await signInUser(t.app)
    const before = await escortRows(othersPatientId)
    const env = await updateEscort(u, { id: othersEscortId, mobile: '13500000000', relation: '配偶' })
    assert.equal(env.code, 2999)
    assert.equal(env.data, null)
    assert.deepEqual(await escortRows(othersPatientId), before)
  })

  it('changes mobile and relation; name and identity number stay as bound', async () => {
    const u = await signInUser(t.app)
    const patientId = await insertPatient(u.userId)
    const { id } = (await addEscort(u, escort(patientId))).data
    const env = await updateEscort(u, { id, mobile: '13500000000', relation: '配偶', name: '改名', idCard: b64(ESCORT_B) })
    assert.equal(env.code, 200)
    assert.equal(env.data.mobile, '13500000000')
    assert.equal(env.data.relation, '配偶')
    assert.equal(env.data.name, '李陪护')
    assert.equal(unb64(env.data.idCard), ESCORT_A)
    assert.deepEqual((await getEscort(u, id)).data, env.data)
  })
})

describe('GET /dld-palm/api/accompany/:id', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    assert.equal((await getEscort(undefined, othersEscortId)).code, 401)
    assert.equal((await getEscort(await signInWechat(t.app), othersEscortId)).code, 403)
  })

  it('refuses an id that is not a number', async () => {
    const u = await signInUser(t.app)
    assert.equal((await getEscort(u, 'abc')).code, 400)
  })

  it('answers 2999 with nothing for someone else’s escort, an unbound one, or one of an unbound patient', async () => {
    const u = await signInUser(t.app)
    const env = await getEscort(u, othersEscortId)
    assert.equal(env.code, 2999)
    assert.equal(env.data, null)
    const patientId = await insertPatient(u.userId)
    const { id } = (await addEscort(u, escort(patientId))).data
    await unbindEscort(u, id)
    assert.equal((await getEscort(u, id)).code, 2999)
    const kept = (await addEscort(u, escort(patientId))).data
    await t.database.db.update(patients).set({ unboundAt: new Date() }).where(eq(patients.id, patientId))
    assert.equal((await getEscort(u, kept.id)).code, 2999)
  })

  it('answers the escort whole, for the edit page', async () => {
    const u = await signInUser(t.app)
    const patientId = await insertPatient(u.userId)
    const created = (await addEscort(u, escort(patientId))).data
    const env = await getEscort(u, created.id)
    assert.equal(env.code, 200)
    assert.deepEqual(env.data, created)
    assert.equal(env.data.name, '李陪护')
    assert.equal(unb64(env.data.idCard), ESCORT_A)
    assert.equal(env.data.mobile, '13922223333')
  })
})

describe('GET /dld-palm/api/accompany/list/:id', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    assert.equal((await listEscorts(undefined, othersPatientId)).code, 401)
    assert.equal((await listEscorts(await signInWechat(t.app), othersPatientId)).code, 403)
  })

  it('answers 2999 for someone else’s patient, and 400 for an id that is not a number', async () => {
    const u = await signInUser(t.app)
    const env = await listEscorts(u, othersPatientId)
    assert.equal(env.code, 2999)
    assert.equal(env.data, null)
    assert.equal((await listEscorts(u, 'abc')).code, 400)
  })

  it('lists the patient’s current escorts, oldest first, masked', async () => {
    const u = await signInUser(t.app)
    const patientId = await insertPatient(u.userId)
    assert.deepEqual((await listEscorts(u, patientId)).data, [])
    const a = (await addEscort(u, escort(patientId))).data
    const b = (await addEscort(u, escort(patientId, { name: '欧阳娜娜', idCard: b64(ESCORT_B), mobile: '13700001111' }))).data
    const env = await listEscorts(u, patientId)
    assert.equal(env.code, 200)
    assert.deepEqual(
      env.data.map((e) => e.id),
      [a.id, b.id],
    )
    assert.equal(env.data[0]!.name, '李*护')
    assert.equal(unb64(env.data[0]!.idCard), `${ESCORT_A.slice(0, 6)}********${ESCORT_A.slice(-4)}`)
    assert.equal(env.data[0]!.mobile, '139****3333')
    assert.equal(env.data[1]!.name, '欧**娜')
    await unbindEscort(u, a.id)
    assert.deepEqual(
      (await listEscorts(u, patientId)).data.map((e) => e.id),
      [b.id],
    )
  })
})

describe('POST /dld-palm/api/accompany/:id', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    assert.equal((await unbindEscort(undefined, othersEscortId)).code, 401)
    assert.equal((await unbindEscort(await signInWechat(t.app), othersEscortId)).code, 403)
  })

  it('answers 2999 for someone else’s escort and unbinds nothing', async () => {
    const u = await signInUser(t.app)
    const env = await unbindEscort(u, othersEscortId)
    assert.equal(env.code, 2999)
    assert.equal(env.data, null)
    assert.equal((await getEscort(other, othersEscortId)).code, 200)
    assert.equal((await unbindEscort(u, 'abc')).code, 400)
  })

  it('unbinds once; the row stays for the passes that name it', async () => {
    const u = await signInUser(t.app)
    const patientId = await insertPatient(u.userId)
    const { id } = (await addEscort(u, escort(patientId))).data
    const env = await unbindEscort(u, id)
    assert.equal(env.code, 200)
    assert.deepEqual(env.data, { id })
    assert.equal((await unbindEscort(u, id)).code, 2999)
    const [row] = await escortRows(patientId)
    assert.ok(row!.unboundAt)
  })
})

describe('identity numbers', () => {
  it('are never written to the log', () => {
    assert.match(log.text, /\/dld-palm\/api\/accompany/)
    for (const id of SENT) {
      assert.ok(!log.text.includes(id), `log contains ${id.slice(0, 6)}…`)
      assert.ok(!log.text.includes(b64(id)), `log contains the base64 of ${id.slice(0, 6)}…`)
    }
  })

  it('are not readable in the escorts table', async () => {
    const rows = await t.database.db.select().from(accompanies)
    assert.ok(rows.length > 5)
    const raw = JSON.stringify(rows)
    for (const id of SENT) assert.ok(!raw.includes(id), id.slice(0, 6))
    assert.ok(!raw.includes('李陪护'))
    assert.ok(!raw.includes('13922223333'))
  })
})
