import { fakeServer } from './server'
import { expectInOrder, findText, namesOf, openApp } from './app'
import { APP_ID, HOSPITAL, signIn, startupRoutes } from './demo'
import type { Patient } from '../../types/api/patient'
import type { UserMessagePage } from '../../types/api/message'

/** The hospital's list masks names and identity numbers (spec §9); the identity number travels base64-encoded. */
const PATIENTS: Patient[] = [
  {
    id: 7,
    name: '张*',
    idCard: '110101********4514',
    mobile: '138****5678',
    sex: 1,
    sexText: '男',
    birthday: '1990-03-07',
    age: 36,
    relation: '本人',
    source: 'idCard',
    neonate: false,
    isDefault: true,
    hisMedCardNo: 'A100007',
    complete: true,
    missing: [],
  },
  {
    id: 9,
    name: '王**',
    idCard: '330106********0023',
    mobile: '139****1234',
    sex: 2,
    sexText: '女',
    birthday: '1956-08-19',
    age: 70,
    relation: '父母',
    source: 'idCard',
    neonate: false,
    isDefault: false,
    hisMedCardNo: '',
    complete: true,
    missing: [],
  },
]

const MESSAGES: UserMessagePage = {
  records: [{ id: 55, kind: 'register', title: '预约成功', content: '您已成功预约11月25日上午心血管内科', link: '', read: false, createdAt: '2026-11-22T09:00:00.000Z' }],
  total: 4,
  page: 1,
  size: 1,
  unread: 3,
}

const server = fakeServer({
  ...startupRoutes,
  'GET /dld-palm/api/patient/list': (c) => (c.query.hospitalCode === HOSPITAL.hospitalCode ? PATIENTS : []),
  'GET /dld-hospital/message/messageList': () => MESSAGES,
})

beforeAll(async () => {
  signIn()
  await openApp(`/pages/sys/user/index?appId=${APP_ID}`, server)
})

test('我的 shows who is signed in, the current patient, the hospital and the entries, with the unread notices', async () => {
  await findText('当前就诊人')
  expectInOrder([
    '我的',
    '张三',
    '138****5678',
    '当前就诊人',
    '张*',
    '默认',
    '110101********4514',
    '切换',
    '长辈模式',
    '示范市第一人民医院',
    '就诊人管理',
    '挂号记录',
    '消息中心',
    '3',
    '账号与隐私',
    '切换医院',
  ])
  expect(namesOf('link')).toContain('消息中心，3条未读')
  expect(namesOf('tab')).toEqual(['首页', '我的问诊', '健康知识', '我的'])
  expect(server.unanswered).toEqual([])
})
