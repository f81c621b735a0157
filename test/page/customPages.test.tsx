/**
 * The hospitals' own pages (spec §1, §2 "Customer-specific pages"): what a patient of 10392, 10387, 10388, 10412 and
 * aixin sees that a patient elsewhere does not, and that the app opens them in place of the general pages.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import { patient as patientDto } from './doubles/patients'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import { mapSensitive } from '../../src/utils/base64'
import PatientPage from '../../src/pages/patient'
import GeneralAddPatient from '../../src/pages/addPatient'
import AddPatient10392 from '../../src/custom/10392/addPatient'
import AddPatient10387 from '../../src/custom/10387/addPatient'
import AddPatient10388 from '../../src/custom/10388/addPatient'
import AddPatient10412 from '../../src/custom/10412/addPatient'
import CardType10412 from '../../src/custom/10412/cardType'
import AixinDoctorList from '../../src/custom/aixin/doctorList'
import type { OnlineDoctor } from '../../types/api/internet'
import type { PatientDetail } from '../../types/api/patient'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

/** The hospital of the app id, as startup asks for it. */
let hospitalCode = '10392'

const ok = (data: unknown) => ({
  statusCode: 200,
  data: { code: 200, msg: 'success', data: mapSensitive(data, (s) => Buffer.from(s, 'utf8').toString('base64')) },
})
const fromBase64 = (s: string) => Buffer.from(s, 'base64').toString('utf8')

/** 王芳, bound by health card without a mobile: incomplete. */
const incomplete: PatientDetail = {
  ...patientDto(3, '王芳', '父母'),
  idCard: '110101196208151241',
  mobile: '',
  complete: false,
  missing: ['mobile'],
  guardianName: '',
  guardianIdCard: '',
}

const doctor = (id: number, doctorName: string, deptName: string, title: string): OnlineDoctor => ({
  id,
  doctorName,
  title,
  avatar: '',
  deptId: id,
  deptName,
  hospitalCode: 'aixin',
  hospitalName: '示范爱心医院',
  level: 5,
  stars: { full: 5, half: false, empty: 0 },
  priceFen: 0,
  avgReplySeconds: 900,
  replyTimeText: '15分钟',
  servedCount: 100,
  goodRate: 99,
  online: true,
  speciality: '高血压',
  imAccount: `d_${id}`,
})
const AIXIN_DOCTORS = [doctor(51, '何仁心', '心血管内科', '主任医师'), doctor(52, '许爱民', '儿内科', '副主任医师')]

function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = '', search = ''] = url.split('?')
    const query = { ...Object.fromEntries(new URLSearchParams(search)), ...(method === 'GET' ? ((data ?? {}) as Record<string, string>) : {}) }
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: query.appId, provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId')
      return ok({ id: 1, hospitalCode, hospitalName: '示范医院', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: query.imAccount, userSig: 's', expire: 1 })
    if (path === '/dld-palm/admin/system/dict') return ok(['本人', '父母', '配偶', '子女', '其他'].map((label, i) => ({ label, value: label, sort: i })))
    if (path === '/dld-palm/api/patient/list') return ok([patientDto(1, '张*', '本人'), { ...incomplete, name: '王*', idCard: '110101********1241' }])
    if (path === '/dld-palm/api/patient/3') return ok(incomplete)
    if (path === '/dld-palm/api/patient/bind') return ok(patientDto(4, '赵*', '子女'))
    if (path === '/dld-hospital/index/hospitalDept') return ok(query.hospitalCode === 'aixin' ? [{ id: 51, deptName: '心血管内科' }, { id: 52, deptName: '儿内科' }] : [])
    if (path === '/dld-hospital/index/doctorList') {
      const list = query.hospitalCode === 'aixin' ? AIXIN_DOCTORS : []
      return ok({ records: list, total: list.length, page: 1, size: 10 })
    }
    return { statusCode: 404, data: '' }
  })
}

const sent = (fragment: string) => calls.requests.filter((r) => r.url.includes(fragment))
const tabs = () => screen.queryAllByRole('tab').map((t) => t.textContent)

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wxdemo', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  hospitalCode = '10392'
  serve()
})

describe('就诊人管理 opens the hospital’s own add-patient and completion pages', () => {
  test.each([
    ['10392', '/custom/10392/addPatient/index', '/custom/10392/addPatient/index?id=3&business=edit'],
    ['10412', '/custom/10412/cardType/index', '/custom/10412/addPatient/index?id=3&business=edit'],
    ['10500', '/pages/addPatient/index', '/pages/addPatient/index?id=3&business=edit'],
  ])('at %s', async (code, add, complete) => {
    hospitalCode = code
    testing.setRouter('/pages/patient/index')
    render(<PatientPage />)
    await screen.findByText('王*')
    await waitFor(() => expect(mockRoot.hospital.hospital?.hospitalCode).toBe(code))
    fireEvent.click(within(screen.getByText('王*').closest('.patient-card') as HTMLElement).getByText('编辑'))
    fireEvent.click(screen.getByText('添加就诊人'))
    expect(calls.navigations).toEqual([
      { kind: 'navigateTo', url: complete },
      { kind: 'navigateTo', url: add },
    ])
  })
})

describe('the add-patient variants', () => {
  test('elsewhere: all three ways and no hospital notice', async () => {
    testing.setRouter('/pages/addPatient/index')
    render(<GeneralAddPatient />)
    await screen.findByPlaceholderText('请输入就诊人姓名')
    expect(tabs()).toEqual(['身份证', '无证儿童', '电子健康卡'])
    expect(document.querySelector('.add-patient__lead')).toBeNull()
  })

  test('10392: real names only, no health card, and the hospital says why', async () => {
    testing.setRouter('/custom/10392/addPatient/index')
    render(<AddPatient10392 />)
    await screen.findByPlaceholderText('请输入就诊人姓名')
    expect(tabs()).toEqual(['身份证', '无证儿童'])
    expect(screen.getByText(/本院核酸检测、医保结算均需实名/)).toBeTruthy()
  })

  test('10392 completion: the patient whole, what is missing to fill, and the hospital’s notice', async () => {
    testing.setRouter('/custom/10392/addPatient/index', { id: '3', business: 'edit' })
    render(<AddPatient10392 />)
    expect(await screen.findByText('王芳')).toBeTruthy()
    expect(screen.getByText('完善就诊人信息')).toBeTruthy()
    expect(screen.getByText(/本院核酸检测、医保结算均需实名/)).toBeTruthy()
    expect(screen.getByText('请填写就诊人手机号并验证')).toBeTruthy()
    expect(tabs()).toEqual([])
  })

  test('10387: a maternity hospital opens on 无证儿童 and has no health card', async () => {
    testing.setRouter('/custom/10387/addPatient/index')
    render(<AddPatient10387 />)
    expect(await screen.findByPlaceholderText('请输入儿童姓名')).toBeTruthy()
    expect(tabs()).toEqual(['无证儿童', '身份证'])
    expect(screen.getByRole('tab', { name: '无证儿童' }).getAttribute('aria-selected')).toBe('true')
    expect(screen.getByText(/本院暂未接入电子健康卡/)).toBeTruthy()
  })

  test('10388: no child without a card here; the patient is told where to file one', async () => {
    testing.setRouter('/custom/10388/addPatient/index')
    render(<AddPatient10388 />)
    await screen.findByPlaceholderText('请输入就诊人姓名')
    expect(tabs()).toEqual(['身份证', '电子健康卡'])
    expect(screen.getByText(/携带出生医学证明到门诊一楼建档窗口/)).toBeTruthy()
  })
})

describe('10412: the card type first, then its form', () => {
  test('the chooser names each card and opens the form for the one tapped, in its own place', async () => {
    testing.setRouter('/custom/10412/cardType/index')
    render(<CardType10412 />)
    const links = await screen.findAllByRole('link')
    expect(links.map((l) => l.querySelector('.card-type__label')!.textContent)).toEqual(['居民身份证', '社会保障卡（医保卡）', '出生医学证明', '电子健康卡'])
    fireEvent.click(screen.getByText('社会保障卡（医保卡）'))
    expect(calls.navigations).toEqual([{ kind: 'redirectTo', url: '/custom/10412/addPatient/index?cardType=socialCard' }])
  })

  test('the social-security card asks for 社保卡号, offers no other way, and binds it as the identity number', async () => {
    hospitalCode = '10412'
    testing.setRouter('/custom/10412/addPatient/index', { cardType: 'socialCard' })
    render(<AddPatient10412 />)
    fireEvent.change(await screen.findByPlaceholderText('请输入就诊人姓名'), { target: { value: '赵六' } })
    expect(screen.getByText('添加就诊人·社会保障卡（医保卡）')).toBeTruthy()
    expect(tabs()).toEqual([])
    expect(screen.getByText('社保卡号')).toBeTruthy()
    fireEvent.change(screen.getByPlaceholderText('请输入社保卡号'), { target: { value: '310104198506120027' } })
    fireEvent.click(await screen.findByRole('radio', { name: '子女' }))
    fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: '13700001111' } })
    fireEvent.change(screen.getByPlaceholderText('请输入验证码'), { target: { value: '123456' } })
    fireEvent.click(screen.getByText('确认添加'))
    await waitFor(() => expect(sent('/patient/bind')).toHaveLength(1))
    const body = new URLSearchParams(sent('/patient/bind')[0]!.data as string)
    expect([body.get('name'), fromBase64(body.get('idCard')!)]).toEqual(['赵六', '310104198506120027'])
  })

  test('the birth certificate opens the child form under a guardian', async () => {
    testing.setRouter('/custom/10412/addPatient/index', { cardType: 'birthCert' })
    render(<AddPatient10412 />)
    expect(await screen.findByPlaceholderText('请输入儿童姓名')).toBeTruthy()
    expect(screen.getByPlaceholderText('请输入监护人身份证号')).toBeTruthy()
    expect(tabs()).toEqual([])
  })
})

describe('aixin: its own doctor list', () => {
  test('its doctors with department and title, no 地区 to wander to other hospitals, each opening the doctor', async () => {
    hospitalCode = 'aixin'
    testing.setRouter('/custom/aixin/doctorList/index')
    render(<AixinDoctorList />)
    expect(await screen.findByText('何仁心')).toBeTruthy()
    expect(screen.getByText('许爱民')).toBeTruthy()
    expect(screen.getByText('爱心医生')).toBeTruthy()
    expect(screen.queryByRole('button', { name: /^地区/ })).toBeNull()
    expect(within(screen.getByRole('tablist', { name: '科室' })).getAllByRole('tab').map((t) => t.textContent)).toEqual(['全部', '心血管内科', '儿内科'])
    fireEvent.click(screen.getByText('何仁心'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/internet/doctor/index?id=51' }])
  })
})
