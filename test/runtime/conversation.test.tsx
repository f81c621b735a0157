import { fakeServer } from './server'
import { expectInOrder, findText, namesOf, openApp, pageText } from './app'
import { APP_ID, HOSPITAL, signIn, startupRoutes } from './demo'
import type { ConsultationItem } from '../../types/api/hospital'

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString()

const CONSULTATIONS: ConsultationItem[] = [
  {
    id: 41,
    orderNo: 'IQ202611220001',
    doctorName: '李明',
    doctorAvatar: '',
    deptName: '心血管内科',
    status: '问诊中',
    lastMessage: '血压记录我看过了，药先按原剂量吃',
    unreadCount: 2,
    conversationID: 'C2Cd_101',
    inquiryId: 41,
    updatedAt: minutesAgo(20),
    hospitalCode: HOSPITAL.hospitalCode,
    hospitalName: HOSPITAL.hospitalName,
  },
  {
    id: 38,
    orderNo: 'IQ202611190004',
    doctorName: '王芳',
    doctorAvatar: '',
    deptName: '儿科',
    status: '已结束',
    lastMessage: '',
    unreadCount: 0,
    conversationID: 'C2Cd_205',
    inquiryId: 38,
    updatedAt: minutesAgo(3 * 24 * 60),
    hospitalCode: HOSPITAL.hospitalCode,
    hospitalName: HOSPITAL.hospitalName,
  },
]

const server = fakeServer({
  ...startupRoutes,
  'GET /dld-hospital/im/patient/record/list': (c) => CONSULTATIONS.filter((i) => i.hospitalCode === c.query.hospitalCode),
})

beforeAll(async () => {
  signIn()
  await openApp(`/pages/sys/conversation/index?appId=${APP_ID}`, server)
})

test('我的问诊 lists the patient’s consultations with the doctor, the last word, the time and what is unread', async () => {
  await findText('李明')
  expectInOrder([
    '我的问诊',
    '李明',
    '心血管内科',
    '20分钟前',
    '血压记录我看过了，药先按原剂量吃',
    '2',
    '王芳',
    '儿科',
    '3天前',
    // a consultation without messages shows its state
    '已结束',
  ])
  expect(pageText()).not.toContain('暂无问诊记录')
  // the tab bar counts the unread messages on 我的问诊
  expect(namesOf('tab')).toEqual(['首页', '2我的问诊', '健康知识', '我的'])
  expect(server.unanswered).toEqual([])
})
