import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import { RootStore } from '../../src/stores/RootStore'
import { PatientStore } from '../../src/stores/PatientStore'
import { LOCAL, local } from '../../src/services/storage'
import { mapSensitive } from '../../src/utils/base64'
import { maskIdCard, maskName } from '../../src/utils/mask'
import HospitalList from '../../src/pages/hospital'
import AboutRich from '../../src/pages/about/rich'
import PalmHome from '../../src/pages/sys/palm'
import RegisterNotice from '../../src/palm/register'
import Mine from '../../src/pages/sys/user'
import HospitalConfig from '../../src/pages/hospitalConfig'
import EditUser from '../../src/pages/editUser'
import HealthPatient from '../../src/pages/healthPatient'
import PatientPage from '../../src/pages/patient'
import AddPatient from '../../src/pages/addPatient'
import TestPerson from '../../src/palm/chsPayment/TestPerson'
import type { Hospital, HospitalSetting, MenuEntry } from '../../types/api/hospital'
import type { Patient } from '../../types/api/patient'
import { usePatientStore } from '../../src/stores/PatientStore'
import { useInsuranceStore } from '../../src/stores/InsuranceStore'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

// ---------- the fake server: server/src/routes/patient/hospital.ts, palm.ts, patient.ts, insurance.ts and auth.ts ----------

const hospitalDto = (id: number, code: string, name: string, brandId: number | null): Hospital => ({
  id,
  hospitalCode: code,
  hospitalName: name,
  shortName: name.slice(2, 5),
  brandId,
  appId: `wx${code}demo00000`,
  level: '三级甲等',
  logo: '',
  address: `示范市${name}路1号`,
  phone: '0571-88880001',
  intro: '',
  configDto: { isInternet: true, isPalm: true },
})
const FIRST = hospitalDto(1, '10392', '示范市第一人民医院', 1)
const TCM = hospitalDto(2, '10388', '示范市中医院', 1)
const OTHER = hospitalDto(3, '10999', '独立社区医院', null)
const BRAND = { id: 1, name: '示范医疗集团', logo: '', intro: '由三家医院组成的紧密型医联体，检查结果互认。' }

const menu = (name: string, icon: string, role: MenuEntry['role']): MenuEntry => ({ name, icon, url: `/palm/${icon}/index`, role, group: '门诊服务' })
/** What startup's home-page config carries, and what the menu config answers (the hospital changed its menu since). */
let startupMenus: MenuEntry[] = []
let menuConfig: MenuEntry[] = []
let roles: string[] = []
/** 实名认证 as userinfo answers it (masked), null until declared. */
let identity: { name: string; idCard: string; verified: boolean } | null = null
let settings: HospitalSetting[] = []
let publicSettings: Record<string, string> = {}

interface Person {
  id: number
  name: string
  idCard: string
  mobile: string
  cardNo: string
  filedAt: string | null
  /** Bound with an electronic health card. */
  healthCard?: boolean
}
let people: Person[] = []
/** The health-card platform does not answer. */
let healthCardDown = false
const PERSON_ID = '110101199003074514'

function patientDto(p: Person, hospitalCode?: string): Patient {
  return {
    id: p.id,
    name: maskName(p.name),
    idCard: maskIdCard(p.idCard),
    mobile: p.mobile ? '138****5678' : '',
    sex: 1,
    sexText: '男',
    birthday: '1990-03-07',
    age: 36,
    relation: p.id === 1 ? '本人' : '子女',
    source: p.healthCard ? 'eHealth' : 'idCard',
    neonate: false,
    isDefault: p.id === 1,
    hisMedCardNo: hospitalCode ? p.cardNo : '',
    complete: !!p.mobile,
    missing: p.mobile ? [] : ['mobile'],
  }
}

/** The server's envelope, with the sensitive fields base64-encoded on the way out (server/src/sensitive.ts). */
const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data: mapSensitive(data, (s) => Buffer.from(s, 'utf8').toString('base64')) } })
const refuse = (code: number, msg: string) => ({ statusCode: 200, data: { code, msg, data: null } })
const fromBase64 = (s: string) => Buffer.from(s, 'base64').toString('utf8')

/** The fake server's answer to one request. */
function handle({ url, method, data }: { url: string; method: string; data: unknown }) {
  {
    const [path = '', search = ''] = url.split('?')
    const query = { ...Object.fromEntries(new URLSearchParams(search)), ...(method === 'GET' ? ((data ?? {}) as Record<string, string>) : {}) }
    const body = Object.fromEntries(new URLSearchParams(typeof data === 'string' ? data : ''))
    const last = path.split('/').pop()!
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles, appId: query.appId, provider: 'wechat', identity })
    if (path === '/dld-hospital/hospital/getByAppId') return ok(FIRST)
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: FIRST, menus: startupMenus, demo: false })
    if (path === '/dld-hospital/common/ad') return ok([])
    if (path === '/dld-hospital/common/isSupervision') return ok({ supervised: false, platformName: '' })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: query.imAccount, userSig: 's', expire: 1 })
    if (path === '/dld-im/im/update-unread-count') return ok({ count: 0 })
    if (path === '/dld-hospital/message/messageList') return ok({ records: [], total: 0, page: 1, size: 20, unread: 0 })
    if (path === '/dld-hospital/hospital/list') return ok([FIRST, TCM, OTHER].filter((h) => !query.keyword || h.hospitalName.includes(query.keyword)))
    if (path === '/dld-hospital/brand/list') return ok([{ ...BRAND, hospitalCount: 2 }])
    if (path.startsWith('/dld-hospital/common/hospitalList/')) return ok([FIRST, TCM, OTHER].filter((h) => h.brandId === Number(last)))
    if (path.startsWith('/dld-hospital/brand/dept/'))
      return ok(Number(last) === 1 ? [{ id: 11, deptName: '心血管内科', intro: '冠心病、高血压的诊治。', hospitalCode: TCM.hospitalCode, hospitalName: TCM.hospitalName }] : [])
    if (path === '/dld-hospital/brand/hospitalInfo') {
      const h = [FIRST, TCM, OTHER].find((x) => x.hospitalCode === query.hospitalCode)!
      return ok({ hospital: h, brand: h.brandId ? BRAND : null })
    }
    if (path.startsWith('/dld-hospital/common/textConfig/')) return ok({ about: '示范市第一人民医院是一所综合性医院。' })
    if (path.startsWith('/dld-hospital/common/menuConfig/')) return ok(menuConfig)
    if (path === '/dld-palm/api/hospital/register') return ok({ hospitalCode: FIRST.hospitalCode, holdMinutes: 15, cancelRule: '就诊前一日17:00前可取消，逾期不可退号', bookDays: 14, insurance: true, notice: '请按时就诊。' })
    if (path.startsWith('/dld-palm/api/hospital/config/')) {
      const key = decodeURIComponent(last)
      return ok({ key, value: publicSettings[key] ?? null })
    }
    if (path === '/dld-palm/admin/hospital-config') {
      if (!roles.includes('admin') && !roles.includes(`staff:${query.hospitalCode ?? body.hospitalCode}`)) return refuse(2999, '暂无权限')
      if (method === 'GET') return ok(settings)
      const saved = { key: body.key!, value: body.value!, updatedAt: '2026-11-24T02:30:00.000Z' }
      settings = settings.map((s) => (s.key === saved.key ? saved : s))
      return ok(saved)
    }
    if (path === '/dld-user/user/modifyiIdentify') {
      const idCard = fromBase64(body.idCard!)
      return ok({ name: maskName(body.name), idCard: maskIdCard(idCard), verified: true })
    }
    if (path === '/dld-palm/admin/system/dict') return ok(['本人', '父母', '配偶', '子女', '其他'].map((label, i) => ({ label, value: label, sort: i })))
    if (path === '/dld-palm/api/patient/list') return ok(people.map((p) => patientDto(p, query.hospitalCode)))
    const id = Number(query.id ?? query.patientId ?? body.id)
    const person = people.find((p) => p.id === id)
    const file = () => {
      if (!person!.mobile) return refuse(400, '当前就诊人信息不完整，请先完善就诊人信息。')
      const existed = !!person!.cardNo
      if (!existed) Object.assign(person!, { cardNo: `10392${String(person!.id).padStart(8, '0')}`, filedAt: '2026-11-24T03:00:00.000Z' })
      return ok({ patientId: person!.id, hospitalCode: FIRST.hospitalCode, hospitalName: FIRST.hospitalName, hisMedCardNo: person!.cardNo, existed })
    }
    if (path === '/dld-hospital/jkt/photoUrl') {
      if (!person) return refuse(2999, '暂无权限')
      if (!person.healthCard) return refuse(400, '该就诊人未绑定电子健康卡')
      if (healthCardDown) return refuse(500, '健康卡平台暂不可用')
      return ok({ patientId: person.id, url: `data:image/svg+xml;base64,${Buffer.from(`<svg>${person.id}</svg>`).toString('base64')}`, text: `HC${person.id}:x` })
    }
    if (path.startsWith('/dld-palm/api/patient/') || path === '/dld-hospital/autoRegister') {
      if (!person) return refuse(2999, '暂无权限')
      if (path === '/dld-palm/api/patient/info') return ok(patientDto(person, query.hospitalCode))
      if (path === '/dld-palm/api/patient/hospital/patient/record-info')
        return ok({ patientId: person.id, hospitalCode: FIRST.hospitalCode, hospitalName: FIRST.hospitalName, filed: !!person.cardNo, hisMedCardNo: person.cardNo, filedAt: person.filedAt })
      if (path === '/dld-palm/api/patient/hospital/patient/bind' || path === '/dld-hospital/autoRegister') return file()
      if (path === '/dld-palm/api/patient/bind') {
        person.mobile = body.mobile || person.mobile
        return ok({ ...patientDto(person), guardianName: '', guardianIdCard: '' })
      }
    }
    return { statusCode: 404, data: '' }
  }
}

const serve = () => testing.answer(handle)

const sent = (path: string) => calls.requests.filter((r) => r.url.split('?')[0] === path)
const toasts = () => calls.toasts.map((t) => t.title)
/** A tappable row of the mine page (its Cell draws a button) by the title it starts with. */
const entry = (title: string) => screen.queryAllByRole('button').find((b) => b.textContent?.startsWith(title))

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10392demo00000', expire: Date.now() + 3_600_000 })
  startupMenus = []
  menuConfig = []
  roles = []
  identity = null
  settings = []
  publicSettings = {}
  healthCardDown = false
  people = [
    { id: 1, name: '张三', idCard: PERSON_ID, mobile: '13812345678', cardNo: '1039200000001', filedAt: '2026-11-20T01:00:00.000Z' },
    { id: 2, name: '李小明', idCard: '110101201501011234', mobile: '13812345678', cardNo: '', filedAt: null },
    { id: 3, name: '王芳', idCard: '110101196208151241', mobile: '', cardNo: '', filedAt: null },
  ]
  mockRoot = new RootStore()
  serve()
})

// ---------- 选择医院 and the brands ----------

describe('选择医院 /pages/hospital/index by brand (医联体)', () => {
  test('every hospital first; the brand’s tab shows its member hospitals and featured departments', async () => {
    testing.setRouter('/pages/hospital/index')
    render(<HospitalList />)
    expect(await screen.findByText('独立社区医院')).toBeTruthy()
    const tabs = await screen.findAllByRole('tab')
    expect(tabs.map((t) => [t.textContent, t.getAttribute('aria-selected')])).toEqual([
      ['全部医院', 'true'],
      ['示范医疗集团', 'false'],
    ])
    expect(screen.getByRole('tablist').getAttribute('aria-label')).toBe('按医联体浏览')

    fireEvent.click(screen.getByRole('tab', { name: '示范医疗集团' }))
    expect(await screen.findByText('2家成员医院')).toBeTruthy()
    expect(screen.getByText('由三家医院组成的紧密型医联体，检查结果互认。')).toBeTruthy()
    expect(await screen.findByText('心血管内科')).toBeTruthy()
    expect(screen.queryByText('独立社区医院')).toBeNull()
    expect(screen.getByText('示范市第一人民医院')).toBeTruthy()
    // the hospital in use says so
    expect(within(screen.getByText('示范市第一人民医院').closest('.hospitals__item') as HTMLElement).getByText('当前医院')).toBeTruthy()
    expect(sent('/dld-hospital/common/hospitalList/1')).toHaveLength(1)
    expect(sent('/dld-hospital/brand/dept/1')).toHaveLength(1)

    // a featured department is seen at its own hospital: the app switches there
    fireEvent.click(within(screen.getByText('心血管内科').closest('.hospitals__dept') as HTMLElement).getByText('去该院就诊 ›'))
    expect(calls.navigations).toEqual([{ kind: 'reLaunch', url: '/pages/sys/index?hospitalCode=10388' }])
  })

  test('opened on a brand (from 关于我们), its hospitals show at once; a failed load offers 重新加载', async () => {
    const list = jest.spyOn(mockRoot.hospital.brandHospitals, 'load')
    let fail = true
    testing.answer((opts) => {
      if (opts.url.startsWith('/dld-hospital/common/hospitalList/') && fail) return { statusCode: 500, data: '' }
      return handle(opts)
    })
    testing.setRouter('/pages/hospital/index', { brandId: '1' })
    render(<HospitalList />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
    fail = false
    fireEvent.click(screen.getByText('重新加载'))
    expect(await screen.findByText('示范市中医院', { selector: '.hospitals__name' })).toBeTruthy()
    expect(screen.getByRole('tab', { name: '示范医疗集团' }).getAttribute('aria-selected')).toBe('true')
    expect(list).toHaveBeenCalledWith(1)
  })
})

describe('关于我们 /pages/about/rich names the hospital’s brand', () => {
  test('the brand, what it is, and the way to its hospitals', async () => {
    testing.setRouter('/pages/about/rich', { key: 'about' })
    local.set(LOCAL.hospital, FIRST)
    mockRoot = new RootStore()
    render(<AboutRich />)
    expect(await screen.findByText('示范市第一人民医院是一所综合性医院。')).toBeTruthy()
    expect(await screen.findByText('所属医联体')).toBeTruthy()
    expect(screen.getByText('示范医疗集团')).toBeTruthy()
    expect(sent('/dld-hospital/brand/hospitalInfo')[0]!.data).toEqual({ hospitalCode: '10392' })
    fireEvent.click(screen.getByRole('link', { name: '查看示范医疗集团的医院和特色科室 ›' }))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/pages/hospital/index?brandId=1' }])
  })

  test('a hospital of no brand, and the agreements, name none', async () => {
    local.set(LOCAL.hospital, OTHER)
    mockRoot = new RootStore()
    testing.setRouter('/pages/about/rich', { key: 'about' })
    render(<AboutRich />)
    await screen.findByText('示范市第一人民医院是一所综合性医院。')
    await waitFor(() => expect(sent('/dld-hospital/brand/hospitalInfo')).toHaveLength(1))
    expect(screen.queryByText('所属医联体')).toBeNull()
  })
})

// ---------- the palm home's menu ----------

describe('掌上医院 /pages/sys/palm/index draws the hospital’s menu config', () => {
  test('the menu config replaces startup’s menus, by the hospital’s role', async () => {
    startupMenus = [menu('预约挂号', 'register', 'palm')]
    menuConfig = [menu('预约挂号', 'register', 'palm'), menu('报告查询', 'report', 'palm'), menu('在线问诊', 'inquiry', 'internet')]
    testing.setRouter('/pages/sys/palm/index')
    render(<PalmHome />)
    expect(await screen.findByText('报告查询')).toBeTruthy()
    expect(sent('/dld-hospital/common/menuConfig/1')).toHaveLength(1)
    // a hospital with both families shows both
    expect(screen.getByText('在线问诊')).toBeTruthy()
  })

  test('a palm-only hospital shows the palm family; without the menu config the startup menus stay', async () => {
    testing.answer((opts) => {
      if (opts.url.startsWith('/dld-hospital/common/menuConfig/')) return { statusCode: 200, data: { code: 404, msg: '医院不存在', data: null } }
      if (opts.url === '/dld-hospital/hospital/getByAppId') return ok({ ...FIRST, configDto: { isInternet: false, isPalm: true } })
      return handle(opts)
    })
    startupMenus = [menu('预约挂号', 'register', 'palm'), menu('在线问诊', 'inquiry', 'internet'), menu('就诊人管理', 'patient', 'all')]
    testing.setRouter('/pages/sys/palm/index')
    render(<PalmHome />)
    expect(await screen.findByText('就诊人管理')).toBeTruthy()
    await waitFor(() => expect(sent('/dld-hospital/common/menuConfig/1')).toHaveLength(1))
    expect(screen.getByText('预约挂号')).toBeTruthy()
    expect(screen.queryByText('在线问诊')).toBeNull()
    expect(toasts()).toEqual([])
  })
})

// ---------- a public setting on the registration notice ----------

describe('挂号须知 /palm/register/index reads the hospital’s public setting', () => {
  test('free 普通号 for older patients when the hospital turns it on', async () => {
    publicSettings = { 'register.freeForElderly': 'true' }
    testing.setRouter('/palm/register/index')
    render(<RegisterNotice />)
    expect(await screen.findByText('敬老服务：本院老年人预约普通号免挂号费，确认挂号时按就诊人年龄自动减免')).toBeTruthy()
    expect(sent('/dld-palm/api/hospital/config/10392/register.freeForElderly')).toHaveLength(1)
  })

  test('nothing about it when unset', async () => {
    testing.setRouter('/palm/register/index')
    render(<RegisterNotice />)
    await screen.findByText('请按时就诊。')
    await waitFor(() => expect(sent('/dld-palm/api/hospital/config/10392/register.freeForElderly')).toHaveLength(1))
    expect(screen.queryByText(/敬老服务/)).toBeNull()
  })
})

// ---------- 医院设置 for the hospital's staff ----------

describe('医院设置 /pages/hospitalConfig/index', () => {
  /** What a setting's card says its value is. */
  const value = (label: string) => screen.getByText(label, { selector: '.hospital-config__label' }).nextSibling!.textContent
  beforeEach(() => {
    settings = [
      { key: 'register.cancelDeadline', value: '17:00', updatedAt: '2026-11-01T01:00:00.000Z' },
      { key: 'register.freeForElderly', value: 'true', updatedAt: '2026-11-01T01:00:00.000Z' },
      { key: 'register.holdMinutes', value: '15', updatedAt: '2026-11-01T01:00:00.000Z' },
    ]
  })

  test('我的 shows the entry to the hospital’s staff only', async () => {
    testing.setRouter('/pages/sys/user/index')
    const patientView = render(<Mine />)
    await screen.findByText('当前就诊人')
    expect(entry('医院设置')).toBeUndefined()
    patientView.unmount()

    roles = ['staff:10392']
    mockRoot = new RootStore()
    render(<Mine />)
    await waitFor(() => expect(entry('医院设置')).toBeTruthy())
    fireEvent.click(entry('医院设置')!)
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/pages/hospitalConfig/index' }])
  })

  test('staff of another hospital see no entry, and the page tells them it is not theirs without asking', async () => {
    roles = ['staff:10388']
    testing.setRouter('/pages/sys/user/index')
    const mine = render(<Mine />)
    await screen.findByText('当前就诊人')
    expect(entry('医院设置')).toBeUndefined()
    mine.unmount()
    testing.setRouter('/pages/hospitalConfig/index')
    render(<HospitalConfig />)
    expect(await screen.findByText('医院设置仅供本院工作人员使用')).toBeTruthy()
    expect(sent('/dld-palm/admin/hospital-config')).toHaveLength(0)
  })

  test('the settings by name; one value changed, checked first, then saved and shown', async () => {
    roles = ['staff:10392']
    testing.setRouter('/pages/hospitalConfig/index')
    render(<HospitalConfig />)
    const hold = await screen.findByRole('button', { name: '修改挂号待支付保留时长' })
    expect(value('挂号待支付保留时长')).toBe('15')
    expect(value('老年人普通号免挂号费')).toBe('已开启')
    expect(value('退号截止时间')).toBe('17:00')
    expect(sent('/dld-palm/admin/hospital-config')[0]!.data).toEqual({ hospitalCode: '10392' })

    fireEvent.click(hold)
    const input = screen.getByRole('textbox', { name: '设置值' }) as HTMLInputElement
    expect(input.value).toBe('15')
    fireEvent.change(input, { target: { value: '半小时' } })
    fireEvent.click(screen.getByText('保存'))
    expect(toasts()).toEqual(['请输入1至120的整数'])
    expect(sent('/dld-palm/admin/hospital-config').filter((r) => r.method === 'POST')).toHaveLength(0)

    fireEvent.change(input, { target: { value: '20' } })
    fireEvent.click(screen.getByText('保存'))
    await waitFor(() => expect(value('挂号待支付保留时长')).toBe('20'))
    const post = sent('/dld-palm/admin/hospital-config').find((r) => r.method === 'POST')!
    expect(Object.fromEntries(new URLSearchParams(post.data as string))).toEqual({ hospitalCode: '10392', key: 'register.holdMinutes', value: '20' })
    expect(toasts()).toEqual(['请输入1至120的整数', '已保存'])
  })

  test('an on / off setting is a switch', async () => {
    roles = ['admin']
    testing.setRouter('/pages/hospitalConfig/index')
    render(<HospitalConfig />)
    fireEvent.click(await screen.findByRole('button', { name: '修改老年人普通号免挂号费' }))
    const toggle = screen.getByRole('switch', { name: '老年人普通号免挂号费' })
    expect(toggle.getAttribute('aria-checked')).toBe('true')
    fireEvent.click(toggle)
    fireEvent.click(screen.getByText('保存'))
    await waitFor(() => expect(value('老年人普通号免挂号费')).toBe('已关闭'))
  })
})


// ---------- 实名认证 ----------

describe('实名认证 on /pages/editUser/index', () => {
  test('checked before it is sent; once saved only the masked values show, the number went base64-encoded', async () => {
    testing.setRouter('/pages/editUser/index')
    render(<EditUser />)
    const name = await screen.findByPlaceholderText('请输入本人真实姓名')
    const idCard = screen.getByPlaceholderText('请输入本人身份证号')
    fireEvent.click(screen.getByText('提交实名认证'))
    expect(toasts()).toEqual(['请输入真实姓名'])
    fireEvent.change(name, { target: { value: '张三' } })
    fireEvent.change(idCard, { target: { value: '110101199003074515' } })
    fireEvent.click(screen.getByText('提交实名认证'))
    expect(toasts()).toEqual(['请输入真实姓名', '身份证号码不正确'])
    expect(sent('/dld-user/user/modifyiIdentify')).toHaveLength(0)

    fireEvent.change(idCard, { target: { value: PERSON_ID } })
    fireEvent.click(screen.getByText('提交实名认证'))
    expect(await screen.findByText('110101********4514')).toBeTruthy()
    expect(screen.getByText('张*')).toBeTruthy()
    expect(screen.getByText('已认证')).toBeTruthy()
    expect(document.body.textContent).not.toContain(PERSON_ID)
    const body = new URLSearchParams(sent('/dld-user/user/modifyiIdentify')[0]!.data as string)
    expect([body.get('name'), fromBase64(body.get('idCard')!)]).toEqual(['张三', PERSON_ID])
    expect(toasts()).toEqual(['请输入真实姓名', '身份证号码不正确', '实名认证成功'])

    fireEvent.click(screen.getByRole('button', { name: '重新认证' }))
    expect((screen.getByPlaceholderText('请输入本人身份证号') as HTMLInputElement).value).toBe('')
  })

  test('an identity declared before shows masked as userinfo answers it, not an empty form', async () => {
    identity = { name: '张*', idCard: '110101********4514', verified: true }
    testing.setRouter('/pages/editUser/index')
    render(<EditUser />)
    expect(await screen.findByText('110101********4514')).toBeTruthy()
    expect(screen.getByText('已认证')).toBeTruthy()
    expect(screen.queryByPlaceholderText('请输入本人身份证号')).toBeNull()
  })
})

// ---------- the patient's card at the hospital ----------

describe('电子就诊卡 /pages/healthPatient/index?id=', () => {
  test('就诊卡 on a patient card opens that patient’s card', async () => {
    testing.setRouter('/pages/patient/index')
    render(<PatientPage />)
    const card = (await screen.findByText('李*明')).closest('.patient-card') as HTMLElement
    fireEvent.click(within(card).getByText('就诊卡'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/pages/healthPatient/index?id=2' }])
  })

  test('a filed patient: the card number whole with its QR code, and the record', async () => {
    testing.setRouter('/pages/healthPatient/index', { id: '1' })
    render(<HealthPatient />)
    expect(await screen.findByAltText('就诊卡号1039200000001的二维码')).toBeTruthy()
    expect(screen.getByText('电子就诊卡', { selector: '.card-detail__brand' })).toBeTruthy()
    expect(screen.getByText('张*')).toBeTruthy()
    expect(screen.getByText('110101********4514')).toBeTruthy()
    expect(screen.getByText('建档医院').nextSibling!.textContent).toBe('示范市第一人民医院')
    expect(screen.getByText('就诊卡号').nextSibling!.textContent).toBe('1039200000001')
    expect(screen.getByText('建档时间').nextSibling!.textContent).toMatch(/^2026-11-20 \d{2}:00$/)
    expect(document.body.textContent).not.toContain(PERSON_ID)
    expect(sent('/dld-palm/api/patient/info')[0]!.data).toEqual({ id: 1, hospitalCode: '10392' })
    expect(sent('/dld-palm/api/patient/hospital/patient/record-info')[0]!.data).toEqual({ id: 1, hospitalCode: '10392' })
    expect(screen.queryByText('申领电子就诊卡')).toBeNull()
  })

  test('a patient bound with a health card also shows the platform’s QR code of it; a patient without one asks for none', async () => {
    people[0]!.healthCard = true
    testing.setRouter('/pages/healthPatient/index', { id: '1' })
    render(<HealthPatient />)
    const qr = await screen.findByAltText('电子健康卡二维码')
    expect(qr.getAttribute('src')).toBe(`data:image/svg+xml;base64,${Buffer.from('<svg>1</svg>').toString('base64')}`)
    expect(screen.getByRole('group', { name: '电子健康卡' })).toBeTruthy()
    expect(screen.getByAltText('就诊卡号1039200000001的二维码')).toBeTruthy()
    expect(sent('/dld-hospital/jkt/photoUrl')[0]!.data).toEqual({ patientId: 1, hospitalCode: '10392' })
    cleanup()
    testing.setRouter('/pages/healthPatient/index', { id: '2' })
    render(<HealthPatient />)
    expect(await screen.findByText('尚未在示范市第一人民医院建档')).toBeTruthy()
    expect(screen.queryByRole('group', { name: '电子健康卡' })).toBeNull()
    expect(sent('/dld-hospital/jkt/photoUrl')).toHaveLength(1)
  })

  test('when the health-card platform does not answer, the rest of the card still shows', async () => {
    people[0]!.healthCard = true
    healthCardDown = true
    testing.setRouter('/pages/healthPatient/index', { id: '1' })
    render(<HealthPatient />)
    expect(await screen.findByText('电子健康卡二维码暂时无法获取，请稍后再打开')).toBeTruthy()
    expect(screen.getByAltText('就诊卡号1039200000001的二维码')).toBeTruthy()
    expect(screen.queryByAltText('电子健康卡二维码')).toBeNull()
  })

  test('a patient not filed here asks for the card, which is then shown', async () => {
    testing.setRouter('/pages/healthPatient/index', { id: '2' })
    render(<HealthPatient />)
    expect(await screen.findByText('尚未在示范市第一人民医院建档')).toBeTruthy()
    fireEvent.click(screen.getByText('申领电子就诊卡'))
    expect(await screen.findByAltText('就诊卡号1039200000002的二维码')).toBeTruthy()
    expect(sent('/dld-palm/api/patient/hospital/patient/bind')[0]!.data).toEqual({ id: 2, hospitalCode: '10392' })
    expect(sent('/dld-hospital/autoRegister')).toHaveLength(0)
    expect(toasts()).toEqual(['申领成功'])
  })

  test('an incomplete patient is completed first (spec §5), and nothing is asked of the server', async () => {
    testing.setRouter('/pages/healthPatient/index', { id: '3' })
    render(<HealthPatient />)
    expect(await screen.findByText('就诊人信息不完整，完善后即可申领电子就诊卡。')).toBeTruthy()
    fireEvent.click(screen.getByText('申领电子就诊卡'))
    const dialog = screen.getByRole('dialog')
    expect(within(dialog).getByText('当前就诊人信息不完整，请先完善就诊人信息。')).toBeTruthy()
    fireEvent.click(within(dialog).getByText('完善就诊人信息'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/custom/10392/addPatient/index?id=3&business=edit' }])
    expect(sent('/dld-palm/api/patient/hospital/patient/bind')).toHaveLength(0)
  })

  test('someone else’s patient: the card is not shown', async () => {
    testing.setRouter('/pages/healthPatient/index', { id: '9' })
    render(<HealthPatient />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/pages/permission' }])
  })
})

describe('PatientStore.complete files a completed patient at the hospital (autoRegister)', () => {
  test('an incomplete patient, once complete, gets its card without being asked', async () => {
    const store = new PatientStore(() => '10392')
    await store.load()
    await store.complete({ id: 3, mobile: '13812345678' })
    expect(sent('/dld-hospital/autoRegister')[0]!.data).toEqual({ patientId: 3, hospitalCode: '10392' })
    expect(store.byId(3)!.hisMedCardNo).toBe('1039200000003')
  })

  test('editing a complete patient files nothing; neither does completing one with no hospital chosen', async () => {
    const store = new PatientStore(() => '10392')
    await store.load()
    await store.complete({ id: 2, relation: '父母' })
    const main = new PatientStore(() => undefined)
    await main.load()
    await main.complete({ id: 3, mobile: '13812345678' })
    expect(sent('/dld-hospital/autoRegister')).toHaveLength(0)
  })
})

// ---------- the insurance sandbox's test person ----------

describe('the insurance sandbox’s test person on 医保支付', () => {
  const TEST = { name: '孙建国', idCard: '320102197806150034', insuTypeName: '职工基本医疗保险' }

  test('named masked; a patient who is not them can add them as a patient, the form starting filled in', async () => {
    render(<TestPerson person={TEST} patientId={1} />)
    expect(screen.getByText('测试参保人：孙*国 320102********0034（职工基本医疗保险）')).toBeTruthy()
    await waitFor(() => expect(usePatientStore.of(mockRoot).loaded).toBe(true))
    expect(document.body.textContent).not.toContain(TEST.idCard)
    fireEvent.click(screen.getByText('添加测试参保人为就诊人 ›'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/pages/addPatient/index' }])

    testing.setRouter('/pages/addPatient/index')
    render(<AddPatient />)
    expect(((await screen.findByPlaceholderText('请输入就诊人姓名')) as HTMLInputElement).value).toBe('孙建国')
    expect((screen.getByPlaceholderText('请输入身份证号') as HTMLInputElement).value).toBe(TEST.idCard)
    // once: the next form starts empty
    expect(usePatientStore.of(mockRoot).draft).toBeNull()
  })

  test('when the booking’s patient is the test person, the page says so', async () => {
    people.push({ id: 4, name: TEST.name, idCard: TEST.idCard, mobile: '13812345678', cardNo: '', filedAt: null })
    render(<TestPerson person={TEST} patientId={4} />)
    expect(await screen.findByText('本次就诊人即测试参保人，授权页请选择该测试参保人。')).toBeTruthy()
    expect(screen.queryByText('添加测试参保人为就诊人 ›')).toBeNull()
  })

  test('the store asks once; a server with no test person answers no one, quietly', async () => {
    let answer = ok(TEST)
    testing.answer((opts) => (opts.url === '/dld-palm/api/yibao/getAuthTestUserInfo' ? answer : handle(opts)))
    await useInsuranceStore.of(mockRoot).loadTestUser()
    await useInsuranceStore.of(mockRoot).loadTestUser()
    expect(useInsuranceStore.of(mockRoot).testUser).toEqual(TEST)
    expect(sent('/dld-palm/api/yibao/getAuthTestUserInfo')).toHaveLength(1)

    answer = refuse(400, '仅医保测试环境提供测试人员')
    mockRoot = new RootStore()
    await useInsuranceStore.of(mockRoot).loadTestUser()
    expect(useInsuranceStore.of(mockRoot).testUser).toBeNull()
    expect(toasts()).toEqual([])
  })
})
