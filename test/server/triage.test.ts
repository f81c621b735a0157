/**
 * The doctor AI agent (智能导诊), `POST /dld-palm/api/ai/triage`: the built-in rules on the seeded demo hospitals, and
 * the model path against a local imitation of an OpenAI-compatible endpoint.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { and, asc, eq, isNull } from 'drizzle-orm'
import { departments, doctors, hospitals } from '../../server/src/db/schema'
import { openAiCompatibleModel } from '../../server/src/plugins/providers/ai'
import type { TriageAnswer } from '../../types/api/triage'
import { startTestApp, signInUser, signInWechat, envelopeOf, randomIp, LogCapture, DEMO, type Envelope, type TestApp, assertBadInput } from './harness'

const URL_ = '/dld-palm/api/ai/triage'
const DISCLAIMER = 'AI导诊仅供参考，不能替代医生的诊断和治疗'
const REFUSAL = /药物必须由医生面诊后开具处方/
const DOSE = /\d+\s*(mg|毫克|片|粒|ml)/i

type Caller = { headers: Record<string, string> }

const log = new LogCapture()
let t: TestApp
let patient: Caller

before(async () => {
  t = await startTestApp({ config: { logLevel: 'info' }, logStream: log })
  patient = await signInUser(t.app)
})
after(() => t.close())

async function ask(app: TestApp, body: Record<string, unknown>, caller: Caller | null = patient): Promise<Envelope<TriageAnswer>> {
  const res = await app.app.inject({ method: 'POST', url: URL_, headers: caller?.headers ?? {}, remoteAddress: randomIp(), payload: body })
  return envelopeOf<TriageAnswer>(res)
}

/** Questions asked so far by `patient`: each patient here asks at most 20, within the hour's limit on 智能导诊 (limits.test.ts). */
let asked = 0

/** A successful answer, as the page would show it: never a dose, never a doctor, always the disclaimer. */
async function answer(text: string, hospitalCode: string = DEMO.both.code, app: TestApp = t): Promise<TriageAnswer> {
  if (++asked % 20 === 0) patient = await signInUser(t.app)
  const env = await ask(app, { hospitalCode, text })
  assert.equal(env.code, 200, `${text}: ${env.code} ${env.msg}`)
  const a = env.data
  assert.equal(a.disclaimer, DISCLAIMER)
  for (const shown of [a.reply, ...a.departments.map((d) => d.reason)]) {
    assert.doesNotMatch(shown, DOSE, `a dose in “${shown}”`)
    assert.doesNotMatch(shown, /我是(一名)?(医生|大夫)/)
  }
  assert.ok(a.departments.length <= 3)
  return a
}

const names = (a: TriageAnswer) => a.departments.map((d) => d.deptName)


async function hospitalIdOf(code: string, app: TestApp = t) {
  const [h] = await app.database.db.select({ id: hospitals.id }).from(hospitals).where(eq(hospitals.code, code))
  return h!.id
}

/** The hospital's bookable department of this name, and its doctors most senior first (read independently). */
async function deptAt(code: string, name: string, app: TestApp = t) {
  const db = app.database.db
  const [dept] = await db
    .select()
    .from(departments)
    .where(and(eq(departments.hospitalId, await hospitalIdOf(code, app)), eq(departments.name, name)))
  assert.ok(dept && dept.parentId !== null, `${code} has a bookable ${name}`)
  const staff = await db.select().from(doctors).where(eq(doctors.deptId, dept.id)).orderBy(asc(doctors.sort), asc(doctors.id))
  return { dept, staff }
}

describe('POST /dld-palm/api/ai/triage', () => {
  it('answers 401 without a sign-in and 403 for an identity that has not bound a mobile', async () => {
    const body = { hospitalCode: DEMO.both.code, text: '头痛' }
    const anonymous = await ask(t, body, null)
    assert.equal(anonymous.code, 401)
    assert.equal(anonymous.data, null)
    const unbound = await ask(t, body, await signInWechat(t.app))
    assert.equal(unbound.code, 403)
    assert.equal(unbound.msg, '请先绑定手机号')
    assert.equal(unbound.data, null)
  })

  it('refuses an empty or too long description and an unknown hospital, in words a patient understands', async () => {
    const code = DEMO.both.code
    assertBadInput(await ask(t, { hospitalCode: code }), /^参数错误：text/)
    assertBadInput(await ask(t, { hospitalCode: code, text: '' }), /请描述您哪里不舒服/)
    assertBadInput(await ask(t, { hospitalCode: code, text: '   \n ' }), /请描述您哪里不舒服/)
    assertBadInput(await ask(t, { hospitalCode: code, text: '头'.repeat(201) }), /描述不能超过200个字/)
    assertBadInput(await ask(t, { text: '头痛' }), /^参数错误：hospitalCode/)
    assertBadInput(await ask(t, { hospitalCode: '99999', text: '头痛' }), /^没有找到该医院，请重新选择医院$/)
    // 200 characters is still a description; an emoji is one character, not two
    assert.deepEqual(names(await answer(`头痛${'。'.repeat(198)}`)), ['神经内科'])
    assert.deepEqual(names(await answer(`头痛${'😣'.repeat(198)}`)), ['神经内科'])
  })

  it('recommends the hospital’s own department with up to three of its doctors: 胸闷心慌 -> 心血管内科', async () => {
    const a = await answer('最近总是胸闷心慌')
    const { dept, staff } = await deptAt(DEMO.both.code, '心血管内科')
    assert.equal(a.emergency, false)
    assert.equal(a.source, 'offline')
    assert.equal(a.departments[0]!.id, dept.id)
    assert.equal(a.departments[0]!.deptName, '心血管内科')
    assert.match(a.departments[0]!.reason, /胸闷/)
    assert.match(a.reply, /心血管内科/)
    assert.ok(staff.length > 0)
    assert.deepEqual(
      a.departments[0]!.doctors,
      staff.slice(0, 3).map((d) => ({ id: d.id, doctorName: d.name, title: d.title, avatar: d.avatar || `/static/doctors/${d.id}.svg` })),
    )
  })

  it('maps common complaints onto the names this hospital uses, a child first to paediatrics', async () => {
    assert.deepEqual(names(await answer('咳嗽发烧三天')), ['呼吸与危重症医学科'])
    assert.deepEqual(names(await answer('肚子疼，还拉肚子')), ['消化内科'])
    assert.deepEqual(names(await answer('头晕头痛')), ['神经内科'])
    assert.deepEqual(names(await answer('皮肤起红疹，很痒')), ['皮肤科'])
    assert.deepEqual(names(await answer('尿频尿痛')), ['泌尿外科'])
    assert.deepEqual(names(await answer('摔了一跤，膝盖关节痛')), ['骨科'])
    assert.deepEqual(names(await answer('月经不调')), ['妇科'])
    assert.deepEqual(names(await answer('怀孕三个月了想产检')), ['产科'])
    assert.deepEqual(names(await answer('眼睛看不清')), ['眼科'])
    assert.deepEqual(names(await answer('牙疼好几天')), ['口腔科'])
    assert.deepEqual(names(await answer('耳朵疼，鼻塞')), ['耳鼻咽喉头颈外科'])
    assert.deepEqual(names(await answer('孩子发烧咳嗽两天了')), ['儿内科', '呼吸与危重症医学科'])
    // a complaint denied is not a complaint; an amount that is not a dose is not a medicine question
    assert.deepEqual(names(await answer('没有发热，就是牙疼')), ['口腔科'])
    const thirst = await answer('每天喝水2000ml还是口渴')
    assert.deepEqual(names(thirst), ['内分泌科'])
    assert.doesNotMatch(thirst.reply, REFUSAL)
  })

  it('uses the hospital’s own diseases, and only departments that hospital has', async () => {
    // not in the built-in table: found through the hospital's diseases (name -> department)
    const a = await answer('体检说我可能是肠易激综合征')
    assert.deepEqual(names(a), ['消化内科'])
    assert.match(a.departments[0]!.reason, /肠易激综合征/)
    // at most three, each one a bookable department of the hospital asked about, with that hospital's doctors
    const many = await answer('头痛，咳嗽，肚子疼，皮肤痒，牙疼')
    assert.equal(many.departments.length, 3)
    for (const d of many.departments) {
      const { dept, staff } = await deptAt(DEMO.both.code, d.deptName)
      assert.equal(d.id, dept.id)
      assert.deepEqual(
        d.doctors.map((x) => x.id),
        staff.slice(0, 3).map((x) => x.id),
      )
    }
    // the internet hospital 10412 has no 口腔科 and no general clinic: it asks for more
    const elsewhere = await answer('牙疼好几天', DEMO.internet.code)
    assert.deepEqual(elsewhere.departments, [])
    assert.match(elsewhere.reply, /请补充更多信息/)
    // and its 心血管内科 is its own, not 10392's
    const heart = await answer('心慌', DEMO.internet.code)
    assert.equal(heart.departments[0]!.id, (await deptAt(DEMO.internet.code, '心血管内科')).dept.id)
  })

  it('asks for more detail when nothing matches, or suggests the general clinic where there is one', async () => {
    const vague = await answer('你好')
    assert.deepEqual(vague.departments, [])
    assert.equal(vague.emergency, false)
    assert.match(vague.reply, /请补充更多信息/)

    // 10388 gets a general clinic (and an emergency department, for the next test)
    const db = t.database.db
    const hospitalId = await hospitalIdOf(DEMO.palm.code)
    const [group] = await db.select().from(departments).where(and(eq(departments.hospitalId, hospitalId), isNull(departments.parentId))).limit(1)
    await db.insert(departments).values([
      { hospitalId, parentId: group!.id, name: '全科医学科' },
      { hospitalId, parentId: group!.id, name: '急诊科' },
    ])
    const general = await answer('说不上来哪里不对劲', DEMO.palm.code)
    assert.deepEqual(names(general), ['全科医学科'])
    assert.match(general.reply, /全科医学科/)
  })

  it('red flags answer emergency: call 120 or go to the emergency department now', async () => {
    for (const text of ['胸痛，满头大汗', '胸口痛得喘不上气', '我爸突然昏迷了', '手被割伤大出血', '孩子发高烧后抽搐', '活着没意思，想自杀']) {
      const a = await answer(text)
      assert.equal(a.emergency, true, text)
      assert.match(a.reply, /120/, text)
      assert.match(a.reply, /急诊/, text)
      // 10392 has no emergency department to book: nothing that would make the patient wait for an appointment
      assert.deepEqual(a.departments, [], text)
    }
    // where the hospital has one, that is the department
    assert.deepEqual(names(await answer('胸痛大汗', DEMO.palm.code)), ['急诊科'])
    // chest pain alone, or with the red flag denied, is not an emergency
    for (const text of ['胸痛两天了', '胸闷，没有出汗']) {
      const a = await answer(text)
      assert.equal(a.emergency, false, text)
      assert.deepEqual(names(a), ['心血管内科'], text)
    }
  })

  it('never prescribes: a question about medicines or doses is refused, with departments when symptoms were given', async () => {
    const bare = await answer('吃什么药')
    assert.match(bare.reply, REFUSAL)
    assert.deepEqual(bare.departments, [])
    assert.equal(bare.emergency, false)

    const withSymptom = await answer('头痛得厉害，布洛芬吃几片合适？')
    assert.match(withSymptom.reply, REFUSAL)
    assert.deepEqual(names(withSymptom), ['神经内科'])
    assert.ok(!withSymptom.reply.includes('布洛芬'), 'the medicine is not named back')

    for (const text of ['发烧39度，阿莫西林一次吃多少毫克', '降压药的剂量是多少', '能给我开个处方吗', '咳嗽，一次吃2片可以吗']) {
      const a = await answer(text)
      assert.match(a.reply, REFUSAL, text)
    }
    // an emergency stays an emergency, and is still refused the medicine
    const both = await answer('胸痛大汗，吃什么药')
    assert.equal(both.emergency, true)
    assert.match(both.reply, /120/)
    assert.match(both.reply, REFUSAL)
  })

  it('answers with the built-in rules when no model is configured', () => {
    assert.equal(t.app.ctx.providers.ai.kind, 'offline')
  })
})

// ---- the model path ---------------------------------------------------------------------------------------------

/** A stand-in for an OpenAI-compatible chat endpoint: records each call, answers as the test says. */
function modelEndpoint() {
  const calls: { path: string; authorization: string | undefined; body: any }[] = []
  let respond: (res: ServerResponse) => void = (res) => res.end()
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = ''
      req.on('data', (c) => (text += c))
      req.on('end', () => resolve(text))
    })
  const server = createServer(async (req, res) => {
    calls.push({ path: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(await read(req)) })
    respond(res)
  })
  const completion = (content: string) => (res: ServerResponse) => {
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }))
  }
  return {
    calls,
    server,
    /** The model's message content, as it would write it. */
    answers: (content: string) => (respond = completion(content)),
    answersJson: (value: unknown) => (respond = completion(JSON.stringify(value))),
    fails: (status: number) => (respond = (res) => res.writeHead(status).end('{"error":{"message":"overloaded"}}')),
    /** Never answers. */
    hangs: () => (respond = () => undefined),
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

describe('POST /dld-palm/api/ai/triage with a model (AI_BASE_URL)', () => {
  const model = modelEndpoint()
  const modelLog = new LogCapture()
  let m: TestApp
  let caller: Caller
  /** Everything a patient wrote to the model app, to look for in its log. */
  const written: string[] = []

  before(async () => {
    const baseUrl = await model.listen()
    m = await startTestApp({ config: { logLevel: 'info', ai: { baseUrl, apiKey: 'test-key', model: 'triage-test' } }, logStream: modelLog })
    caller = await signInUser(m.app)
  })
  after(async () => {
    await m.close()
    await model.close()
  })

  const askModel = async (text: string, app: TestApp = m, who: Caller = caller) => {
    written.push(text)
    const res = await app.app.inject({ method: 'POST', url: URL_, headers: who.headers, remoteAddress: randomIp(), payload: { hospitalCode: DEMO.both.code, text } })
    const env = envelopeOf<TriageAnswer>(res)
    assert.equal(env.code, 200, `${env.code} ${env.msg}`)
    assert.equal(env.data.disclaimer, DISCLAIMER)
    return env.data
  }

  it('is the provider the configuration selects', () => {
    assert.equal(m.app.ctx.providers.ai.kind, 'model')
  })

  it('asks with the hospital’s departments and answers the model’s choice, dropping a department the hospital lacks', async () => {
    model.calls.length = 0
    model.answersJson({
      departments: [
        { name: '肿瘤科', reason: '需排除肿瘤' },
        { name: '神经内科', reason: '反复头晕需神经系统评估' },
        { name: '心血管内科', reason: '心慌需排查心律问题' },
      ],
      emergency: false,
      reply: '建议先到神经内科就诊，必要时再看心血管内科。',
    })
    const a = await askModel('一站起来就头晕眼花还心慌')
    assert.equal(a.source, 'model')
    assert.equal(a.reply, '建议先到神经内科就诊，必要时再看心血管内科。')
    assert.deepEqual(names(a), ['神经内科', '心血管内科'])
    assert.equal(a.departments[0]!.reason, '反复头晕需神经系统评估')
    const { dept, staff } = await deptAt(DEMO.both.code, '神经内科', m)
    assert.equal(a.departments[0]!.id, dept.id)
    assert.deepEqual(
      a.departments[0]!.doctors.map((d) => d.id),
      staff.slice(0, 3).map((d) => d.id),
    )

    // what was sent: POST {base}/chat/completions with the key, the model, the department list and the words
    assert.equal(model.calls.length, 1)
    const call = model.calls[0]!
    assert.equal(call.path, '/v1/chat/completions')
    assert.equal(call.authorization, 'Bearer test-key')
    assert.equal(call.body.model, 'triage-test')
    const [system, user] = call.body.messages as { role: string; content: string }[]
    assert.equal(system!.role, 'system')
    assert.match(system!.content, /心血管内科、呼吸与危重症医学科、消化内科/)
    assert.match(system!.content, /JSON/)
    assert.ok(!system!.content.includes('肿瘤科'))
    assert.deepEqual(user, { role: 'user', content: '一站起来就头晕眼花还心慌' })
  })

  it('reads JSON the model wrapped in a code fence', async () => {
    model.answers('```json\n{"departments":[{"name":"皮肤科","reason":"皮疹瘙痒"}],"emergency":false,"reply":"建议到皮肤科就诊。"}\n```')
    const a = await askModel('胳膊上起了一片红点')
    assert.equal(a.source, 'model')
    assert.deepEqual(names(a), ['皮肤科'])
  })

  it('answers with the built-in rules when the model answers garbage, fails, or names no department of the hospital', async () => {
    model.answers('对不起，我不太确定。')
    const garbage = await askModel('最近老是胸闷心慌怎么回事')
    assert.equal(garbage.source, 'offline')
    assert.deepEqual(names(garbage), ['心血管内科'])

    model.answersJson({ departments: 'cardiology', emergency: 'no', reply: 42 })
    assert.equal((await askModel('夜里胸闷心慌睡不好')).source, 'offline')

    model.fails(503)
    const failed = await askModel('晚上心慌得厉害')
    assert.equal(failed.source, 'offline')
    assert.deepEqual(names(failed), ['心血管内科'])

    model.answersJson({ departments: [{ name: '肿瘤科', reason: '排查' }], emergency: false, reply: '建议到肿瘤科就诊。' })
    const nowhere = await askModel('早上起来心慌胸闷')
    assert.equal(nowhere.source, 'offline')
    assert.ok(!nowhere.reply.includes('肿瘤科'))
  })

  it('drops a model reply that names a dose or a medicine, answering with the built-in rules', async () => {
    model.answersJson({ departments: [{ name: '神经内科', reason: '头痛' }], emergency: false, reply: '可以先吃布洛芬 300mg 缓解，再到神经内科就诊。' })
    const dose = await askModel('头疼了一整天')
    assert.equal(dose.source, 'offline')
    assert.doesNotMatch(dose.reply, DOSE)
    assert.ok(!dose.reply.includes('布洛芬'))
    assert.deepEqual(names(dose), ['神经内科'])

    model.answersJson({ departments: [{ name: '神经内科', reason: '每次口服2片止痛药' }], emergency: false, reply: '建议到神经内科就诊。' })
    const inReason = await askModel('头疼好几天了')
    assert.equal(inReason.source, 'offline')
    assert.doesNotMatch(inReason.departments[0]!.reason, DOSE)
  })

  it('a model that sees an emergency gets the fixed emergency answer', async () => {
    model.answersJson({ departments: [{ name: '心血管内科', reason: '胸痛' }], emergency: true, reply: '情况紧急。' })
    const a = await askModel('胸口一阵阵发紧')
    assert.equal(a.emergency, true)
    assert.equal(a.source, 'model')
    assert.match(a.reply, /120/)
    assert.deepEqual(a.departments, [])
  })

  it('red flags and medicine questions are answered without asking the model', async () => {
    model.answersJson({ departments: [{ name: '心血管内科', reason: '胸痛' }], emergency: false, reply: '建议到心血管内科就诊。' })
    model.calls.length = 0
    const emergency = await askModel('胸痛，全身冷汗')
    assert.equal(emergency.emergency, true)
    assert.equal(emergency.source, 'offline')
    const medicine = await askModel('心慌吃什么药好')
    assert.match(medicine.reply, REFUSAL)
    assert.deepEqual(names(medicine), ['心血管内科'])
    assert.equal(model.calls.length, 0, 'nothing was sent to the model')
  })

  it('gives up on a model that does not answer in time and answers with the built-in rules', async () => {
    model.hangs()
    const baseUrl = `http://127.0.0.1:${(model.server.address() as AddressInfo).port}/v1`
    const slow = await startTestApp({
      config: { logLevel: 'info' },
      providers: { ai: openAiCompatibleModel({ baseUrl, apiKey: '', model: 'triage-test' }, { timeoutMs: 300 }) },
      logStream: modelLog,
    })
    try {
      const a = await askModel('心慌了一下午', slow, await signInUser(slow.app))
      assert.equal(a.source, 'offline')
      assert.deepEqual(names(a), ['心血管内科'])
      assert.match(modelLog.text, /no answer within 300 ms/)
    } finally {
      await slow.close()
    }
  })

  it('logs each failure without what the patient wrote', () => {
    assert.match(modelLog.text, /AI triage model failed/)
    assert.match(modelLog.text, /HTTP 503/)
    assert.match(modelLog.text, /mentions a medicine or a dose/)
    for (const text of written) assert.ok(!modelLog.text.includes(text), `the log holds “${text}”`)
  })
})

describe('logs of the built-in rules', () => {
  it('hold none of the patients’ words', () => {
    assert.match(log.text, /\/dld-palm\/api\/ai\/triage/)
    for (const text of ['最近总是胸闷心慌', '活着没意思，想自杀', '体检说我可能是肠易激综合征']) assert.ok(!log.text.includes(text), `the log holds “${text}”`)
  })
})
