/**
 * The health tools, `GET /dld-hospital/healthTools/...` (spec §7 Tools and misc): 乙肝两对半自测, 宝宝血型 and
 * 化验单解读. Open to anyone; a bad question answers 400 with a Chinese message that names what to choose.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { BabyBloodResult, CheckItemContent, CheckItemList, HbSurveyResult } from '../../types/api/healthTools'
import { assertBadInput, callApi, signInUser, startTestApp, type TestApp } from './harness'

const API = '/dld-hospital/healthTools'
const DISCLAIMER = '结果仅供参考，不能替代医生诊断'

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

const get = <T = any>(path: string, query: Record<string, string> = {}, caller?: { headers: Record<string, string> }) =>
  callApi<T>(t.app, 'GET', `${API}/${path}`, { query, caller })

const MARKERS = ['HBsAg', 'HBsAb', 'HBeAg', 'HBeAb', 'HBcAb'] as const
/** The five results from a pattern such as '10101' (1 positive), in lab-sheet order. */
const hb = (pattern: string) => Object.fromEntries(MARKERS.map((m, i) => [m, pattern[i] === '1' ? 'positive' : 'negative']))

describe('GET /dld-hospital/healthTools/hbSelfSurvey', () => {
  it('answers anyone, signed in or not: HBsAg, HBeAg and 抗-HBc positive is 大三阳, an infection', async () => {
    const anonymous = await get<HbSurveyResult>('hbSelfSurvey', hb('10101'))
    assert.equal(anonymous.code, 200, anonymous.msg)
    const r = anonymous.data
    assert.equal(r.title, '大三阳')
    assert.equal(r.category, 'infected')
    assert.equal(r.categoryText, '乙肝病毒感染')
    assert.equal(r.rare, false)
    assert.equal(r.disclaimer, DISCLAIMER)
    assert.deepEqual(
      r.markers.map((m) => [m.abbr, m.resultText]),
      [
        ['HBsAg', '阳性（+）'],
        ['抗-HBs', '阴性（-）'],
        ['HBeAg', '阳性（+）'],
        ['抗-HBe', '阴性（-）'],
        ['抗-HBc', '阳性（+）'],
      ],
    )
    assert.ok(r.advice.some((a) => a.includes('HBV DNA')), 'advises the viral load test')

    const patient = await signInUser(t.app)
    assert.deepEqual((await get('hbSelfSurvey', hb('10101'), patient)).data, r)
  })

  it('names the well-known patterns', async () => {
    const cases: [string, string, string][] = [
      ['00000', '五项全阴', 'susceptible'],
      ['01000', '表面抗体阳性', 'immune'],
      ['01001', '既往感染，已康复', 'immune'],
      ['01011', '既往感染，已康复', 'immune'],
      ['00001', '单纯核心抗体阳性', 'past'],
      ['00011', 'e抗体、核心抗体阳性', 'past'],
      ['10011', '小三阳', 'infected'],
      ['10001', '表面抗原、核心抗体阳性', 'infected'],
      ['10100', '急性感染早期', 'infected'],
    ]
    for (const [pattern, title, category] of cases) {
      const env = await get<HbSurveyResult>('hbSelfSurvey', hb(pattern))
      assert.equal(env.code, 200, `${pattern}: ${env.msg}`)
      assert.equal(env.data.title, title, pattern)
      assert.equal(env.data.category, category, pattern)
    }
    assert.match((await get<HbSurveyResult>('hbSelfSurvey', hb('00000'))).data.advice[0]!, /接种乙肝疫苗/)
    assert.match((await get<HbSurveyResult>('hbSelfSurvey', hb('00011'))).data.meaning, /窗口期/)
  })

  it('answers every one of the 32 combinations; the rare ones say 少见模式，建议复查并咨询医生', async () => {
    let rare = 0
    for (let n = 0; n < 32; n++) {
      const pattern = n.toString(2).padStart(5, '0')
      const env = await get<HbSurveyResult>('hbSelfSurvey', hb(pattern))
      assert.equal(env.code, 200, `${pattern}: ${env.msg}`)
      assert.ok(env.data.meaning && env.data.advice.length > 0, pattern)
      if (env.data.rare) {
        rare++
        assert.equal(env.data.title, '少见模式')
        assert.equal(env.data.meaning, '少见模式，建议复查并咨询医生。')
      }
    }
    assert.equal(rare, 20, '12 well-known patterns, 20 rare ones')
    // HBsAg and 抗-HBs both positive is rare
    assert.equal((await get<HbSurveyResult>('hbSelfSurvey', hb('11001'))).data.rare, true)
  })

  it('a missing or unknown result answers 400 naming the marker to choose', async () => {
    const { HBeAg: _left, ...four } = hb('10101')
    assertBadInput(await get('hbSelfSurvey', four), /请选择乙肝e抗原（HBeAg）是阳性还是阴性/)
    assertBadInput(await get('hbSelfSurvey', { ...hb('10101'), HBsAg: 'yes' }), /请选择乙肝表面抗原（HBsAg）是阳性还是阴性/)
    assertBadInput(await get('hbSelfSurvey'), /^参数错误：/)
  })
})

describe('GET /dld-hospital/healthTools/babyBlood', () => {
  const blood = (fatherAbo: string, fatherRh: string, motherAbo: string, motherRh: string) =>
    get<BabyBloodResult>('babyBlood', { fatherAbo, fatherRh, motherAbo, motherRh })
  const shares = (chances: { type: string; percentText: string }[]) => Object.fromEntries(chances.map((c) => [c.type, c.percentText]))

  it('O × O gives O for certain; Rh- × Rh- gives Rh- for certain; the others are 不可能', async () => {
    const env = await blood('O', 'negative', 'O', 'negative')
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(shares(env.data.abo), { A: '不可能', B: '不可能', O: '100%', AB: '不可能' })
    assert.deepEqual(shares(env.data.rh), { positive: '不可能', negative: '100%' })
    assert.deepEqual(
      env.data.abo.filter((c) => c.possible).map((c) => [c.label, c.probability]),
      [['O型', 1]],
    )
    assert.equal(env.data.disclaimer, DISCLAIMER)
    assert.match(env.data.assumption, /中国人群/)
    assert.ok(env.data.notes.some((n) => n.includes('亲子关系')))
  })

  it('AB × O gives A or B, half each; an Rh-negative mother of a possibly Rh-positive child is told about 溶血', async () => {
    const env = await blood('AB', 'positive', 'O', 'negative')
    assert.equal(env.code, 200, env.msg)
    assert.deepEqual(shares(env.data.abo), { A: '50%', B: '50%', O: '不可能', AB: '不可能' })
    // a Rh+ father is Dd about 1 time in 9 in China: the child is Rh- about 5 times in 100
    assert.deepEqual(shares(env.data.rh), { positive: '约95%', negative: '约5%' })
    assert.ok(env.data.notes.some((n) => n.includes('抗D免疫球蛋白')))
    assert.ok(env.data.notes.some((n) => n.includes('ABO溶血')), 'an O mother of an A or B child')
  })

  it('A × A: O is possible but less likely than A (a type-A parent is AO far more often than AA in China)', async () => {
    const env = await blood('A', 'positive', 'A', 'positive')
    const [a, b, o, ab] = env.data.abo
    assert.equal(a!.percentText, '约82%')
    assert.equal(o!.percentText, '约18%')
    assert.equal(b!.possible || ab!.possible, false)
    assert.equal(env.data.rh[1]!.percentText, '约0.3%')
    assert.ok(Math.abs(env.data.abo.reduce((s, c) => s + c.probability, 0) - 1) < 1e-9)
  })

  it('a type the tool does not know, or a parent left out, answers 400 naming what to choose', async () => {
    assertBadInput(await blood('C', 'positive', 'O', 'positive'), /请选择父亲的ABO血型（A、B、O或AB）/)
    assertBadInput(await blood('A', 'positive', 'O', '+'), /请选择母亲的Rh血型（阳性或阴性）/)
    assertBadInput(await get('babyBlood', { fatherAbo: 'A', fatherRh: 'positive', motherRh: 'positive' }), /请选择母亲的ABO血型/)
  })
})

describe('GET /dld-hospital/healthTools/checklistitems', () => {
  it('lists about 40 common items by category, each with an abbreviation, a unit where it has one and a reference range', async () => {
    const env = await get<CheckItemList>('checklistitems')
    assert.equal(env.code, 200, env.msg)
    const names = env.data.categories.map((c) => c.name)
    for (const c of ['血常规', '肝功能', '肾功能', '血脂', '血糖', '尿常规', '甲状腺功能']) assert.ok(names.includes(c), c)
    const items = env.data.categories.flatMap((c) => c.items)
    assert.ok(items.length >= 35 && items.length <= 45, `${items.length} items`)
    assert.equal(new Set(items.map((i) => i.id)).size, items.length, 'ids are unique')
    for (const i of items) {
      assert.ok(i.name && i.abbr && i.reference, i.id)
      assert.ok(i.qualitative ? i.unit === '' : i.unit !== '' || i.id === 'usg', `${i.id}: a unit unless read as 阴性 / 阳性`)
    }
    const alt = items.find((i) => i.abbr === 'ALT')!
    assert.deepEqual([alt.name, alt.unit, alt.reference], ['丙氨酸氨基转移酶', 'U/L', '男 9–50；女 7–40'])
    assert.match(env.data.note, /以您检验单上标注的参考范围为准/)
    assert.equal(env.data.disclaimer, DISCLAIMER)
  })
})

describe('GET /dld-hospital/healthTools/itemcontent', () => {
  it('explains one item: what it measures, high, low, what to do', async () => {
    const env = await get<CheckItemContent>('itemcontent', { id: 'alt' })
    assert.equal(env.code, 200, env.msg)
    const c = env.data
    assert.equal(c.name, '丙氨酸氨基转移酶')
    assert.equal(c.category, '肝功能')
    for (const part of [c.measures, c.high, c.low, c.advice]) assert.ok(part.length >= 8)
    assert.equal(c.disclaimer, DISCLAIMER)

    const protein = (await get<CheckItemContent>('itemcontent', { id: 'upro' })).data
    assert.equal(protein.qualitative, true)
    assert.equal(protein.reference, '阴性（-）')
    assert.equal(protein.low, '')
  })

  it('every listed item has its explanation', async () => {
    const list = (await get<CheckItemList>('checklistitems')).data
    for (const item of list.categories.flatMap((c) => c.items)) {
      const env = await get<CheckItemContent>('itemcontent', { id: item.id })
      assert.equal(env.code, 200, `${item.id}: ${env.msg}`)
      assert.equal(env.data.name, item.name)
      assert.ok(env.data.measures && env.data.high && env.data.advice, item.id)
      assert.ok(item.qualitative || env.data.low, `${item.id} says what low means`)
    }
  })

  it('an unknown item answers 404 检查项目不存在; a malformed or missing id answers 400', async () => {
    const unknown = await get('itemcontent', { id: 'zzz' })
    assert.equal(unknown.code, 404)
    assert.equal(unknown.msg, '检查项目不存在')
    assert.equal(unknown.data, null)
    assertBadInput(await get('itemcontent', { id: '../alt' }), /检查项目编号不正确/)
    assertBadInput(await get('itemcontent'), /请选择检查项目/)
  })
})
