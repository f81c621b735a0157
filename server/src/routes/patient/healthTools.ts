import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { route } from '../../route'
import { babyBlood, hbSelfSurvey, listCheckItems, readCheckItem } from '../../domain/healthTools'

const API = '/dld-hospital/healthTools'

/** One marker of 乙肝两对半, as the lab sheet says it. */
const markerResult = (name: string) => z.enum(['positive', 'negative'], { error: `请选择${name}是阳性还是阴性` })

const hbQuery = z.object({
  HBsAg: markerResult('乙肝表面抗原（HBsAg）'),
  HBsAb: markerResult('乙肝表面抗体（抗-HBs）'),
  HBeAg: markerResult('乙肝e抗原（HBeAg）'),
  HBeAb: markerResult('乙肝e抗体（抗-HBe）'),
  HBcAb: markerResult('乙肝核心抗体（抗-HBc）'),
})

const abo = (who: string) => z.enum(['A', 'B', 'O', 'AB'], { error: `请选择${who}的ABO血型（A、B、O或AB）` })
const rh = (who: string) => z.enum(['positive', 'negative'], { error: `请选择${who}的Rh血型（阳性或阴性）` })

const hbAnswer = z.object({
  markers: z.array(z.object({ key: z.enum(['HBsAg', 'HBsAb', 'HBeAg', 'HBeAb', 'HBcAb']), name: z.string(), abbr: z.string(), result: z.enum(['positive', 'negative']), resultText: z.string() })),
  title: z.string(),
  category: z.enum(['susceptible', 'immune', 'past', 'infected', 'rare']),
  categoryText: z.string(),
  meaning: z.string(),
  advice: z.array(z.string()),
  rare: z.boolean(),
  disclaimer: z.string(),
})

const chance = <T extends z.ZodType>(type: T) => z.object({ type, label: z.string(), probability: z.number(), percentText: z.string(), possible: z.boolean() })
const bloodAnswer = z.object({
  abo: z.array(chance(z.enum(['A', 'B', 'O', 'AB']))),
  rh: z.array(chance(z.enum(['positive', 'negative']))),
  assumption: z.string(),
  notes: z.array(z.string()),
  disclaimer: z.string(),
})

const checkItem = z.object({ id: z.string(), name: z.string(), abbr: z.string(), unit: z.string(), reference: z.string(), qualitative: z.boolean() })
const checkList = z.object({ categories: z.array(z.object({ name: z.string(), items: z.array(checkItem) })), note: z.string(), disclaimer: z.string() })
const checkContent = checkItem.extend({
  category: z.string(),
  measures: z.string(),
  high: z.string(),
  low: z.string(),
  advice: z.string(),
  note: z.string(),
  disclaimer: z.string(),
})

/**
 * The health tools (spec §2 /internet/hepatitisTest, /internet/babyBlood, /internet/inspectRead; §7 Tools and misc):
 * public reading aids, open to anyone (no personal data is sent or kept), each answer with its disclaimer.
 */
export async function healthToolRoutes(app: FastifyInstance) {
  route(app, {
    method: 'GET',
    url: `${API}/hbSelfSurvey`,
    summary: '乙肝两对半自测: the standard interpretation of the five hepatitis B markers (each positive or negative), with advice',
    auth: 'none',
    query: hbQuery,
    data: hbAnswer,
    handler: async ({ query }) => hbSelfSurvey(query),
  })

  route(app, {
    method: 'GET',
    url: `${API}/babyBlood`,
    summary: "宝宝血型: the child's possible ABO and Rh types from the parents', with likelihoods (Mendelian, Chinese gene frequencies)",
    auth: 'none',
    query: z.object({ fatherAbo: abo('父亲'), fatherRh: rh('父亲'), motherAbo: abo('母亲'), motherRh: rh('母亲') }),
    data: bloodAnswer,
    handler: async ({ query }) => babyBlood(query),
  })

  route(app, {
    method: 'GET',
    url: `${API}/checklistitems`,
    summary: '化验单解读: common examination items by category, each with its unit and a typical adult reference range',
    auth: 'none',
    data: checkList,
    handler: async () => listCheckItems(),
  })

  route(app, {
    method: 'GET',
    url: `${API}/itemcontent`,
    summary: 'One examination item in plain words: what it measures, what high and low may mean, what to do',
    auth: 'none',
    query: z.object({ id: z.string({ error: '请选择检查项目' }).trim().regex(/^[a-z0-9]{1,16}$/, '检查项目编号不正确') }),
    data: checkContent,
    handler: async ({ query }) => readCheckItem(query.id),
  })
}
