/**
 * The internet hospital's doctor calls that pages make (spec §7 Internet hospital): the home's 问诊过的医生 / 为您推荐 /
 * 热门医生 (recommend/doctor, hotService), the doctor list's 地区 (index/city), 继续问诊 on the doctor's home
 * (orderByDoctorAndUserId), 问诊记录's 复诊续方 (chronic/historyList), 我的医生's 最近关注 (fans/doctor/list) and the
 * renewal's diagnosis from the hospital's disease list (common/diseaseCode).
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { runInAction } from 'mobx'
import { calls, testing } from './doubles/taro'
import { patient } from './doubles/patients'
import platform from '../../src/platform/index.h5'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import InternetHome from '../../src/pages/sys/internet'
import DoctorList from '../../src/internet/doctorList'
import DoctorSearch from '../../src/internet/searchParams'
import OnlineDoctorHome from '../../src/internet/doctor'
import MyDoctors from '../../src/pages/doctor'
import TimHistory from '../../src/internet/timHistory'
import RenewalPage from '../../src/internet/inquiry/useMedicine'
import type { Inquiry, InquiryKind, InquiryStatus } from '../../types/api/inquiry'
import type { InternetCity, OnlineDept, OnlineDoctor, OnlineDoctorInfo } from '../../types/api/internet'
import type { DiseaseCode } from '../../types/api/medical'
import { useDoctorStore } from '../../src/stores/DoctorStore'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10412'
const HOSPITAL_NAME = '示范互联网医院'
const OTHER = '10392'
const OTHER_NAME = '示范市第一人民医院'

// ---------- the fake server ----------

function doctorOf(id: number, name: string, extra: Partial<OnlineDoctor> = {}): OnlineDoctor {
  return {
    id,
    doctorName: name,
    title: '主任医师',
    avatar: `/static/doctors/${id}.svg`,
    deptId: 11,
    deptName: '心血管内科',
    hospitalCode: HOSPITAL,
    hospitalName: HOSPITAL_NAME,
    level: 5,
    stars: { full: 5, half: false, empty: 0 },
    priceFen: 3000,
    avgReplySeconds: 900,
    replyTimeText: '15分钟',
    servedCount: 1000,
    goodRate: 98,
    online: true,
    speciality: '高血压',
    imAccount: `d_${id}`,
    ...extra,
  }
}

const DOCTORS: OnlineDoctor[] = [
  doctorOf(100, '李明'),
  doctorOf(101, '王芳', { servedCount: 3000 }),
  doctorOf(102, '张伟', { servedCount: 2500 }),
  doctorOf(103, '刘洋', { servedCount: 2000 }),
  doctorOf(104, '陈静', { servedCount: 1500, online: false }),
  doctorOf(105, '杨帆', { servedCount: 1200 }),
  doctorOf(200, '赵磊', { hospitalCode: OTHER, hospitalName: OTHER_NAME, deptId: 51, deptName: '神经内科' }),
  doctorOf(201, '黄丽', { hospitalCode: OTHER, hospitalName: OTHER_NAME, deptId: 51, deptName: '神经内科' }),
]
const DEPTS: Record<string, OnlineDept[]> = {
  [HOSPITAL]: [{ id: 11, deptName: '心血管内科', doctorCount: 6, onlineCount: 5 }],
  [OTHER]: [{ id: 51, deptName: '神经内科', doctorCount: 2, onlineCount: 2 }],
}
const CITIES: InternetCity[] = [
  {
    city: '示范市',
    hospitals: [
      { hospitalCode: OTHER, hospitalName: OTHER_NAME },
      { hospitalCode: HOSPITAL, hospitalName: HOSPITAL_NAME },
    ],
  },
  { city: '样板市', hospitals: [{ hospitalCode: '20001', hospitalName: '样板市中心医院' }] },
]
const DISEASES: DiseaseCode[] = [
  { code: '101', name: '高血压', deptName: '心血管内科' },
  { code: '102', name: '高血压心脏病', deptName: '心血管内科' },
  { code: '201', name: '2型糖尿病', deptName: '内分泌科' },
]

const STATUS_TEXT: Record<InquiryStatus, string> = {
  unpaid: '待支付',
  waiting: '待接诊',
  inProgress: '问诊中',
  finished: '已结束',
  cancelled: '已取消',
  closed: '已关闭',
}
function inquiryOf(id: number, status: InquiryStatus, kind: InquiryKind = 'inquiry', doctorId = 100): Inquiry {
  const d = DOCTORS.find((x) => x.id === doctorId)!
  return {
    id,
    inquiryNo: `I20261123${String(id).padStart(12, '0')}`,
    status,
    statusText: STATUS_TEXT[status],
    serviceType: 'text',
    serviceName: kind === 'chronic' ? '复诊续方' : '图文问诊',
    kind,
    description: kind === 'chronic' ? `血压平稳（${id}）\n诊断：高血压\n续方药品：氨氯地平片` : `胸闷两周（${id}）`,
    pictures: [],
    priceFen: 3000,
    patientId: 1,
    patientName: '张*',
    hospitalCode: HOSPITAL,
    hospitalName: HOSPITAL_NAME,
    doctor: { id: d.id, doctorName: d.doctorName, title: d.title, avatar: d.avatar, deptName: d.deptName, imAccount: d.imAccount },
    paidAt: status === 'unpaid' ? null : '2026-11-23T01:05:00.000Z',
    acceptedAt: status === 'inProgress' || status === 'finished' ? '2026-11-23T02:00:00.000Z' : null,
    serviceEndsAt: null,
    finishedAt: status === 'finished' || status === 'cancelled' ? '2026-11-23T03:00:00.000Z' : null,
    cancellable: status === 'unpaid' || status === 'waiting',
    complaint: null,
    intake: null,
    evaluated: false,
    order: null,
    createdAt: '2026-11-23T01:00:00.000Z',
  }
}

let userId = 7
/** Doctors the caller consulted (recommend/doctor puts them first, consulted: true). */
let consulted: number[] = []
/** The caller's open inquiry with a doctor (orderByDoctorAndUserId), by doctor. */
let open: Record<number, Inquiry> = {}
/** Followed doctor ids, the latest followed last. */
let followed: number[] = []
let past: Inquiry[] = []
let failing = new Set<string>()

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data } })
const refuse = (code: number, msg: string) => ({ statusCode: 200, data: { code, msg, data: null } })
const info = (d: OnlineDoctor): OnlineDoctorInfo => ({
  ...d,
  intro: '从事临床工作二十年。',
  services: [{ type: 'text', name: '图文问诊', priceFen: d.priceFen! }],
  fansCount: 10,
  followed: followed.includes(d.id),
})
const page = <T,>(all: T[], q: Record<string, string | number>) => {
  const n = Number(q.page)
  const size = Number(q.size)
  return { records: all.slice((n - 1) * size, n * size), total: all.length, page: n, size }
}

function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = ''] = url.split('?')
    const query = (method === 'GET' ? data ?? {} : {}) as Record<string, string | number>
    const body = (method !== 'GET' && data && typeof data === 'object' ? data : Object.fromEntries(new URLSearchParams(typeof data === 'string' ? data : ''))) as Record<string, unknown>
    if (failing.has(path)) return refuse(500, '服务器开小差了')
    if (path === '/dld-hospital/userinfo') return ok({ id: userId, nickname: '张三', wechatAvatar: '', mobile: userId ? '138****5678' : '', roles: [], appId: query.appId, provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 3, hospitalCode: HOSPITAL, hospitalName: HOSPITAL_NAME, configDto: { isInternet: true, isPalm: false } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-hospital/common/ad') return ok([])
    if (path === '/dld-hospital/common/isSupervision') return ok({ supervised: false, platformName: '' })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: query.imAccount, userSig: 's', expire: 1 })
    if (path === '/dld-palm/api/patient/list') return ok([patient(1, '张三', '本人')])

    if (path === '/dld-hospital/index/hotService') {
      const mine = DOCTORS.filter((d) => d.online && (!query.hospitalCode || d.hospitalCode === query.hospitalCode))
      return ok(mine.sort((a, b) => b.servedCount - a.servedCount).slice(0, 6))
    }
    if (path === '/dld-hospital/im/patient/recommend/doctor') {
      if (!userId) return refuse(401, '请先登录')
      const first = consulted.map((id) => ({ ...DOCTORS.find((d) => d.id === id)!, consulted: true }))
      const rest = DOCTORS.filter((d) => d.hospitalCode === query.hospitalCode && d.online && !consulted.includes(d.id))
        .sort((a, b) => a.id - b.id)
        .map((d) => ({ ...d, consulted: false }))
      return ok([...first, ...rest].slice(0, 10))
    }
    if (path === '/dld-hospital/index/city') return ok(CITIES)
    if (path === '/dld-hospital/index/hospitalDept') return ok(DEPTS[String(query.hospitalCode)] ?? [])
    if (path === '/dld-hospital/index/doctorList') {
      const list = DOCTORS.filter((d) => d.hospitalCode === query.hospitalCode && (!query.deptId || d.deptId === Number(query.deptId)))
      return ok(page(list, query))
    }
    if (path === '/dld-hospital/index/search') {
      const k = String(query.keyword)
      const scoped = DOCTORS.filter((d) => !query.hospitalCode || d.hospitalCode === query.hospitalCode)
      const depts = Object.entries(DEPTS).flatMap(([code, list]) =>
        list.filter((d) => (!query.hospitalCode || code === query.hospitalCode) && d.deptName.includes(k)).map((d) => ({ ...d, hospitalCode: code, hospitalName: code === OTHER ? OTHER_NAME : HOSPITAL_NAME })),
      )
      return ok({ doctors: scoped.filter((d) => d.doctorName.includes(k) || d.deptName.includes(k)), depts })
    }
    if (path === '/dld-hospital/doctor/info') {
      const d = DOCTORS.find((x) => x.id === Number(query.id))
      return d ? ok(info(d)) : refuse(404, '医生不存在')
    }
    if (path === '/dld-hospital/im/evaluate/doctor/evaluates') return ok({ records: [], total: 0, page: 1, size: 10, summary: { count: 0, goodRate: 100, tags: [] } })
    if (path === '/dld-hospital/im/core/orderByDoctorAndUserId') return ok(open[Number(body.doctorId)] ?? null)
    if (path === '/dld-hospital/doctor/chronic/getMyDoctor') {
      const list = followed.map((id) => DOCTORS.find((d) => d.id === id)!)
      return ok([...list.filter((d) => d.online), ...list.filter((d) => !d.online)])
    }
    if (path === '/dld-hospital/im/fans/doctor/list') return ok([...followed].reverse().map((id) => DOCTORS.find((d) => d.id === id)!))
    if (path === '/dld-hospital/im/core/historyList') return ok(page(past, query))
    if (path === '/dld-hospital/im/core/chronic/historyList') return ok(page(past.filter((i) => i.kind === 'chronic'), query))
    if (path === '/dld-hospital/common/diseaseCode') return ok(DISEASES.filter((d) => d.name.includes(String(query.keyword ?? ''))))
    if (path === '/dld-hospital/inquiry/chronicInquiry') return ok({ ...inquiryOf(900, 'unpaid', 'chronic'), description: String(body.description) })
    return { statusCode: 404, data: '' }
  })
}

const sent = (path: string) => calls.requests.filter((r) => r.url.split('?')[0] === path)
const bodyOf = (r: { data: unknown }) => r.data as Record<string, unknown>
const toasts = () => calls.toasts.map((t) => t.title)
const namesIn = (el: HTMLElement) => Array.from(el.querySelectorAll('.doctor-card__name')).map((n) => n.textContent)
const names = () => namesIn(document.body)

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10412demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  userId = 7
  consulted = []
  open = {}
  followed = []
  past = []
  failing = new Set()
  jest.spyOn(console, 'warn').mockImplementation(() => undefined)
  jest.spyOn(console, 'info').mockImplementation(() => undefined)
  serve()
})
afterEach(() => {
  mockRoot.chat.dispose()
  jest.restoreAllMocks()
  jest.useRealTimers()
})

// ---------- 互联网医院's home ----------

describe('互联网医院 /pages/sys/internet/index: the doctors under the services', () => {
  const openHome = async () => {
    testing.setRouter('/pages/sys/internet/index')
    render(<InternetHome />)
    return screen.findByRole('region', { name: '热门医生' })
  }

  test('a signed-in patient: 问诊过的医生 first, then 为您推荐, then 热门医生 without the doctors already shown', async () => {
    consulted = [104]
    const hot = await openHome()
    const mine = await screen.findByRole('region', { name: '问诊过的医生' })
    expect(namesIn(mine)).toEqual(['陈静'])
    // 休息中 still shows: it is their doctor
    expect(within(mine).getByText('休息中')).toBeTruthy()
    expect(namesIn(screen.getByRole('region', { name: '为您推荐' }))).toEqual(['李明', '王芳', '张伟'])
    // the most consulted (王芳 3000, 张伟 2500, 刘洋 2000, 杨帆 1200, 李明 1000) less those above
    expect(namesIn(hot)).toEqual(['刘洋', '杨帆'])
    expect(sent('/dld-hospital/im/patient/recommend/doctor').map((r) => r.data)).toEqual([{ hospitalCode: HOSPITAL }])
    expect(sent('/dld-hospital/index/hotService').map((r) => r.data)).toEqual([{ hospitalCode: HOSPITAL }])
    // the page's title, then the sections
    expect(screen.getAllByRole('heading').map((h) => h.textContent)).toEqual(['互联网医院', '问诊过的医生', '为您推荐', '热门医生'])

    fireEvent.click(within(hot).getByText('刘洋'))
    fireEvent.click(screen.getByRole('link', { name: '查看全部医生' }))
    expect(calls.navigations).toEqual([
      { kind: 'navigateTo', url: '/internet/doctor/index?id=103' },
      { kind: 'navigateTo', url: '/internet/doctorList/index' },
    ])
  })

  test('a visitor (not signed in) sees 热门医生 only, and the patient’s own call is not made', async () => {
    userId = 0
    const hot = await openHome()
    expect(namesIn(hot)).toEqual(['王芳', '张伟', '刘洋'])
    expect(screen.queryByRole('region', { name: '为您推荐' })).toBeNull()
    expect(sent('/dld-hospital/im/patient/recommend/doctor')).toHaveLength(0)
    expect(calls.navigations).toEqual([])
    expect(toasts()).toEqual([])
  })

  test('热门医生 that fail to load say so in the section, quietly, and can be retried', async () => {
    failing.add('/dld-hospital/index/hotService')
    const hot = await openHome()
    expect(await within(hot).findByText('加载失败，点击重试')).toBeTruthy()
    expect(toasts()).toEqual([])
    failing.clear()
    fireEvent.click(within(hot).getByText('加载失败，点击重试'))
    await waitFor(() => expect(names()).toContain('刘洋'))
  })
})

// ---------- 在线问诊's 地区 ----------

describe('在线问诊 /internet/doctorList/index: 地区', () => {
  const openList = async () => {
    testing.setRouter('/internet/doctorList/index')
    render(<DoctorList />)
    await screen.findByText('李明')
  }
  const place = () => screen.getByRole('button', { name: /^地区/ })
  const placeText = () => place().querySelector('.place-filter__value')!.textContent

  test('the cities are read when the patient opens 地区; a hospital of the city lists its own doctors and departments', async () => {
    await openList()
    expect(sent('/dld-hospital/index/city')).toHaveLength(0)
    expect(placeText()).toBe(HOSPITAL_NAME)
    expect(place().getAttribute('aria-expanded')).toBe('false')

    fireEvent.click(place())
    const cities = await screen.findByRole('radiogroup', { name: '城市' })
    expect(sent('/dld-hospital/index/city')).toHaveLength(1)
    expect(within(cities).getAllByRole('radio').map((r) => [r.textContent, r.getAttribute('aria-checked')])).toEqual([
      ['示范市', 'true'],
      ['样板市', 'false'],
    ])
    const hospitals = screen.getByRole('radiogroup', { name: '医院' })
    expect(within(hospitals).getAllByRole('radio').map((r) => [r.textContent, r.getAttribute('aria-checked')])).toEqual([
      [OTHER_NAME, 'false'],
      [HOSPITAL_NAME, 'true'],
    ])
    expect(placeText()).toBe(`示范市 · ${HOSPITAL_NAME}`)

    fireEvent.click(within(hospitals).getByText(OTHER_NAME))
    await waitFor(() => expect(names()).toEqual(['赵磊', '黄丽']))
    expect(sent('/dld-hospital/index/doctorList').at(-1)!.data).toEqual({ hospitalCode: OTHER, sort: 'default', page: 1, size: 10 })
    expect(sent('/dld-hospital/index/hospitalDept').at(-1)!.data).toEqual({ hospitalCode: OTHER })
    await waitFor(() => expect(within(screen.getByLabelText('科室')).getAllByRole('tab').map((t) => t.textContent)).toEqual(['全部', '神经内科']))
    expect(placeText()).toBe(`示范市 · ${OTHER_NAME}`)
    expect(screen.queryByRole('radiogroup', { name: '城市' })).toBeNull()
    // the search looks in the hospital chosen
    expect(useDoctorStore.of(mockRoot).hospital).toBe(OTHER)

    // another city: its only hospital
    fireEvent.click(place())
    fireEvent.click(within(await screen.findByRole('radiogroup', { name: '城市' })).getByText('样板市'))
    await waitFor(() => expect(screen.getByText('暂无在线医生')).toBeTruthy())
    expect(sent('/dld-hospital/index/doctorList').at(-1)!.data).toEqual({ hospitalCode: '20001', sort: 'default', page: 1, size: 10 })
    expect(placeText()).toBe('样板市 · 样板市中心医院')
  })

  test('cities that fail to load say so in the panel and can be retried', async () => {
    failing.add('/dld-hospital/index/city')
    await openList()
    fireEvent.click(place())
    fireEvent.click(await screen.findByText('加载失败，点击重试'))
    failing.clear()
    fireEvent.click(await screen.findByText('加载失败，点击重试'))
    expect(await screen.findByRole('radiogroup', { name: '城市' })).toBeTruthy()
  })

  test('the search looks in the hospital chosen under 地区', async () => {
    testing.setRouter('/internet/doctorList/index')
    const list = render(<DoctorList />)
    await screen.findByText('李明')
    fireEvent.click(place())
    fireEvent.click(within(await screen.findByRole('radiogroup', { name: '医院' })).getByText(OTHER_NAME))
    await waitFor(() => expect(names()).toEqual(['赵磊', '黄丽']))
    list.unmount()

    jest.useFakeTimers()
    testing.setRouter('/internet/searchParams/index')
    render(<DoctorSearch />)
    fireEvent.change(await screen.findByPlaceholderText('搜索医生、科室、擅长疾病'), { target: { value: '神经' } })
    act(() => void jest.advanceTimersByTime(500))
    expect(sent('/dld-hospital/index/search').map((r) => r.data)).toEqual([{ hospitalCode: OTHER, keyword: '神经' }])
    expect(await screen.findByText('神经内科', { selector: '.doctor-search__dept-name' })).toBeTruthy()
  })

  test('a department of another hospital (a search of every hospital finds them) opens the list there', async () => {
    await openList()
    act(() => useDoctorStore.of(mockRoot).searchDept({ id: 51, hospitalCode: OTHER }))
    await waitFor(() => expect(names()).toEqual(['赵磊', '黄丽']))
    expect(sent('/dld-hospital/index/doctorList').at(-1)!.data).toEqual({ hospitalCode: OTHER, deptId: 51, sort: 'default', page: 1, size: 10 })
    await waitFor(() => expect(placeText()).toBe(`示范市 · ${OTHER_NAME}`))
    expect(within(screen.getByLabelText('科室')).getByText('神经内科').getAttribute('aria-selected')).toBe('true')
  })

  test('地区 chosen for one hospital of the app is let go when the app moves to another hospital', async () => {
    await openList()
    act(() => useDoctorStore.of(mockRoot).chooseHospital(OTHER))
    expect(useDoctorStore.of(mockRoot).hospital).toBe(OTHER)
    // as switching hospitals leaves it (HospitalStore.load)
    act(() => runInAction(() => void (mockRoot.hospital.hospital = { ...mockRoot.hospital.hospital!, hospitalCode: '20001' })))
    expect(useDoctorStore.of(mockRoot).hospital).toBe('20001')
    expect(useDoctorStore.of(mockRoot).placeCode).toBeNull()
  })
})

// ---------- 医生主页: 继续问诊 ----------

describe('医生主页 /internet/doctor/index: 继续问诊', () => {
  const openDoctor = async (id: number) => {
    testing.setRouter('/internet/doctor/index', { id: String(id) })
    render(<OnlineDoctorHome />)
    await screen.findByText('从事临床工作二十年。')
  }

  test('an open consultation with the doctor: 继续问诊 into its room, instead of ordering another', async () => {
    open = { 100: inquiryOf(61, 'inProgress') }
    await openDoctor(100)
    expect((await screen.findByText('您与该医生有一个未结束的图文问诊（问诊中）')).getAttribute('role')).toBe('status')
    expect(screen.queryByText('图文问诊', { selector: 'button' })).toBeNull()
    expect(screen.queryByText('复诊续方', { selector: 'button' })).toBeNull()
    fireEvent.click(screen.getByText('继续问诊', { selector: 'button' }))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/internet/tim/index?toUserId=d_100&type=inquiry&inquiryId=61' }])
    expect(sent('/dld-hospital/im/core/orderByDoctorAndUserId').map((r) => r.data)).toEqual(['doctorId=100'])
  })

  test('an open one not paid yet: 继续支付 on its order', async () => {
    open = { 100: inquiryOf(62, 'unpaid', 'chronic') }
    await openDoctor(100)
    expect(await screen.findByText('您与该医生有一个未结束的复诊续方（待支付）')).toBeTruthy()
    fireEvent.click(screen.getByText('继续支付', { selector: 'button' }))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/pages/order/inquiry/detail?id=62' }])
  })

  test('none open (or no answer): 图文问诊 and 复诊续方 as always', async () => {
    open = { 101: inquiryOf(63, 'waiting', 'inquiry', 101) }
    await openDoctor(100)
    await waitFor(() => expect(sent('/dld-hospital/im/core/orderByDoctorAndUserId')).toHaveLength(1))
    expect(screen.getByText('图文问诊', { selector: 'button' })).toBeTruthy()
    expect(screen.queryByText('继续问诊')).toBeNull()
  })

  test('the check failing says nothing: the page offers what it always does', async () => {
    failing.add('/dld-hospital/im/core/orderByDoctorAndUserId')
    await openDoctor(100)
    await waitFor(() => expect(sent('/dld-hospital/im/core/orderByDoctorAndUserId')).toHaveLength(1))
    expect(screen.getByText('图文问诊', { selector: 'button' })).toBeTruthy()
    expect(toasts()).toEqual([])
  })
})

// ---------- 我的医生: 可问诊优先 / 最近关注 ----------

describe('我的医生 /pages/doctor/index: 可问诊优先 / 最近关注', () => {
  test('accepting first by default; 最近关注 lists the latest followed first, from the fans call', async () => {
    followed = [104, 100, 102]
    testing.setRouter('/pages/doctor/index')
    render(<MyDoctors />)
    await screen.findByText('陈静')
    const order = screen.getByRole('tablist', { name: '排序' })
    expect(within(order).getAllByRole('tab').map((t) => [t.textContent, t.getAttribute('aria-selected')])).toEqual([
      ['可问诊优先', 'true'],
      ['最近关注', 'false'],
    ])
    expect(names()).toEqual(['李明', '张伟', '陈静'])

    fireEvent.click(within(order).getByText('最近关注'))
    await waitFor(() => expect(names()).toEqual(['张伟', '李明', '陈静']))
    expect(sent('/dld-hospital/im/fans/doctor/list')).toHaveLength(1)
    expect(within(order).getByText('最近关注').getAttribute('aria-selected')).toBe('true')

    fireEvent.click(within(order).getByText('可问诊优先'))
    await waitFor(() => expect(names()).toEqual(['李明', '张伟', '陈静']))
    expect(sent('/dld-hospital/doctor/chronic/getMyDoctor')).toHaveLength(2)
  })

  test('one doctor has no order to choose', async () => {
    followed = [100]
    testing.setRouter('/pages/doctor/index')
    render(<MyDoctors />)
    await screen.findByText('李明')
    expect(screen.queryByRole('tablist', { name: '排序' })).toBeNull()
  })
})

// ---------- 问诊记录: 复诊续方 ----------

describe('问诊记录 /internet/timHistory/index: 全部问诊 / 复诊续方', () => {
  const rows = () => Array.from(document.querySelectorAll<HTMLElement>('.tim-history__item'))

  test('复诊续方 lists the past renewals from their own call; a row opens its record', async () => {
    past = [inquiryOf(71, 'finished'), inquiryOf(72, 'cancelled', 'chronic'), inquiryOf(73, 'finished', 'chronic')]
    testing.setRouter('/internet/timHistory/index')
    render(<TimHistory />)
    await waitFor(() => expect(rows()).toHaveLength(3))
    const kinds = screen.getByRole('tablist', { name: '问诊类型' })
    fireEvent.click(within(kinds).getByText('复诊续方'))
    await waitFor(() => expect(rows()).toHaveLength(2))
    expect(sent('/dld-hospital/im/core/chronic/historyList').map((r) => r.data)).toEqual([{ page: 1, size: 10 }])
    expect(rows().map((r) => r.querySelector('.tim-history__status')!.textContent)).toEqual(['已取消', '已结束'])
    expect(rows()[0]!.textContent).toContain('复诊续方 · 心血管内科')
    expect(within(kinds).getByText('复诊续方').getAttribute('aria-selected')).toBe('true')
    fireEvent.click(rows()[1]!)
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/internet/timHistory/index?inquiryId=73' }])

    fireEvent.click(within(kinds).getByText('全部问诊'))
    await waitFor(() => expect(rows()).toHaveLength(3))
  })

  test('?kind=chronic opens on the renewals; none yet says so', async () => {
    past = [inquiryOf(71, 'finished')]
    testing.setRouter('/internet/timHistory/index', { kind: 'chronic' })
    render(<TimHistory />)
    expect(await screen.findByText('暂无复诊续方记录')).toBeTruthy()
    expect(sent('/dld-hospital/im/core/historyList')).toHaveLength(0)
  })
})

// ---------- 复诊续方: the diagnosis from the hospital's disease list ----------

describe('复诊续方 /internet/inquiry/useMedicine: 诊断 from the hospital’s disease list', () => {
  const openRenewal = async () => {
    followed = [100]
    testing.setRouter('/internet/inquiry/useMedicine', { doctorId: '100' })
    render(<RenewalPage />)
    await screen.findByRole('radiogroup', { name: '就诊人' })
  }
  const diagnosis = () => screen.getByPlaceholderText(/请填写线下医院给出的诊断/) as HTMLInputElement
  const finder = () => screen.getByLabelText('从医院疾病目录查找诊断')

  test('searches 500 ms after the last key, in the doctor’s hospital; a tap adds the name, a second takes it out; the words go to the server', async () => {
    jest.useFakeTimers()
    await openRenewal()
    fireEvent.change(finder(), { target: { value: '高' } })
    act(() => void jest.advanceTimersByTime(300))
    fireEvent.change(finder(), { target: { value: '高血压' } })
    act(() => void jest.advanceTimersByTime(499))
    expect(sent('/dld-hospital/common/diseaseCode')).toHaveLength(0)
    act(() => void jest.advanceTimersByTime(1))
    const found = await screen.findByRole('group', { name: '疾病目录' })
    expect(sent('/dld-hospital/common/diseaseCode').map((r) => r.data)).toEqual([{ hospitalCode: HOSPITAL, keyword: '高血压' }])
    const boxes = within(found).getAllByRole('checkbox')
    expect(boxes.map((b) => [b.getAttribute('aria-label'), b.getAttribute('aria-checked')])).toEqual([
      ['高血压（心血管内科）', 'false'],
      ['高血压心脏病（心血管内科）', 'false'],
    ])

    fireEvent.change(diagnosis(), { target: { value: '血脂异常' } })
    fireEvent.click(boxes[0]!)
    expect(diagnosis().value).toBe('血脂异常、高血压')
    fireEvent.click(boxes[1]!)
    expect(diagnosis().value).toBe('血脂异常、高血压、高血压心脏病')
    expect(boxes.map((b) => b.getAttribute('aria-checked'))).toEqual(['true', 'true'])
    fireEvent.click(boxes[0]!)
    expect(diagnosis().value).toBe('血脂异常、高血压心脏病')
    expect(boxes[0]!.getAttribute('aria-checked')).toBe('false')

    // a name written by hand counts as picked
    fireEvent.change(finder(), { target: { value: '糖尿病' } })
    act(() => void jest.advanceTimersByTime(500))
    const sugar = await screen.findByRole('checkbox', { name: '2型糖尿病（内分泌科）' })
    fireEvent.change(diagnosis(), { target: { value: '2型糖尿病，血脂异常' } })
    expect(sugar.getAttribute('aria-checked')).toBe('true')
    fireEvent.click(sugar)
    expect(diagnosis().value).toBe('血脂异常')

    jest.useRealTimers()
    fireEvent.click(sugar)
    fireEvent.change(screen.getAllByPlaceholderText(/药品名称/)[0]!, { target: { value: '二甲双胍片' } })
    fireEvent.change(screen.getByPlaceholderText(/请描述目前的病情/), { target: { value: '血糖平稳' } })
    fireEvent.click(screen.getByRole('checkbox', { name: /我已阅读并同意/ }))
    jest.spyOn(platform, 'pay').mockResolvedValue('left')
    fireEvent.click(screen.getByText('提交并支付'))
    await waitFor(() => expect(sent('/dld-hospital/inquiry/chronicInquiry')).toHaveLength(1))
    expect(bodyOf(sent('/dld-hospital/inquiry/chronicInquiry')[0]!).diagnosis).toBe('血脂异常、2型糖尿病')
    // ordered: nothing more to pick
    await waitFor(() => expect(screen.queryByLabelText('从医院疾病目录查找诊断')).toBeNull())
  })

  test('nothing found says the diagnosis can be written by hand; a name past 100 characters is refused', async () => {
    jest.useFakeTimers()
    await openRenewal()
    fireEvent.change(finder(), { target: { value: '无此病' } })
    act(() => void jest.advanceTimersByTime(500))
    expect(await screen.findByText('未找到该疾病，可直接在上方填写诊断')).toBeTruthy()

    fireEvent.change(diagnosis(), { target: { value: '病'.repeat(97) } })
    fireEvent.change(finder(), { target: { value: '高血压' } })
    act(() => void jest.advanceTimersByTime(500))
    fireEvent.click(await screen.findByRole('checkbox', { name: '高血压（心血管内科）' }))
    expect(toasts()).toEqual(['诊断不能超过100个字'])
    expect(diagnosis().value).toBe('病'.repeat(97))
  })

  test('a failed search says so and can be retried', async () => {
    jest.useFakeTimers()
    failing.add('/dld-hospital/common/diseaseCode')
    await openRenewal()
    fireEvent.change(finder(), { target: { value: '高血压' } })
    act(() => void jest.advanceTimersByTime(500))
    const retry = await screen.findByText('加载失败，点击重试')
    expect(toasts()).toEqual([])
    failing.clear()
    fireEvent.click(retry)
    expect(await screen.findByRole('group', { name: '疾病目录' })).toBeTruthy()
  })
})
