import { fakeServer } from './server'
import { expectInOrder, findText, openApp, pageText, readOut, scrollToBottom } from './app'
import { APP_ID, signIn, startupRoutes } from './demo'
import type { ArticleSummary } from '../../types/api/hospital'

/** The demo platform's articles (server/src/seed/articles.ts), newest first: eleven, so a second page. */
const ARTICLES: ArticleSummary[] = [
  ['慢病管理', '高血压患者在家怎样正确测血压', '心血管内科 王医生', '家庭自测血压是管理高血压的重要一环，掌握正确的方法才能测得准。'],
  ['儿童健康', '孩子发烧了，什么时候需要去医院', '儿科 李医生', '发热本身是身体对抗感染的反应，学会判断危险信号比盯着体温更重要。'],
  ['合理用药', '抗生素不是“消炎药”，这些误区要避开', '药学部 张药师', '感冒大多由病毒引起，抗生素对病毒无效，滥用还会带来耐药。'],
  ['就医指南', '第一次来医院看病，线上预约全流程', '门诊部', '从绑定就诊人到按时报到，五个步骤减少排队等候。'],
  ['慢病管理', '糖尿病饮食：控制总量比“不吃糖”更关键', '内分泌科 陈医生', '主食、水果都能吃，关键在于总量和搭配。'],
  ['老年健康', '老人跌倒后先别急着扶', '急诊科 周医生', '判断意识和有无骨折，再决定如何搬动。'],
  ['妇幼保健', '孕期产检时间表一览', '产科 刘医生', '从建档到分娩，每次产检查什么一次看懂。'],
  ['心理健康', '总是失眠怎么办', '心理科 吴医生', '规律作息和睡眠卫生比安眠药更值得先试。'],
  ['就医指南', '检验报告怎么看：箭头不等于生病', '检验科', '参考范围之外的数值，要结合症状由医生判断。'],
  ['慢病管理', '慢阻肺患者冬季如何预防急性加重', '呼吸内科 赵医生', '接种疫苗、坚持吸入治疗、注意保暖。'],
  ['合理用药', '家庭小药箱应该备些什么', '药学部 张药师', '常用药、外用药和体温计，定期检查有效期。'],
].map(([category, title, author, summary], i) => ({
  id: 100 - i,
  title: title!,
  summary: summary!,
  cover: '',
  category: category!,
  author: author!,
  doctorId: null,
  views: 1200 - i * 97,
  publishedAt: `2026-11-${String(20 - i).padStart(2, '0')}T08:00:00.000Z`,
}))

const server = fakeServer({
  ...startupRoutes,
  'GET /dld-hospital/api/patient/article/list': (c) => {
    const page = Number(c.query.page)
    const size = Number(c.query.size)
    return { records: ARTICLES.slice((page - 1) * size, page * size), total: ARTICLES.length, page, size }
  },
})

beforeAll(async () => {
  signIn()
  await openApp(`/pages/sys/knowledge/index?appId=${APP_ID}`, server)
})

test('健康知识 lists the articles a page at a time, newest first, and says when there are no more', async () => {
  await findText('高血压患者在家怎样正确测血压')
  expectInOrder([
    '健康知识',
    '高血压患者在家怎样正确测血压',
    '家庭自测血压是管理高血压的重要一环，掌握正确的方法才能测得准。',
    '慢病管理 · 心血管内科 王医生 · 1200次阅读',
    '孩子发烧了，什么时候需要去医院',
    '慢病管理 · 呼吸内科 赵医生 · 327次阅读',
    '加载更多',
  ])
  expect(pageText()).not.toContain('家庭小药箱应该备些什么')

  scrollToBottom()
  await findText('家庭小药箱应该备些什么')
  expectInOrder(['慢阻肺患者冬季如何预防急性加重', '家庭小药箱应该备些什么', '合理用药 · 药学部 张药师 · 230次阅读', '没有更多了'])
  expect(readOut().filter((t) => t.endsWith('次阅读'))).toHaveLength(11)
  expect(server.unanswered).toEqual([])
})
