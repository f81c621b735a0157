import { and, asc, eq, isNotNull } from 'drizzle-orm'
import type { Db } from '../db'
import { articles, departments, doctors, onlineDoctors } from '../db/schema'

/** What the demo online doctors wrote (医生文章), by department keyword; a doctor of another department writes the last. */
const BY_DEPT: { dept: RegExp; items: { category: string; title: string; summary: string; content: string }[] }[] = [
  {
    dept: /心/,
    items: [
      {
        category: '慢病管理',
        title: '胸闷胸痛别硬扛：这些情况要立即就医',
        summary: '胸痛持续超过15分钟、伴出汗或呼吸困难，要想到心肌梗死。',
        content: '<p>典型的心绞痛多在活动或情绪激动时出现，休息后几分钟缓解。</p><p>如果胸痛持续超过15分钟不缓解，伴有大汗、恶心、呼吸困难，请立即拨打120，不要自行驾车就医。</p>',
      },
      {
        category: '合理用药',
        title: '长期吃阿司匹林，需要注意什么',
        summary: '胃肠道出血是最需要警惕的副作用，黑便要及时就诊。',
        content: '<p>阿司匹林用于心脑血管病的二级预防，需在医生评估后长期服用，不可擅自停药。</p><p>出现黑便、呕血、皮肤大片瘀斑时请及时就诊。拔牙或手术前要告知医生正在服用。</p>',
      },
    ],
  },
]
const GENERAL = [
  {
    category: '健康科普',
    title: '门诊复诊前，带好这三样东西',
    summary: '既往病历、正在吃的药、近期检查结果，能让复诊更高效。',
    content: '<p>复诊时请带上既往病历或出院小结、正在服用的全部药物（或药盒照片），以及近期在其他医院做的检查结果。</p><p>把想问的问题提前写下来，避免就诊时遗漏。</p>',
  },
]

/** Two or three articles for each of the first online doctors of the demo hospitals; once. */
export async function seedDoctorArticles(db: Db) {
  const [done] = await db.select({ id: articles.id }).from(articles).where(isNotNull(articles.doctorId)).limit(1)
  if (done) return
  const rows = await db
    .select({ id: doctors.id, name: doctors.name, hospitalId: doctors.hospitalId, deptName: departments.name })
    .from(onlineDoctors)
    .innerJoin(doctors, eq(doctors.id, onlineDoctors.doctorId))
    .innerJoin(departments, eq(departments.id, doctors.deptId))
    .where(and(eq(onlineDoctors.online, true)))
    .orderBy(asc(onlineDoctors.hospitalId), asc(onlineDoctors.sort))
    .limit(4)
  const values = rows.flatMap((d, i) => {
    const own = BY_DEPT.find((b) => b.dept.test(d.deptName))?.items ?? []
    return [...own, ...GENERAL].map((a, j) => ({
      ...a,
      hospitalId: d.hospitalId,
      doctorId: d.id,
      author: `${d.deptName} ${d.name}`,
      publishedAt: new Date(Date.UTC(2026, 10, 18 - i * 2 - j, 1)),
    }))
  })
  if (values.length) await db.insert(articles).values(values)
}
