/**
 * The demo hospitals' satisfaction surveys: 门诊就诊满意度调查 at 10392 (all four kinds of question) and
 * 互联网问诊满意度 at 10412. Each is added once (by hospital and title), also to a database seeded before surveys.
 */
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db'
import { hospitals, surveys } from '../db/schema'
import type { SurveyQuestion } from '../../../types/api/survey'

const opts = (...texts: string[]) => texts.map((text, i) => ({ id: String.fromCharCode(97 + i), text }))
const single = (id: string, title: string, options: string[], required = true): SurveyQuestion => ({ id, kind: 'single', title, required, options: opts(...options), maxLength: 0 })
const multiple = (id: string, title: string, options: string[], required = false): SurveyQuestion => ({ id, kind: 'multiple', title, required, options: opts(...options), maxLength: 0 })
const rating = (id: string, title: string, required = true): SurveyQuestion => ({ id, kind: 'rating', title, required, options: [], maxLength: 0 })
const text = (id: string, title: string, maxLength: number, required = false): SurveyQuestion => ({ id, kind: 'text', title, required, options: [], maxLength })

export const DEMO_SURVEYS: { hospitalCode: string; title: string; intro: string; questions: SurveyQuestion[] }[] = [
  {
    hospitalCode: '10392',
    title: '门诊就诊满意度调查',
    intro: '感谢您在本院就诊。为了持续改进服务，请花2分钟完成以下问卷，您的回答仅用于改进医疗服务。',
    questions: [
      single('q1', '您本次就诊的方式是？', ['线上预约挂号', '现场挂号', '复诊预约', '其他']),
      rating('q2', '您对医生的诊疗服务是否满意？'),
      rating('q3', '您对护士的服务态度是否满意？'),
      single('q4', '您本次候诊等待了多长时间？', ['15分钟以内', '15至30分钟', '30分钟至1小时', '1小时以上']),
      multiple('q5', '您认为本院哪些方面需要改进？（可多选）', ['挂号缴费流程', '候诊时间', '就医环境', '指引标识', '停车便利']),
      rating('q6', '您对本院的整体满意度'),
      text('q7', '您对本院还有哪些意见或建议？', 200),
    ],
  },
  {
    hospitalCode: '10412',
    title: '互联网问诊满意度',
    intro: '感谢您使用互联网医院在线问诊服务，请对本次服务进行评价。',
    questions: [
      single('q1', '您使用的问诊方式是？', ['图文问诊', '复诊续方', '发热门诊']),
      rating('q2', '您对医生回复速度是否满意？'),
      rating('q3', '您对医生解答的专业程度是否满意？'),
      multiple('q4', '您希望增加哪些线上服务？（可多选）', ['视频问诊', '药品配送', '检查预约', '报告解读']),
      text('q5', '其他意见或建议', 200),
    ],
  },
]

export async function seedSurveys(db: Db) {
  for (const [sort, s] of DEMO_SURVEYS.entries()) {
    const [hospital] = await db.select({ id: hospitals.id }).from(hospitals).where(eq(hospitals.code, s.hospitalCode)).limit(1)
    if (!hospital) continue
    const [done] = await db
      .select({ id: surveys.id })
      .from(surveys)
      .where(and(eq(surveys.hospitalId, hospital.id), eq(surveys.title, s.title)))
      .limit(1)
    if (done) continue
    await db.insert(surveys).values({ hospitalId: hospital.id, title: s.title, intro: s.intro, questions: s.questions, sort }).onConflictDoNothing()
  }
}
