import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import Taro, { calls, testing } from './doubles/taro'
import platform from '../../src/platform/index.h5'
import { RootStore } from '../../src/stores/RootStore'
import { feverDept } from '../../src/stores/FeverStore'
import { LOCAL, local } from '../../src/services/storage'
import type { ChatDriver, ChatHandler } from '../../src/services/chat/driver'
import RenewalPage from '../../src/internet/inquiry/useMedicine'
import InquiryPage from '../../src/internet/inquiry'
import NoticePage from '../../src/internet/doctorList/notice'
import OnlineDoctorHome from '../../src/internet/doctor'
import FeverClinic from '../../src/internet/heat'
import Guidance from '../../src/internet/guidance'
import type { ChatConversation, ChatEvent, ChatEvents, ChatMessage, ChatMessagePage } from '../../types/api/chat'
import type { Inquiry, InquiryDoctor, InquiryKind } from '../../types/api/inquiry'
import type { OnlineDept, OnlineDoctorInfo, PhysicianAssistant } from '../../types/api/internet'
import type { Patient } from '../../types/api/patient'
import { useRecordStore } from '../../src/stores/RecordStore'
import { useAssistantStore } from '../../src/stores/AssistantStore'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10412'
const HOSPITAL_NAME = '示范互联网医院'
/** The server's texts (server/src/domain/consultationHistory.ts, routes/patient/consultation.ts), verbatim. */
const NOT_MY_DOCTOR = '复诊续方仅限您关注的医生或曾为该就诊人接诊的医生'
const NO_DIAGNOSIS = '请填写诊断'
const NO_MEDICINE = '请填写需要续方的药品'
const NO_DOCTOR_AVAILABLE = '当前科室暂无可接诊的医生，请稍后再试或选择其他科室'

// ---------- the fake server ----------

function doctorInfo(id: number, name: string, priceFen: number): OnlineDoctorInfo {
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
    priceFen,
    avgReplySeconds: 900,
    replyTimeText: '15分钟',
    servedCount: 1000,
    goodRate: 98,
    online: true,
    speciality: '高血压',
    imAccount: `d_${id}`,
    intro: '从事临床工作二十年。',
    services: [{ type: 'text', name: '图文问诊', priceFen }],
    fansCount: 10,
    followed: id === 100,
  }
}
const doctors: Record<number, OnlineDoctorInfo> = { 100: doctorInfo(100, '李明', 3000), 101: doctorInfo(101, '王芳', 2000) }
/** Whom the caller may renew with: a doctor followed, or one who served the patient (server chronicInquiry). */
const myDoctors = new Set([100])
/** Whom 快速问诊 goes to, by department (none: the hospital's least busy doctor). */
const QUICK_DOCTORS: Record<string, InquiryDoctor> = {
  22: { id: 200, doctorName: '周强', title: '主治医师', avatar: '', deptName: '发热门诊', imAccount: 'd_200' },
  21: { id: 201, doctorName: '赵敏', title: '副主任医师', avatar: '', deptName: '呼吸与危重症医学科', imAccount: 'd_201' },
  none: { id: 100, doctorName: '李明', title: '主任医师', avatar: '', deptName: '心血管内科', imAccount: 'd_100' },
}

const people = [
  { id: 1, name: '张三' },
  { id: 2, name: '王小二' },
]
const patientDto = (p: { id: number; name: string }, i: number): Patient => ({
  id: p.id,
  name: p.name,
  idCard: '110101********4514',
  mobile: '138****5678',
  sex: 1,
  sexText: '男',
  birthday: '1990-03-07',
  age: 36,
  relation: i === 0 ? '本人' : '父母',
  source: 'idCard',
  neonate: false,
  isDefault: i === 0,
  hisMedCardNo: `A10000${p.id}`,
  complete: true,
  missing: [],
})

let depts: OnlineDept[] = []
let nextId = 900

function inquiryOf(kind: InquiryKind, doctor: InquiryDoctor, priceFen: number, description: string): Inquiry {
  const id = nextId++
  return {
    id,
    inquiryNo: `I20261123${String(id).padStart(12, '0')}`,
    status: 'unpaid',
    statusText: '待支付',
    serviceType: 'text',
    serviceName: kind === 'chronic' ? '复诊续方' : '快速问诊',
    kind,
    description,
    pictures: [],
    priceFen,
    patientId: 1,
    patientName: '张*',
    hospitalCode: HOSPITAL,
    hospitalName: HOSPITAL_NAME,
    doctor,
    paidAt: null,
    acceptedAt: null,
    serviceEndsAt: null,
    finishedAt: null,
    cancellable: true,
    complaint: null,
    intake: null,
    evaluated: false,
    order: {
      orderNo: `P20261123${String(id).padStart(12, '0')}`,
      business: 'inquiry',
      subject: `${kind === 'chronic' ? '复诊续方' : '快速问诊'} ${doctor.doctorName}`,
      amountFen: priceFen,
      insuranceFen: 0,
      selfPayFen: priceFen,
      status: 'created',
      channel: null,
      expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
      paidAt: null,
      refundedFen: 0,
      createdAt: new Date().toISOString(),
    },
    createdAt: new Date().toISOString(),
  }
}

const ASSISTANTS: PhysicianAssistant[] = [
  { id: 5, name: '陈助理', imAccount: 'a_5', avatar: '/static/assistants/5.svg', hospitalCode: HOSPITAL },
  { id: 6, name: '刘助理', imAccount: 'a_6', avatar: '/static/assistants/6.svg', hospitalCode: HOSPITAL },
]

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data } })
const refuse = (code: number, msg: string) => ({ statusCode: 200, data: { code, msg, data: null } })

let made: Inquiry[] = []
let byKey = new Map<string, Inquiry>()

function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = ''] = url.split('?')
    const query = (method === 'GET' ? data ?? {} : {}) as Record<string, string | number>
    const json = (method !== 'GET' && data && typeof data === 'object' ? data : {}) as Record<string, unknown>
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: query.appId, provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 3, hospitalCode: HOSPITAL, hospitalName: HOSPITAL_NAME, configDto: { isInternet: true, isPalm: false } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-hospital/common/ad') return ok([])
    if (path === '/dld-hospital/common/isSupervision') return ok({ supervised: false, platformName: '' })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: query.imAccount, userSig: 's', expire: 1 })
    if (path === '/dld-palm/api/patient/list') return ok(people.map(patientDto))
    if (path === '/dld-hospital/im/patient/record/list') return ok([])
    if (path === '/dld-hospital/doctor/info') return doctors[Number(query.id)] ? ok(doctors[Number(query.id)]) : refuse(404, '医生不存在')
    if (path === '/dld-hospital/index/hospitalDept') return ok(depts)
    if (path === '/dld-hospital/index/physicianAssistant') return query.hospitalCode === HOSPITAL ? ok(ASSISTANTS) : ok([])
    if (path === '/dld-hospital/inquiry/chronicInquiry') {
      const key = String(json.idempotencyKey)
      if (byKey.has(key)) return ok(byKey.get(key))
      const doctor = doctors[Number(json.doctorId)]!
      if (!myDoctors.has(doctor.id)) return refuse(400, NOT_MY_DOCTOR)
      const { id, doctorName, title, avatar, deptName, imAccount } = doctor
      const inq = inquiryOf('chronic', { id, doctorName, title, avatar, deptName, imAccount }, 3000, String(json.description))
      made.push(inq)
      byKey.set(key, inq)
      return ok(inq)
    }
    if (path === '/dld-hospital/inquiry/quickInquiry') {
      const key = String(json.idempotencyKey)
      if (byKey.has(key)) return ok(byKey.get(key))
      const doctor = QUICK_DOCTORS[json.deptId === undefined ? 'none' : String(json.deptId)]
      if (!doctor) return refuse(400, NO_DOCTOR_AVAILABLE)
      const inq = inquiryOf('quick', doctor, 2500, String(json.description))
      made.push(inq)
      byKey.set(key, inq)
      return ok(inq)
    }
    if (path === '/dld-hospital/im/trade/service/im/init/continuePay') {
      const inq = made.find((i) => i.id === Number(json.id))
      return inq ? ok({ kind: 'redirect', channel: 'sandbox', url: `/sandbox/pay/cashier?orderNo=${inq.order!.orderNo}` }) : refuse(2999, '暂无权限')
    }
    return { statusCode: 404, data: '' }
  })
}

// ---------- the chat service: a driver in memory ----------

const ME = '0_7'

class FakeDriver implements ChatDriver {
  history: ChatMessage[] = []
  conversations: ChatConversation[] = []
  sent: ChatMessage[] = []
  read: string[] = []
  private stored = 100
  private handlers = new Map<ChatEvent, Set<(payload: never) => void>>()

  async login() {}
  async logout() {}
  async updateProfile() {}
  async getConversationList() {
    return this.conversations
  }
  async getMessageList(conversationID: string): Promise<ChatMessagePage> {
    return { messages: this.history.filter((m) => m.conversationID === conversationID), nextCursor: null }
  }
  async sendMessage(message: ChatMessage) {
    this.sent.push(message)
    const copy = { ...message, id: String(++this.stored), time: Date.now(), status: 'sendSuccess' as const }
    this.history.push(copy)
    return copy
  }
  async setMessageRead(conversationID: string) {
    this.read.push(conversationID)
  }
  on<E extends ChatEvent>(event: E, handler: ChatHandler<E>) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set())
    this.handlers.get(event)!.add(handler as (payload: never) => void)
  }
  off<E extends ChatEvent>(event: E, handler: ChatHandler<E>) {
    this.handlers.get(event)?.delete(handler as (payload: never) => void)
  }
  emit<E extends ChatEvent>(event: E, payload: ChatEvents[E]) {
    for (const handler of this.handlers.get(event) ?? []) (handler as ChatHandler<E>)(payload)
  }
}

const fromAssistant = (payload: string, account = 'a_5'): ChatMessage => ({
  id: `m${Math.random().toString(16).slice(2)}`,
  conversationID: `C2C${account}`,
  from: account,
  to: ME,
  type: 'text',
  payload,
  description: '',
  time: Date.now(),
  status: 'sendSuccess',
})

// ---------- helpers ----------

const sent = (path: string) => calls.requests.filter((r) => r.url.split('?')[0] === path)
const bodyOf = (r: { data: unknown }) => r.data as Record<string, unknown>
const toasts = () => calls.toasts.map((t) => t.title)
const KEY = expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/)
const agree = () => fireEvent.click(screen.getByRole('checkbox', { name: /我已阅读并同意/ }))

let pay: jest.SpyInstance

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10412demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  depts = []
  made = []
  byKey = new Map()
  nextId = 900
  pay = jest.spyOn(platform, 'pay').mockResolvedValue('left')
  jest.spyOn(console, 'warn').mockImplementation(() => undefined)
  jest.spyOn(console, 'info').mockImplementation(() => undefined)
  serve()
})
afterEach(() => {
  mockRoot.chat.dispose()
  jest.restoreAllMocks()
})

// ---------- 复诊续方 ----------

describe('复诊续方 /internet/inquiry/useMedicine', () => {
  const open = async (doctorId = 100) => {
    testing.setRouter('/internet/inquiry/useMedicine', { doctorId: String(doctorId) })
    render(<RenewalPage />)
    await screen.findByText(doctors[doctorId]!.doctorName)
    await screen.findByRole('radiogroup', { name: '就诊人' })
  }
  const medicineInputs = () => screen.getAllByPlaceholderText(/药品名称/) as HTMLInputElement[]
  const setMedicine = (i: number, name: string) => fireEvent.change(medicineInputs()[i]!, { target: { value: name } })
  const diagnosisInput = () => screen.getByPlaceholderText(/请填写线下医院给出的诊断/) as HTMLInputElement
  const fill = () => {
    fireEvent.change(screen.getByPlaceholderText(/请描述目前的病情/), { target: { value: '血压控制平稳，药快吃完了' } })
    fireEvent.change(diagnosisInput(), { target: { value: '原发性高血压' } })
  }
  const submit = () => fireEvent.click(screen.getByText('提交并支付'))

  test('the diagnosis and the medicines (rows added and removed) go with the illness and a key; then it is paid like 图文问诊', async () => {
    await open()
    const card = document.querySelector('.inquiry__doctor') as HTMLElement
    expect(within(card).getByText('复诊续方')).toBeTruthy()
    expect(within(card).getByText('¥30.00')).toBeTruthy()
    fill()
    setMedicine(0, '苯磺酸氨氯地平片')
    fireEvent.click(screen.getByText('+ 添加药品'))
    setMedicine(1, '阿司匹林肠溶片')
    fireEvent.click(screen.getByText('+ 添加药品'))
    setMedicine(2, '厄贝沙坦片')
    expect(screen.getByText('3/10')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: '删除第2个药品' }))
    expect(medicineInputs().map((i) => i.value)).toEqual(['苯磺酸氨氯地平片', '厄贝沙坦片'])
    agree()
    submit()

    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    const [order] = sent('/dld-hospital/inquiry/chronicInquiry')
    expect(order!.header['Content-Type']).toBe('application/json')
    expect(bodyOf(order!)).toEqual({
      doctorId: 100,
      patientId: 1,
      description: '血压控制平稳，药快吃完了',
      diagnosis: '原发性高血压',
      medicines: ['苯磺酸氨氯地平片', '厄贝沙坦片'],
      pictures: [],
      idempotencyKey: KEY,
    })
    expect(sent('/dld-hospital/im/trade/service/im/init/continuePay').map(bodyOf)).toEqual([{ id: 900, returnUrl: '/h5/pages/order/inquiry/detail?id=900' }])
    expect(pay).toHaveBeenCalledWith({ kind: 'redirect', channel: 'sandbox', url: '/sandbox/pay/cashier?orderNo=P20261123000000000900' })
    // ordered: nothing can be changed, 去支付 pays the same one
    expect(screen.getByText('问诊已提交，请在30分钟内完成支付')).toBeTruthy()
    expect(screen.queryByText('+ 添加药品')).toBeNull()
  })

  test('a doctor the patient neither follows nor consulted: the server’s refusal shows on the page, and nothing is paid', async () => {
    await open(101)
    fill()
    setMedicine(0, '苯磺酸氨氯地平片')
    agree()
    submit()
    const alert = await screen.findByRole('alert')
    expect(within(alert).getByText(NOT_MY_DOCTOR)).toBeTruthy()
    expect(toasts()).toEqual([NOT_MY_DOCTOR])
    expect(pay).not.toHaveBeenCalled()
    expect(made).toHaveLength(0)
    // a refusal made nothing: the next tap is a new attempt with a new key
    submit()
    await waitFor(() => expect(sent('/dld-hospital/inquiry/chronicInquiry')).toHaveLength(2))
    const keys = sent('/dld-hospital/inquiry/chronicInquiry').map((r) => bodyOf(r).idempotencyKey)
    expect(keys[1]).not.toBe(keys[0])
    fireEvent.click(within(screen.getByRole('alert')).getByText('先向该医生图文问诊'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/internet/inquiry/index?doctorId=101' }])
  })

  test('what is missing is said before anything is sent; at most 10 medicines, each up to 50 characters', async () => {
    await open()
    fireEvent.change(screen.getByPlaceholderText(/请描述目前的病情/), { target: { value: '复诊开药' } })
    agree()
    submit()
    await waitFor(() => expect(toasts()).toEqual([NO_DIAGNOSIS]))
    fireEvent.change(diagnosisInput(), { target: { value: '2型糖尿病' } })
    setMedicine(0, '   ')
    submit()
    await waitFor(() => expect(toasts()).toEqual([NO_DIAGNOSIS, NO_MEDICINE]))
    expect(sent('/dld-hospital/inquiry/chronicInquiry')).toHaveLength(0)

    for (let i = 1; i < 10; i++) fireEvent.click(screen.getByText('+ 添加药品'))
    expect(medicineInputs()).toHaveLength(10)
    expect(screen.getByText('10/10')).toBeTruthy()
    expect(screen.queryByText('+ 添加药品')).toBeNull()
    setMedicine(9, '药'.repeat(60))
    expect(medicineInputs()[9]!.value).toHaveLength(50)
  })

  test('从历史病例选择 opens the patient’s past cases; the case chosen there fills the diagnosis', async () => {
    await open()
    fireEvent.click(screen.getByText('从历史病例选择'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/internet/historyCases/index?patientId=1' }])
    // the history cases page stores the patient's choice, then goes back
    act(() =>
      useRecordStore.of(mockRoot).chooseCase(
        {
          inquiryId: 5,
          inquiryNo: 'I202611010000000005',
          recordId: 8,
          doctorId: 100,
          doctorName: '李明',
          deptName: '心血管内科',
          hospitalName: HOSPITAL_NAME,
          diagnosis: '原发性高血压2级',
          diseases: [{ code: 'I10', name: '高脂血症', deptName: '心血管内科' }],
          finishedAt: '2026-11-01T08:00:00.000Z',
        },
        1,
      ),
    )
    await waitFor(() => expect(diagnosisInput().value).toBe('原发性高血压2级、高脂血症'))
    expect(useRecordStore.of(mockRoot).chosenCase).toBeNull()
  })

  test('the doctor’s home: 复诊续方 goes through 问诊须知, whose 我已阅读并同意 opens the form', async () => {
    testing.setRouter('/internet/doctor/index', { id: '100' })
    const home = render(<OnlineDoctorHome />)
    await screen.findByText('从事临床工作二十年。')
    fireEvent.click(screen.getByText('复诊续方', { selector: 'button' }))
    const next = '/internet/inquiry/useMedicine?doctorId=100'
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: `/internet/doctorList/notice?next=${encodeURIComponent(next)}` }])
    home.unmount()

    testing.setRouter('/internet/doctorList/notice', { next })
    render(<NoticePage />)
    fireEvent.click(await screen.findByText('我已阅读并同意', { selector: 'button' }))
    expect(calls.navigations[1]).toEqual({ kind: 'redirectTo', url: next })
  })
})

// ---------- 问诊须知 ----------

describe('问诊须知 /internet/doctorList/notice', () => {
  test('follow-up visits only, emergencies to 急诊 or 120, prescriptions after review, the service window; then on to `next`', async () => {
    testing.setRouter('/internet/doctorList/notice', { next: '/internet/inquiry/index?doctorId=100' })
    render(<NoticePage />)
    await screen.findByText('我已阅读并同意', { selector: 'button' })
    const text = document.body.textContent!
    expect(text).toContain('复诊')
    expect(text).toContain('首次就诊（初诊）')
    expect(text).toContain('请立即前往就近医院急诊就诊或拨打120急救电话')
    expect(text).toContain('处方由医生在了解病情、核对线下诊断和用药情况后开具')
    expect(text).toContain('支付后医生将在48小时内接诊')
    expect(text).toContain('医生接诊后24小时内可与医生图文交流')
    fireEvent.click(screen.getByText('我已阅读并同意', { selector: 'button' }))
    expect(calls.navigations).toEqual([{ kind: 'redirectTo', url: '/internet/inquiry/index?doctorId=100' }])
  })

  test('another site, or no `next`, continues to the doctor list', async () => {
    testing.setRouter('/internet/doctorList/notice', { next: 'https://example.com/phish' })
    const first = render(<NoticePage />)
    fireEvent.click(await screen.findByText('我已阅读并同意', { selector: 'button' }))
    first.unmount()
    testing.setRouter('/internet/doctorList/notice', {})
    render(<NoticePage />)
    fireEvent.click(await screen.findByText('我已阅读并同意', { selector: 'button' }))
    expect(calls.navigations).toEqual([
      { kind: 'redirectTo', url: '/internet/doctorList/index' },
      { kind: 'redirectTo', url: '/internet/doctorList/index' },
    ])
  })

  test('the inquiry page’s consent line opens the notice (without ticking); read from there, it goes back to the form', async () => {
    testing.setRouter('/internet/inquiry/index', { doctorId: '100' })
    const form = render(<InquiryPage />)
    await screen.findByRole('radiogroup', { name: '就诊人' })
    fireEvent.click(screen.getByRole('link', { name: '《互联网诊疗知情同意书》' }))
    const here = '/internet/inquiry/index?doctorId=100'
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: `/internet/doctorList/notice?next=${encodeURIComponent(here)}` }])
    expect(screen.getByRole('checkbox').getAttribute('aria-checked')).toBe('false')
    form.unmount()

    jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([{ route: 'internet/inquiry/index' }, { route: 'internet/doctorList/notice' }] as never)
    testing.setRouter('/internet/doctorList/notice', { next: here })
    render(<NoticePage />)
    fireEvent.click(await screen.findByText('我已阅读并同意', { selector: 'button' }))
    expect(calls.navigations[1]).toEqual({ kind: 'navigateBack', url: '' })
  })
})

// ---------- 发热门诊 ----------

describe('发热门诊 /internet/heat/index', () => {
  const CARDIO: OnlineDept = { id: 11, deptName: '心血管内科', doctorCount: 3, onlineCount: 3 }
  const RESPIRATORY: OnlineDept = { id: 21, deptName: '呼吸与危重症医学科', doctorCount: 2, onlineCount: 2 }
  const FEVER: OnlineDept = { id: 22, deptName: '发热门诊', doctorCount: 1, onlineCount: 1 }

  const open = async () => {
    testing.setRouter('/internet/heat/index')
    render(<FeverClinic />)
    await screen.findByRole('radiogroup', { name: '就诊人' })
  }
  const answer = (group: string, choice: string) => fireEvent.click(within(screen.getByRole('radiogroup', { name: group })).getByText(choice))
  const tick = (group: string, item: string) => fireEvent.click(within(screen.getByRole('group', { name: group })).getByText(item))
  const quick = () => fireEvent.click(screen.getByText('快速问诊'))

  test('the screening goes to 快速问诊 of the fever clinic with the answers as the description; the doctor chosen is named', async () => {
    depts = [CARDIO, RESPIRATORY, FEVER]
    await open()
    expect(await screen.findByText('接诊科室：发热门诊')).toBeTruthy()
    answer('体温', '是')
    tick('症状', '咽痛')
    tick('症状', '咳嗽')
    answer('旅居史或接触史', '否')
    fireEvent.change(screen.getByPlaceholderText(/如最高体温/), { target: { value: '最高38.5℃，已两天' } })
    agree()
    quick()

    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    const [order] = sent('/dld-hospital/inquiry/quickInquiry')
    expect(order!.header['Content-Type']).toBe('application/json')
    expect(bodyOf(order!)).toEqual({
      hospitalCode: HOSPITAL,
      deptId: 22,
      patientId: 1,
      description: '【发热门诊预检】\n体温≥37.3℃：是\n症状：咳嗽、咽痛\n近14天旅居史或接触史：否\n补充说明：最高38.5℃，已两天',
      pictures: [],
      idempotencyKey: KEY,
    })
    const matched = screen.getByRole('status', { name: '接诊医生' })
    expect(within(matched).getByText('已为您匹配医生')).toBeTruthy()
    expect(matched.textContent).toContain('周强 主治医师 · 发热门诊')
    expect(matched.textContent).toContain('问诊费：¥25.00')
    expect(sent('/dld-hospital/im/trade/service/im/init/continuePay').map(bodyOf)).toEqual([{ id: 900, returnUrl: '/h5/pages/order/inquiry/detail?id=900' }])
    expect(screen.getByText('去支付')).toBeTruthy()
  })

  test('without a fever clinic the respiratory department takes it; with neither online, any of the hospital’s doctors', async () => {
    depts = [CARDIO, RESPIRATORY]
    await open()
    expect(await screen.findByText('接诊科室：呼吸与危重症医学科')).toBeTruthy()
    answer('体温', '否')
    answer('旅居史或接触史', '是')
    agree()
    quick()
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    expect(bodyOf(sent('/dld-hospital/inquiry/quickInquiry')[0]!)).toMatchObject({
      deptId: 21,
      description: '【发热门诊预检】\n体温≥37.3℃：否\n症状：无\n近14天旅居史或接触史：是',
    })
    expect(screen.getByRole('status', { name: '接诊医生' }).textContent).toContain('赵敏 副主任医师 · 呼吸与危重症医学科')

    expect(feverDept([CARDIO, { ...FEVER, onlineCount: 0 }, RESPIRATORY])).toEqual(RESPIRATORY)
    expect(feverDept([CARDIO, { ...RESPIRATORY, onlineCount: 0 }])).toBeNull()
    expect(feverDept([])).toBeNull()
  })

  test('a hospital without either department: the hospital’s online doctors, no department sent', async () => {
    depts = [CARDIO]
    await open()
    expect(await screen.findByText('接诊医生：本院在线医生')).toBeTruthy()
    answer('体温', '是')
    answer('旅居史或接触史', '否')
    agree()
    quick()
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    expect(bodyOf(sent('/dld-hospital/inquiry/quickInquiry')[0]!)).not.toHaveProperty('deptId')
    expect(screen.getByRole('status', { name: '接诊医生' }).textContent).toContain('李明 主任医师 · 心血管内科')
  })

  test('a danger sign: go to the fever clinic or call 120 now, and no online inquiry while it is chosen', async () => {
    depts = [FEVER]
    const call = jest.fn(async () => undefined)
    ;(Taro as unknown as { makePhoneCall: unknown }).makePhoneCall = call
    await open()
    await screen.findByText('接诊科室：发热门诊')
    expect(screen.queryByRole('alert')).toBeNull()
    tick('危急情况', '呼吸困难或气促')
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain('立即前往发热门诊或拨打120')
    expect((screen.getByText('快速问诊') as HTMLButtonElement).disabled).toBe(true)
    expect(screen.getByText('存在危急情况，请立即线下就医')).toBeTruthy()
    fireEvent.click(within(alert).getByText('拨打120'))
    expect(call).toHaveBeenCalledWith({ phoneNumber: '120' })

    tick('危急情况', '呼吸困难或气促')
    expect(screen.queryByRole('alert')).toBeNull()
    expect((screen.getByText('快速问诊') as HTMLButtonElement).disabled).toBe(false)
    expect(sent('/dld-hospital/inquiry/quickInquiry')).toHaveLength(0)
  })

  test('the temperature and the travel questions must be answered first', async () => {
    depts = [FEVER]
    await open()
    await screen.findByText('接诊科室：发热门诊')
    agree()
    quick()
    await waitFor(() => expect(toasts()).toEqual(['请回答体温是否≥37.3℃']))
    answer('体温', '是')
    quick()
    await waitFor(() => expect(toasts()).toEqual(['请回答体温是否≥37.3℃', '请回答是否有旅居史或接触史']))
    expect(sent('/dld-hospital/inquiry/quickInquiry')).toHaveLength(0)
  })
})

// ---------- 医生助理 ----------

describe('医生助理 /internet/guidance/index', () => {
  let driver: FakeDriver

  beforeEach(() => {
    driver = new FakeDriver()
    mockRoot.chat.attach(driver)
  })

  const connect = async () => {
    await act(async () => {
      driver.emit('ready', undefined)
    })
  }
  const open = async () => {
    testing.setRouter('/internet/guidance/index')
    render(<Guidance />)
    await screen.findByRole('list', { name: '医生助理' })
  }

  test('the hospital’s assistants with their unread counts; choosing one opens the chat with them, without an order', async () => {
    driver.conversations = [{ conversationID: 'C2Ca_5', peer: 'a_5', unreadCount: 3, lastMessage: null }]
    driver.history = [fromAssistant('您好，我是陈助理，请问有什么可以帮您？')]
    await open()
    expect(sent('/dld-hospital/index/physicianAssistant').map((r) => r.data)).toEqual([{ hospitalCode: HOSPITAL }])
    const items = screen.getAllByRole('listitem')
    expect(items.map((i) => i.querySelector('.guidance__name')!.textContent)).toEqual(['陈助理', '刘助理'])
    await connect()
    expect(await within(items[0]!).findByLabelText('3条未读')).toBeTruthy()
    expect(within(items[1]!).queryByLabelText(/条未读/)).toBeNull()

    // each list item holds one button: the assistant's card
    fireEvent.click(within(items[0]!).getByRole('button'))
    expect(await screen.findByText('您好，我是陈助理，请问有什么可以帮您？')).toBeTruthy()
    expect(document.querySelector('.nav-bar__title')!.textContent).toBe('陈助理')
    expect(useAssistantStore.of(mockRoot).currentAssistant?.imAccount).toBe('a_5')
    expect(screen.queryByRole('status', { name: '问诊状态' })).toBeNull()
    expect(sent('/dld-hospital/inquiry/order/detail')).toHaveLength(0)
    expect(document.querySelector('.room-msg--theirs')).toBeTruthy()
    // read once shown
    await waitFor(() => expect(useAssistantStore.of(mockRoot).assistantUnread).toBe(0))
    expect(driver.read).toEqual(['C2Ca_5'])
  })

  test('a message goes to the assistant’s account and shows on the right; the reply on the left; 换一位助理 goes back to the list', async () => {
    await open()
    await connect()
    fireEvent.click(screen.getByText('刘助理'))
    const bar = await screen.findByLabelText('输入栏')
    expect(bar.getAttribute('aria-disabled')).toBe('false')
    fireEvent.change(within(bar).getByPlaceholderText('请输入您想咨询的问题'), { target: { value: '请问怎么预约挂号？' } })
    fireEvent.click(within(bar).getByText('发送'))
    await waitFor(() => expect(driver.sent.map((m) => [m.from, m.to, m.type, m.payload])).toEqual([[ME, 'a_6', 'text', '请问怎么预约挂号？']]))
    await waitFor(() => expect(screen.queryByRole('status', { name: '发送中' })).toBeNull())
    expect(Array.from(document.querySelectorAll('.room-msg--mine .room-msg__bubble')).map((b) => b.textContent)).toEqual(['请问怎么预约挂号？'])

    act(() => driver.emit('messageReceived', [fromAssistant('在首页点击预约挂号即可', 'a_6')]))
    expect(await screen.findByText('在首页点击预约挂号即可')).toBeTruthy()
    expect(screen.getByText('在首页点击预约挂号即可').closest('.room-msg--theirs')).toBeTruthy()
    // a message of another assistant does not land in this chat
    act(() => driver.emit('messageReceived', [fromAssistant('别的会话', 'a_5')]))
    expect(screen.queryByText('别的会话')).toBeNull()

    fireEvent.click(screen.getByText('换一位助理'))
    expect(await screen.findByRole('list', { name: '医生助理' })).toBeTruthy()
    expect(mockRoot.chat.toUserID).toBe('')
  })
})
