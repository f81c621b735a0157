import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import { MSG } from '../../src/ui/messages'
import DoctorList from '../../src/internet/doctorList'
import DoctorSearch from '../../src/internet/searchParams'
import OnlineDoctorHome from '../../src/internet/doctor'
import MyDoctors from '../../src/pages/doctor'
import type { OnlineDept, OnlineDoctor, OnlineDoctorInfo } from '../../types/api/internet'
import { useDoctorStore } from '../../src/stores/DoctorStore'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10412'
const HOSPITAL_NAME = '示范互联网医院'

// ---------- the fake server ----------

const DEPTS: OnlineDept[] = [
  { id: 11, deptName: '心血管内科', doctorCount: 7, onlineCount: 6 },
  { id: 31, deptName: '儿内科', doctorCount: 5, onlineCount: 3 },
]

const NAMES = ['李明', '王芳', '张伟', '刘洋', '陈静', '杨帆', '赵磊', '黄丽', '周杰', '吴敏', '徐强', '孙悦']
/** spec §3 stars and §9 reply times come from these. */
function makeDoctor(i: number): OnlineDoctor {
  const dept = i < 7 ? DEPTS[0]! : DEPTS[1]!
  const level = [5, 4.5, 3, 4, 3.5][i % 5]!
  return {
    id: 100 + i,
    doctorName: NAMES[i]!,
    title: i % 2 ? '副主任医师' : '主任医师',
    avatar: `/static/doctors/${100 + i}.svg`,
    deptId: dept.id,
    deptName: dept.deptName,
    hospitalCode: HOSPITAL,
    hospitalName: HOSPITAL_NAME,
    level,
    stars: { full: Math.floor(level), half: level % 1 >= 0.5, empty: 5 - Math.ceil(level) },
    priceFen: [3000, 0, 1500, 500, 5000, 800][i % 6]!,
    avgReplySeconds: [900, 45, 7200, 0, 120, 28800][i % 6]!,
    replyTimeText: 'server text',
    servedCount: 1000 + i,
    goodRate: 90 + (i % 10),
    online: i % 4 !== 3,
    speciality: `擅长${i}`,
    imAccount: `d_${100 + i}`,
  }
}

let doctors: OnlineDoctor[] = []
let followed = new Set<number>()
let failing = new Set<string>()

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data } })
const refuse = (code: number, msg: string) => ({ statusCode: 200, data: { code, msg, data: null } })

const SORTERS: Record<string, (a: OnlineDoctor, b: OnlineDoctor) => number> = {
  default: (a, b) => Number(b.online) - Number(a.online),
  level: (a, b) => b.level - a.level,
  replyTime: (a, b) => (a.avgReplySeconds || 21600) - (b.avgReplySeconds || 21600),
  price: (a, b) => a.priceFen! - b.priceFen!,
}

function info(d: OnlineDoctor): OnlineDoctorInfo {
  return { ...d, intro: `${d.doctorName}，从事临床工作二十年。`, services: [{ type: 'text', name: '图文问诊', priceFen: d.priceFen! }], fansCount: 10 + (followed.has(d.id) ? 1 : 0), followed: followed.has(d.id) }
}

function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = ''] = url.split('?')
    const query = (method === 'GET' ? data ?? {} : {}) as Record<string, string | number>
    const body = Object.fromEntries(new URLSearchParams(typeof data === 'string' ? data : ''))
    if (failing.has(path)) return refuse(500, '服务器开小差了')
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: query.appId, provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 3, hospitalCode: HOSPITAL, hospitalName: HOSPITAL_NAME, configDto: { isInternet: true, isPalm: false } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: query.imAccount, userSig: 's', expire: 1 })

    if (path === '/dld-hospital/index/hospitalDept') return ok(DEPTS)
    if (path === '/dld-hospital/index/doctorList') {
      const page = Number(query.page)
      const size = Number(query.size)
      const list = doctors.filter((d) => !query.deptId || d.deptId === Number(query.deptId)).sort(SORTERS[String(query.sort)]!)
      return ok({ records: list.slice((page - 1) * size, page * size), total: list.length, page, size })
    }
    if (path === '/dld-hospital/index/search') {
      const k = String(query.keyword)
      return ok({
        doctors: doctors.filter((d) => d.doctorName.includes(k) || d.deptName.includes(k)),
        depts: DEPTS.filter((d) => d.deptName.includes(k)).map((d) => ({ ...d, hospitalCode: HOSPITAL, hospitalName: HOSPITAL_NAME })),
      })
    }
    if (path === '/dld-hospital/doctor/info') {
      const d = doctors.find((x) => x.id === Number(query.id))
      return d ? ok(info(d)) : refuse(404, '医生不存在')
    }
    if (path === '/dld-hospital/im/fans/follow' || path === '/dld-hospital/im/fans/cancel/follow') {
      const id = Number(body.doctorId)
      if (path.endsWith('/cancel/follow')) followed.delete(id)
      else followed.add(id)
      return ok({ doctorId: id, followed: followed.has(id), fansCount: 10 + (followed.has(id) ? 1 : 0) })
    }
    if (path === '/dld-hospital/im/evaluate/doctor/evaluates') {
      const d = doctors.find((x) => x.id === Number(body.doctorId))
      return d ? ok({ records: [], total: 0, page: 1, size: 10, summary: { count: 0, goodRate: d.goodRate, tags: [] } }) : refuse(404, '医生不存在')
    }
    // the doctor's home asks whether a consultation with the doctor is open (继续问诊): none here
    if (path === '/dld-hospital/im/core/orderByDoctorAndUserId') return ok(null)
    if (path === '/dld-hospital/doctor/chronic/getMyDoctor') return ok(doctors.filter((d) => followed.has(d.id)).sort(SORTERS.default))
    return { statusCode: 404, data: '' }
  })
}

const sent = (path: string) => calls.requests.filter((r) => r.url.split('?')[0] === path)
const formOf = (r: { data: unknown }) => Object.fromEntries(new URLSearchParams(r.data as string))
const toasts = () => calls.toasts.map((t) => t.title)
const cards = () => Array.from(document.querySelectorAll<HTMLElement>('.doctor-card'))
const names = () => cards().map((c) => c.querySelector('.doctor-card__name')!.textContent)
const card = (name: string) => screen.getByText(name).closest('.doctor-card') as HTMLElement

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10412demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  doctors = NAMES.map((_, i) => makeDoctor(i))
  followed = new Set()
  failing = new Set()
  serve()
})
afterEach(() => {
  jest.useRealTimers()
})

describe('在线问诊 /internet/doctorList/index', () => {
  const open = async () => {
    testing.setRouter('/internet/doctorList/index')
    render(<DoctorList />)
    await screen.findByText('李明')
  }

  test('asks for the first page of the hospital; cards show title, department, stars, price, reply time, served count and whether online', async () => {
    await open()
    expect(sent('/dld-hospital/index/doctorList').map((r) => r.data)).toEqual([{ hospitalCode: HOSPITAL, sort: 'default', page: 1, size: 10 }])
    expect(sent('/dld-hospital/index/hospitalDept').map((r) => r.data)).toEqual([{ hospitalCode: HOSPITAL }])
    const tabs = within(screen.getByLabelText('科室')).getAllByRole('tab')
    expect(tabs.map((t) => [t.textContent, t.getAttribute('aria-selected')])).toEqual([
      ['全部', 'true'],
      ['心血管内科', 'false'],
      ['儿内科', 'false'],
    ])
    expect(cards()).toHaveLength(10)

    // 李明: level 5, ¥30.00, 900 s
    const li = card('李明')
    expect(within(li).getByText('主任医师')).toBeTruthy()
    expect(within(li).getByText(`心血管内科 · ${HOSPITAL_NAME}`)).toBeTruthy()
    expect(li.querySelectorAll('.level-stars__star--full')).toHaveLength(5)
    expect(within(li).getByLabelText('服务等级5星')).toBeTruthy()
    expect(within(li).getByText('图文 ¥30.00')).toBeTruthy()
    expect(within(li).getByText('平均回复 15分钟 · 服务 1000 次 · 好评 90%')).toBeTruthy()
    expect(within(li).getByText('在线')).toBeTruthy()
    // 王芳: 4.5 stars, free, 45 s
    const wang = card('王芳')
    expect(wang.querySelectorAll('.level-stars__star--full')).toHaveLength(4)
    expect(wang.querySelectorAll('.level-stars__star--half')).toHaveLength(1)
    expect(wang.querySelectorAll('.level-stars__star--empty')).toHaveLength(0)
    expect(within(wang).getByText('图文 免费')).toBeTruthy()
    expect(wang.textContent).toContain('平均回复 45秒')
    // 刘洋: not accepting, no reply time known (spec §9: 6小时)
    const liu = card('刘洋')
    expect(within(liu).getByText('休息中')).toBeTruthy()
    expect(liu.className).toContain('doctor-card--offline')
    expect(liu.textContent).toContain('平均回复 6小时')
    expect(liu.textContent).not.toContain('server text')
  })

  test('a sort tab asks the server in that order and shows its answer; a department chip narrows the list', async () => {
    await open()
    fireEvent.click(screen.getByText('价格低'))
    await waitFor(() => expect(names()[0]).toBe('王芳'))
    expect(sent('/dld-hospital/index/doctorList').at(-1)!.data).toEqual({ hospitalCode: HOSPITAL, sort: 'price', page: 1, size: 10 })
    const prices = cards().map((c) => c.querySelector('.doctor-card__price')!.textContent)
    expect(prices.slice(0, 2)).toEqual(['图文 免费', '图文 免费'])
    expect(screen.getByText('价格低').getAttribute('aria-selected')).toBe('true')

    fireEvent.click(within(screen.getByLabelText('科室')).getByText('儿内科'))
    await waitFor(() => expect(cards()).toHaveLength(5))
    expect(sent('/dld-hospital/index/doctorList').at(-1)!.data).toEqual({ hospitalCode: HOSPITAL, deptId: 31, sort: 'price', page: 1, size: 10 })
    expect(names().sort()).toEqual(['周杰', '吴敏', '孙悦', '徐强', '黄丽'].sort())
    expect(screen.getByText('没有更多了')).toBeTruthy()

    fireEvent.click(within(screen.getByLabelText('科室')).getByText('全部'))
    await waitFor(() => expect(cards()).toHaveLength(10))
    expect(sent('/dld-hospital/index/doctorList').at(-1)!.data).toEqual({ hospitalCode: HOSPITAL, sort: 'price', page: 1, size: 10 })
  })

  test('the next page joins the list at the bottom; then 没有更多了', async () => {
    await open()
    expect(screen.getByText(MSG.loadMore)).toBeTruthy()
    fireEvent.click(screen.getByText(MSG.loadMore))
    await waitFor(() => expect(cards()).toHaveLength(12))
    expect(sent('/dld-hospital/index/doctorList').map((r) => (r.data as { page: number }).page)).toEqual([1, 2])
    expect(screen.getByText(MSG.listNoMore)).toBeTruthy()
    fireEvent.click(screen.getByText(MSG.listNoMore))
    expect(sent('/dld-hospital/index/doctorList')).toHaveLength(2)
    expect(new Set(names()).size).toBe(12)
  })

  test('the search entry and a doctor card open their pages', async () => {
    await open()
    fireEvent.click(screen.getByText('搜索医生、科室、擅长疾病'))
    fireEvent.click(card('张伟'))
    expect(calls.navigations).toEqual([
      { kind: 'navigateTo', url: '/internet/searchParams/index' },
      { kind: 'navigateTo', url: '/internet/doctor/index?id=102' },
    ])
  })

  test('a failed list says 加载失败 and can be retried', async () => {
    failing.add('/dld-hospital/index/doctorList')
    testing.setRouter('/internet/doctorList/index')
    render(<DoctorList />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
    failing.clear()
    fireEvent.click(screen.getByText('重新加载'))
    expect(await screen.findByText('李明')).toBeTruthy()
  })
})

describe('搜索医生 /internet/searchParams/index', () => {
  test('searches 500 ms after the last keystroke; doctors and departments; a department opens the list in it', async () => {
    jest.useFakeTimers()
    testing.setRouter('/internet/searchParams/index')
    render(<DoctorSearch />)
    const box = await screen.findByPlaceholderText('搜索医生、科室、擅长疾病')
    fireEvent.change(box, { target: { value: '李' } })
    act(() => void jest.advanceTimersByTime(200))
    fireEvent.change(box, { target: { value: '儿内' } })
    act(() => void jest.advanceTimersByTime(499))
    expect(sent('/dld-hospital/index/search')).toHaveLength(0)
    act(() => void jest.advanceTimersByTime(1))
    await screen.findByText('3/5 位医生在线')
    expect(sent('/dld-hospital/index/search').map((r) => r.data)).toEqual([{ hospitalCode: HOSPITAL, keyword: '儿内' }])
    expect(cards()).toHaveLength(5)

    fireEvent.click(card('黄丽'))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/internet/doctor/index?id=107' })
    fireEvent.click(screen.getByText('儿内科'))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/internet/doctorList/index' })
    expect(useDoctorStore.of(mockRoot).deptId).toBe(31)
  })

  test('nothing found says so', async () => {
    jest.useFakeTimers()
    testing.setRouter('/internet/searchParams/index')
    render(<DoctorSearch />)
    const box = await screen.findByPlaceholderText('搜索医生、科室、擅长疾病')
    fireEvent.change(box, { target: { value: '无此人' } })
    act(() => void jest.advanceTimersByTime(500))
    expect(await screen.findByText('未找到相关医生或科室')).toBeTruthy()
  })
})

describe('医生主页 /internet/doctor/index', () => {
  const open = async (id: number) => {
    testing.setRouter('/internet/doctor/index', { id: String(id) })
    render(<OnlineDoctorHome />)
    await screen.findByText(`${HOSPITAL_NAME} · ${doctors.find((d) => d.id === id)!.deptName}`)
  }

  test('who the doctor is and how they serve online', async () => {
    await open(100)
    expect(sent('/dld-hospital/doctor/info').map((r) => r.data)).toEqual([{ id: 100 }])
    expect(screen.getByText('李明', { selector: '.online-doctor__name' })).toBeTruthy()
    expect(screen.getByText('主任医师')).toBeTruthy()
    expect(screen.getByLabelText('服务等级5星')).toBeTruthy()
    expect(screen.getByText('15分钟')).toBeTruthy()
    expect(screen.getByText('1000')).toBeTruthy()
    expect(screen.getByText('90%')).toBeTruthy()
    expect(screen.getByText('擅长0')).toBeTruthy()
    expect(screen.getByText('李明，从事临床工作二十年。')).toBeTruthy()
    expect(screen.getByText('¥30.00')).toBeTruthy()
    expect(screen.getByText('在线')).toBeTruthy()
  })

  test('关注 follows and 已关注 unfollows, through the server', async () => {
    await open(101)
    fireEvent.click(screen.getByRole('button', { name: '关注' }))
    expect(await screen.findByRole('button', { name: '已关注' })).toBeTruthy()
    expect(sent('/dld-hospital/im/fans/follow').map(formOf)).toEqual([{ doctorId: '101' }])
    expect(sent('/dld-hospital/im/fans/follow')[0]!.method).toBe('PUT')
    expect(screen.getByRole('button', { name: '已关注' }).getAttribute('aria-pressed')).toBe('true')
    expect(screen.getByText('11')).toBeTruthy() // fans
    expect(followed.has(101)).toBe(true)

    fireEvent.click(screen.getByRole('button', { name: '已关注' }))
    expect(await screen.findByRole('button', { name: '关注' })).toBeTruthy()
    expect(sent('/dld-hospital/im/fans/cancel/follow').map(formOf)).toEqual([{ doctorId: '101' }])
    expect(followed.has(101)).toBe(false)
    expect(toasts()).toEqual(['已关注', '已取消关注'])
  })

  test('a doctor who is not accepting consultations: 休息中, and 图文问诊 cannot be started', async () => {
    await open(103)
    expect(screen.getByText('休息中')).toBeTruthy()
    expect(screen.getByText('医生休息中，可先关注，医生上线后再来问诊')).toBeTruthy()
    const button = screen.getByText('图文问诊', { selector: 'button' }) as HTMLButtonElement
    expect(button.disabled).toBe(true)
  })

  test('an unknown doctor says 加载失败', async () => {
    testing.setRouter('/internet/doctor/index', { id: '999' })
    render(<OnlineDoctorHome />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
    expect(toasts()).toEqual(['医生不存在'])
  })
})

describe('我的医生 /pages/doctor/index', () => {
  test('the followed doctors, accepting ones first; a card opens the doctor', async () => {
    followed = new Set([103, 104])
    testing.setRouter('/pages/doctor/index')
    render(<MyDoctors />)
    await screen.findByText('陈静')
    expect(names()).toEqual(['陈静', '刘洋'])
    expect(within(card('刘洋')).getByText('休息中')).toBeTruthy()
    fireEvent.click(card('陈静'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/internet/doctor/index?id=104' }])
  })

  test('none followed yet: says so and offers to find a doctor', async () => {
    testing.setRouter('/pages/doctor/index')
    render(<MyDoctors />)
    expect(await screen.findByText('还没有关注的医生')).toBeTruthy()
    fireEvent.click(screen.getByText('去找医生'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/internet/doctorList/index' }])
  })
})
