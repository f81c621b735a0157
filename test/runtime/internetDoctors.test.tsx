import { fakeServer } from './server'
import { expectInOrder, findText, namesOf, openApp, pageText, tap } from './app'
import { APP_ID, HOSPITAL, signIn, startupRoutes } from './demo'
import type { OnlineDept, OnlineDoctor } from '../../types/api/internet'

const doctor = (d: Partial<OnlineDoctor> & Pick<OnlineDoctor, 'id' | 'doctorName' | 'title' | 'deptId' | 'deptName'>): OnlineDoctor => ({
  avatar: '',
  hospitalCode: HOSPITAL.hospitalCode,
  hospitalName: HOSPITAL.hospitalName,
  level: 5,
  stars: { full: 5, half: false, empty: 0 },
  priceFen: 3000,
  avgReplySeconds: 900,
  replyTimeText: '15分钟',
  servedCount: 1280,
  goodRate: 99,
  online: true,
  speciality: '',
  imAccount: `d_${d.id}`,
  ...d,
})

const DOCTORS: OnlineDoctor[] = [
  doctor({ id: 101, doctorName: '李明', title: '主任医师', deptId: 11, deptName: '心血管内科', speciality: '冠心病介入治疗、高血压' }),
  doctor({ id: 205, doctorName: '王芳', title: '副主任医师', deptId: 31, deptName: '儿科', level: 4.5, stars: { full: 4, half: true, empty: 0 }, priceFen: 0, avgReplySeconds: 7200, replyTimeText: '2小时', servedCount: 356, goodRate: 97, speciality: '小儿呼吸道感染' }),
  doctor({ id: 118, doctorName: '陈静', title: '主治医师', deptId: 11, deptName: '心血管内科', level: 4, stars: { full: 4, half: false, empty: 1 }, priceFen: 1500, online: false, servedCount: 88, goodRate: 100 }),
]

const DEPTS: OnlineDept[] = [
  { id: 11, deptName: '心血管内科', doctorCount: 2, onlineCount: 1 },
  { id: 31, deptName: '儿科', doctorCount: 1, onlineCount: 1 },
]

const server = fakeServer({
  ...startupRoutes,
  'GET /dld-hospital/index/hospitalDept': (c) => (c.query.hospitalCode === HOSPITAL.hospitalCode ? DEPTS : []),
  'GET /dld-hospital/index/doctorList': (c) => {
    const records = DOCTORS.filter((d) => !c.query.deptId || d.deptId === Number(c.query.deptId))
    return { records, total: records.length, page: Number(c.query.page), size: Number(c.query.size) }
  },
})

beforeAll(async () => {
  signIn()
  // the internet subpackage: 在线问诊 · 找医生
  await openApp(`/internet/doctorList/index?appId=${APP_ID}`, server)
})

test('在线问诊 lists the online doctors with their level, replies, ratings and price, by department', async () => {
  await findText('李明')
  expect(namesOf('tab')).toEqual(['全部', '心血管内科', '儿科', '综合', '服务等级', '回复快', '价格低'])
  expectInOrder([
    '在线问诊',
    '李明',
    '主任医师',
    '在线',
    '心血管内科 · 示范市第一人民医院',
    '擅长：冠心病介入治疗、高血压',
    '平均回复 15分钟 · 服务 1280 次 · 好评 99%',
    '图文 ¥30.00',
    '王芳',
    '平均回复 2小时 · 服务 356 次 · 好评 97%',
    '图文 免费',
    '陈静',
    '休息中',
    '图文 ¥15.00',
    '没有更多了',
  ])

  await tap('儿科')
  await findText('小儿呼吸道感染')
  await findText('没有更多了')
  expect(pageText()).not.toContain('李明')
  expect(server.unanswered).toEqual([])
})
