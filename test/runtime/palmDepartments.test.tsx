import { fakeServer } from './server'
import { expectInOrder, findText, namesOf, openApp, pageText, tap } from './app'
import { APP_ID, HOSPITAL, signIn, startupRoutes } from './demo'
import type { DeptGroup } from '../../types/api/register'

const GROUPS: DeptGroup[] = [
  {
    id: 1,
    deptName: '内科',
    children: [
      { id: 11, deptName: '心血管内科', intro: '冠心病、高血压、心律失常的诊治' },
      { id: 12, deptName: '消化内科', intro: '胃炎、消化道溃疡、肝胆疾病' },
      { id: 13, deptName: '呼吸内科', intro: '' },
    ],
  },
  { id: 2, deptName: '外科', children: [{ id: 21, deptName: '骨科', intro: '创伤与关节' }, { id: 22, deptName: '普外科', intro: '' }] },
  { id: 3, deptName: '儿科', children: [] },
]

const server = fakeServer({
  ...startupRoutes,
  [`GET /dld-palm/api/department/${HOSPITAL.hospitalCode}`]: (c) => (c.query.deptSort === 'default' ? GROUPS : []),
})

beforeAll(async () => {
  signIn()
  // the palm subpackage: 预约挂号 → 选择科室
  await openApp(`/palm/register/deptList/index?appId=${APP_ID}`, server)
})

test('选择科室 shows the clinics and the departments of the one chosen, with what each treats', async () => {
  await findText('心血管内科')
  expect(namesOf('tab')).toEqual(['全部科室', '热门科室', '内科', '外科', '儿科'])
  expectInOrder(['选择科室', '搜索科室、医生、疾病', '心血管内科', '冠心病、高血压、心律失常的诊治', '消化内科', '胃炎、消化道溃疡、肝胆疾病', '呼吸内科'])
  expect(pageText()).not.toContain('骨科')

  await tap('外科')
  await findText('骨科')
  expectInOrder(['骨科', '创伤与关节', '普外科'])
  expect(pageText()).not.toContain('心血管内科')

  await tap('儿科')
  await findText('该门诊暂无科室')
  expect(server.unanswered).toEqual([])
})
