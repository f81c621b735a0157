import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import Taro, { calls, testing } from './doubles/taro'
import platform from '../../src/platform/index.h5'
import { RootStore } from '../../src/stores/RootStore'
import { serviceLeftText } from '../../src/stores/InquiryStore'
import { LOCAL, local } from '../../src/services/storage'
import InquiryPage from '../../src/internet/inquiry'
import InquiryOrders from '../../src/pages/order/inquiry'
import InquiryDetail from '../../src/pages/order/inquiry/detail'
import Conversation from '../../src/pages/sys/conversation'
import OnlineDoctorHome from '../../src/internet/doctor'
import type { Inquiry, InquiryStatus } from '../../types/api/inquiry'
import type { OnlineDoctorInfo } from '../../types/api/internet'
import type { Patient } from '../../types/api/patient'
import type { PayOrder } from '../../types/api/payment'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10412'
const HOSPITAL_NAME = '示范互联网医院'
/** The server's texts (server/src/domain/inquiry.ts, domain/patient.ts), verbatim. */
const NO_DESCRIPTION = '请描述您的病情'
const INCOMPLETE = '当前就诊人信息不完整，请先完善就诊人信息。'
const DOCTOR_OFFLINE = '该医生暂不接诊，请选择其他医生'

// ---------- the fake server: the inquiry calls over the data below, as server/src/domain/inquiry.ts answers them ----------

function doctorInfo(id: number, priceFen: number, online = true): OnlineDoctorInfo {
  const names: Record<number, string> = { 100: '李明', 101: '王芳', 102: '张伟' }
  return {
    id,
    doctorName: names[id]!,
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
    online,
    speciality: '冠心病',
    imAccount: `d_${id}`,
    intro: '从事临床工作二十年。',
    services: [{ type: 'text', name: '图文问诊', priceFen }],
    fansCount: 10,
    followed: false,
  }
}

let doctors: Record<number, OnlineDoctorInfo> = {}

interface Person {
  id: number
  name: string
  complete: boolean
}
let people: Person[] = []
/** Patients the server finds incomplete whatever the app's list says (edited elsewhere meanwhile). */
let serverIncomplete = new Set<number>()
const patientDto = (p: Person, i: number): Patient => ({
  id: p.id,
  name: p.name,
  idCard: '110101********4514',
  mobile: p.complete ? '138****5678' : '',
  sex: 1,
  sexText: '男',
  birthday: '1990-03-07',
  age: 36,
  relation: i === 0 ? '本人' : '父母',
  source: 'idCard',
  neonate: false,
  isDefault: i === 0,
  hisMedCardNo: `A10000${p.id}`,
  complete: p.complete,
  missing: p.complete ? [] : ['mobile'],
})

let inquiries: Inquiry[] = []
let byKey = new Map<string, number>()
/** The next order answers: a business refusal, or no answer at all (before or after the server made it). */
let nextCreate: 'ok' | 'offline' | 'drop' | 'dropAfterCommit' = 'ok'
let failing = new Set<string>()
let consultations: Record<string, unknown>[] = []
let nextId = 900
let uploads = 0

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data } })
const refuse = (code: number, msg: string) => ({ statusCode: 200, data: { code, msg, data: null } })

const STATUS_TEXT: Record<InquiryStatus, string> = {
  unpaid: '待支付',
  waiting: '待接诊',
  inProgress: '问诊中',
  finished: '已结束',
  cancelled: '已取消',
  closed: '已关闭',
}

function payOrder(id: number, amountFen: number, status: PayOrder['status'], paidAt: string | null): PayOrder {
  return {
    orderNo: `P20261123${String(id).padStart(12, '0')}`,
    business: 'inquiry',
    subject: '图文问诊 李明',
    amountFen,
    insuranceFen: 0,
    selfPayFen: amountFen,
    status,
    channel: paidAt ? 'sandbox' : null,
    expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
    paidAt,
    refundedFen: 0,
    createdAt: '2026-11-23T01:00:00.000Z',
  }
}

/** An inquiry as the server keeps it, for the list and the detail. */
function inquiryOf(id: number, status: InquiryStatus, extra: Partial<Inquiry> = {}): Inquiry {
  const paid = status !== 'unpaid' && !(status === 'cancelled' && !extra.paidAt) && !(status === 'closed' && !extra.paidAt)
  const paidAt = paid ? '2026-11-23T01:05:00.000Z' : null
  const inq: Inquiry = {
    id,
    inquiryNo: `I20261123${String(id).padStart(12, '0')}`,
    status,
    statusText: STATUS_TEXT[status],
    serviceType: 'text',
    serviceName: '图文问诊',
    kind: 'inquiry',
    description: `胸闷两周，活动后加重（${id}）`,
    pictures: [],
    priceFen: 3000,
    patientId: 1,
    patientName: '张*',
    hospitalCode: HOSPITAL,
    hospitalName: HOSPITAL_NAME,
    doctor: { id: 100, doctorName: '李明', title: '主任医师', avatar: '/static/doctors/100.svg', deptName: '心血管内科', imAccount: 'd_100' },
    paidAt,
    acceptedAt: status === 'inProgress' || status === 'finished' ? '2026-11-23T02:00:00.000Z' : null,
    serviceEndsAt: status === 'waiting' || status === 'inProgress' ? new Date(Date.now() + 20 * 3600_000).toISOString() : null,
    finishedAt: status === 'finished' ? '2026-11-23T03:00:00.000Z' : null,
    cancellable: status === 'unpaid' || status === 'waiting',
    complaint: null,
    intake: null,
    evaluated: false,
    order: null,
    createdAt: new Date(Date.UTC(2026, 10, 23, 1, 0, 0) + id * 1000).toISOString(),
    ...extra,
  }
  if (!('order' in extra)) inq.order = payOrder(id, inq.priceFen, status === 'unpaid' ? 'created' : paid ? 'paid' : 'cancelled', paidAt)
  return inq
}

function create(body: { doctorId: number; patientId: number; description: string; pictures?: string[]; idempotencyKey: string }) {
  const known = byKey.get(body.idempotencyKey)
  if (known) return ok(inquiries.find((i) => i.id === known))
  const person = people.find((p) => p.id === body.patientId)
  if (!person) return refuse(2999, '暂无权限')
  if (!person.complete || serverIncomplete.has(person.id)) return refuse(400, INCOMPLETE)
  if (!body.description.trim()) return refuse(400, NO_DESCRIPTION)
  const doctor = doctors[body.doctorId]!
  if (nextCreate === 'offline' || !doctor.online) {
    nextCreate = 'ok'
    return refuse(400, DOCTOR_OFFLINE)
  }
  if (nextCreate === 'drop') {
    nextCreate = 'ok'
    throw new Error('connection reset')
  }
  const id = nextId++
  const free = doctor.services[0]!.priceFen === 0
  const now = new Date().toISOString()
  const inq = inquiryOf(id, free ? 'waiting' : 'unpaid', {
    description: body.description.trim(),
    pictures: body.pictures ?? [],
    priceFen: doctor.services[0]!.priceFen,
    patientId: person.id,
    patientName: person.name,
    doctor: { id: doctor.id, doctorName: doctor.doctorName, title: doctor.title, avatar: doctor.avatar, deptName: doctor.deptName, imAccount: doctor.imAccount },
    paidAt: free ? now : null,
    serviceEndsAt: free ? new Date(Date.now() + 48 * 3600_000).toISOString() : null,
    order: free ? null : payOrder(id, doctor.services[0]!.priceFen, 'created', null),
    createdAt: now,
  })
  inquiries.unshift(inq)
  byKey.set(body.idempotencyKey, id)
  if (nextCreate === 'dropAfterCommit') {
    nextCreate = 'ok'
    throw new Error('connection reset after the server made it')
  }
  return ok(inq)
}

/** The refund starts with the cancellation or the closing: the order is refunding, the patient reads 退款中. */
function giveUp(inq: Inquiry, status: 'cancelled' | 'closed') {
  inq.status = status
  inq.cancellable = false
  if (inq.order?.status === 'paid' && !inq.acceptedAt) {
    inq.order = { ...inq.order, status: 'refunding' }
    inq.statusText = '退款中'
  } else {
    if (inq.order?.status === 'created') inq.order = { ...inq.order, status: 'cancelled' }
    inq.statusText = STATUS_TEXT[status]
  }
}

function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = ''] = url.split('?')
    const query = (method === 'GET' ? data ?? {} : {}) as Record<string, string | number>
    const json = (method !== 'GET' && data && typeof data === 'object' ? data : {}) as Record<string, unknown>
    if (failing.has(path)) return refuse(500, '服务器开小差了')
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: query.appId, provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 3, hospitalCode: HOSPITAL, hospitalName: HOSPITAL_NAME, configDto: { isInternet: true, isPalm: false } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: query.imAccount, userSig: 's', expire: 1 })
    if (path === '/dld-palm/api/patient/list') return ok(people.map(patientDto))
    if (path === '/dld-hospital/im/patient/record/list') return ok(consultations)

    if (path === '/dld-hospital/doctor/info') {
      const d = doctors[Number(query.id)]
      return d ? ok(d) : refuse(404, '医生不存在')
    }
    if (path === '/dld-hospital/inquiry/addInquiryInfo') return create(json as never)
    // no doctor has written a medical record here (test/page/records.test.tsx covers 查看病历)
    if (path === '/dld-hospital/im/medical/his/recordDetail') return ok(null)
    if (path === '/dld-hospital/common/isSupervision') return ok({ supervised: query.hospitalCode === HOSPITAL && supervisor !== '', platformName: supervisor })
    if (path === '/dld-hospital/im/trade/service/im/init/continuePay') {
      const inq = inquiries.find((i) => i.id === Number(json.id))
      if (!inq) return refuse(2999, '暂无权限')
      if (inq.status !== 'unpaid') return refuse(400, '该问诊已支付')
      return ok({ kind: 'redirect', channel: 'sandbox', url: `/sandbox/pay/cashier?orderNo=${inq.order!.orderNo}` })
    }
    if (path === '/dld-hospital/inquiry/order/list') {
      const page = Number(query.page)
      const size = Number(query.size)
      const list = inquiries.filter((i) => !query.status || i.status === query.status)
      return ok({ records: list.slice((page - 1) * size, page * size), total: list.length, page, size })
    }
    if (path === '/dld-hospital/im/trade/medicalRecord') {
      const own = inquiries.find((i) => i.id === Number(json.inquiryId))
      if (!own) return refuse(2999, '暂无权限')
      if (!['unpaid', 'waiting', 'inProgress'].includes(own.status)) return refuse(400, '问诊已结束，无法修改问诊单')
      const text = (k: string) => String(json[k] ?? '').trim()
      own.intake = {
        visitedOffline: json.visitedOffline === true,
        offlineDiagnosis: json.visitedOffline === true ? text('offlineDiagnosis') : '',
        pastHistory: text('pastHistory'),
        allergyHistory: text('allergyHistory'),
        currentMedication: text('currentMedication'),
        updatedAt: '2026-11-23T02:30:00.000Z',
      }
      return ok(own)
    }
    const inq = inquiries.find((i) => i.id === Number(query.id ?? json.id))
    if (path.startsWith('/dld-hospital/') && (path.includes('/inquiry/') || path.includes('/im/trade/')) && !inq) return refuse(2999, '暂无权限')
    if (!inq) return { statusCode: 404, data: '' }
    if (path === '/dld-hospital/inquiry/order/detail') return ok(inq)
    if (path === '/dld-hospital/im/trade/service/im/check') {
      if ((inq.status === 'waiting' || inq.status === 'inProgress') && inq.serviceEndsAt && Date.parse(inq.serviceEndsAt) <= Date.now()) {
        giveUp(inq, 'closed')
        inq.finishedAt = new Date().toISOString()
      }
      return ok(inq)
    }
    if (path === '/dld-hospital/im/trade/service/im/cancel') {
      if (inq.status === 'inProgress' || inq.status === 'finished') return refuse(400, '医生已接诊，无法取消问诊')
      if (inq.status === 'unpaid' || inq.status === 'waiting') giveUp(inq, 'cancelled')
      return ok(inq)
    }
    if (path === '/dld-hospital/im/trade/service/im/user/close') {
      if (inq.status !== 'inProgress') return refuse(400, '问诊未在进行中，无法结束')
      inq.status = 'finished'
      inq.statusText = '已结束'
      inq.finishedAt = new Date().toISOString()
      return ok(inq)
    }
    if (path === '/dld-hospital/im/trade/complaint') {
      if (!inq.paidAt) return refuse(400, '未支付的问诊无法投诉')
      if (inq.complaint) return refuse(400, '该问诊已投诉，请勿重复提交')
      inq.complaint = { content: String(json.content), time: new Date().toISOString() }
      return ok(inq)
    }
    return { statusCode: 404, data: '' }
  })
}

const sent = (path: string) => calls.requests.filter((r) => r.url.split('?')[0] === path)
const bodyOf = (r: { data: unknown }) => r.data as Record<string, unknown>
const toasts = () => calls.toasts.map((t) => t.title)

/** The regulator's platform the hospital reports to ('' none). */
let supervisor = ''
let pay: jest.SpyInstance
let choose: jest.SpyInstance
let upload: jest.SpyInstance

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10412demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  supervisor = ''
  doctors = { 100: doctorInfo(100, 3000), 101: doctorInfo(101, 0), 102: doctorInfo(102, 2000, false) }
  people = [
    { id: 1, name: '张三', complete: true },
    { id: 2, name: '王小二', complete: true },
  ]
  serverIncomplete = new Set()
  inquiries = []
  byKey = new Map()
  nextCreate = 'ok'
  failing = new Set()
  consultations = []
  nextId = 900
  uploads = 0
  pay = jest.spyOn(platform, 'pay').mockResolvedValue('left')
  choose = jest.spyOn(Taro, 'chooseImage').mockImplementation((async ({ count }: { count: number }) => ({
    tempFilePaths: Array.from({ length: Math.min(count, 2) }, (_, i) => `blob:photo-${uploads + i}`),
  })) as never)
  // the upload server: each file gets its stored name
  upload = jest.spyOn(Taro, 'uploadFile').mockImplementation((async () => {
    uploads++
    const name = `pic${String(uploads).padStart(19, '0')}.jpg`
    return { statusCode: 200, data: JSON.stringify({ code: 200, msg: 'success', data: { url: `/dld-file/files/${name}`, name, size: 1000, mime: 'image/jpeg' } }) }
  }) as never)
  serve()
})
afterEach(() => {
  pay.mockRestore()
  choose.mockRestore()
  upload.mockRestore()
  jest.useRealTimers()
})

// ---------- the inquiry page ----------

describe('图文问诊 /internet/inquiry/index', () => {
  const open = async (doctorId = 100) => {
    testing.setRouter('/internet/inquiry/index', { doctorId: String(doctorId) })
    render(<InquiryPage />)
    await screen.findByText(doctorInfo(doctorId, 0).doctorName)
    await screen.findByRole('radiogroup', { name: '就诊人' })
  }
  const describeIllness = (text: string) => fireEvent.change(screen.getByPlaceholderText(/请详细描述症状/), { target: { value: text } })
  const agree = () => fireEvent.click(screen.getByRole('checkbox'))
  const submit = () => fireEvent.click(screen.getByText('提交并支付'))

  test('the doctor’s card with the 图文问诊 price; the patients, the default one chosen', async () => {
    await open()
    const card = document.querySelector('.inquiry__doctor') as HTMLElement
    expect(within(card).getByText('李明')).toBeTruthy()
    expect(within(card).getByText('主任医师')).toBeTruthy()
    expect(card.textContent).toContain(`${HOSPITAL_NAME} · 心血管内科`)
    expect(within(card).getByText('¥30.00')).toBeTruthy()
    const chips = within(screen.getByRole('radiogroup', { name: '就诊人' })).getAllByRole('radio')
    expect(chips.map((c) => [c.textContent, c.getAttribute('aria-checked')])).toEqual([
      ['张*', 'true'],
      ['王*二', 'false'],
    ])
    fireEvent.click(chips[1]!)
    expect(chips[1]!.getAttribute('aria-checked')).toBe('true')
    expect(screen.getByText('0/500')).toBeTruthy()
  })

  test('ordering with a picture, then paying: the sandbox cashier is opened with the detail page to come back to', async () => {
    await open()
    describeIllness('胸闷两周，活动后加重')
    expect(screen.getByText('10/500')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: '添加图片' }))
    await waitFor(() => expect(document.querySelectorAll('.picture-picker__item img')).toHaveLength(2))
    expect(choose).toHaveBeenCalledWith(expect.objectContaining({ count: 9 }))
    // one of the two taken back out
    fireEvent.click(screen.getByRole('button', { name: '删除第1张图片' }))
    expect(Array.from(document.querySelectorAll<HTMLImageElement>('.picture-picker__item img')).map((i) => i.getAttribute('src'))).toEqual(['blob:photo-1'])
    agree()
    submit()

    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    const [order] = sent('/dld-hospital/inquiry/addInquiryInfo')
    expect(order!.header['Content-Type']).toBe('application/json')
    const body = bodyOf(order!)
    expect(body).toEqual({
      doctorId: 100,
      patientId: 1,
      description: '胸闷两周，活动后加重',
      pictures: ['/dld-file/files/pic0000000000000000002.jpg'],
      idempotencyKey: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/),
    })
    expect(sent('/dld-hospital/im/trade/service/im/init/continuePay').map(bodyOf)).toEqual([{ id: 900, returnUrl: '/h5/pages/order/inquiry/detail?id=900' }])
    expect(pay).toHaveBeenCalledWith({ kind: 'redirect', channel: 'sandbox', url: '/sandbox/pay/cashier?orderNo=P20261123000000000900' })
    expect(inquiries).toHaveLength(1)
  })

  test('in H5 the sandbox redirect leaves for the cashier’s URL', async () => {
    pay.mockRestore()
    const assign = jest.fn()
    const realLocation = window.location
    Object.defineProperty(window, 'location', { configurable: true, value: { ...realLocation, assign } })
    try {
      await open()
      describeIllness('咳嗽三天')
      agree()
      submit()
      await waitFor(() => expect(assign).toHaveBeenCalledWith('/sandbox/pay/cashier?orderNo=P20261123000000000900'))
      expect(calls.navigations).toEqual([])
    } finally {
      Object.defineProperty(window, 'location', { configurable: true, value: realLocation })
      pay = jest.spyOn(platform, 'pay').mockResolvedValue('left')
    }
  })

  test('paid in WeChat’s sheet: the server is asked at once and the patient lands on the inquiry’s detail', async () => {
    pay.mockResolvedValue('paid')
    await open()
    describeIllness('头痛')
    agree()
    submit()
    await waitFor(() => expect(calls.navigations).toEqual([{ kind: 'redirectTo', url: '/pages/order/inquiry/detail?id=900' }]))
    expect(sent('/dld-hospital/im/trade/service/im/check').map((r) => r.data)).toEqual([{ id: 900 }])
  })

  test('a cancelled payment keeps the ordered inquiry: 去支付 pays the same one, never orders again', async () => {
    pay.mockResolvedValueOnce('cancelled')
    await open()
    describeIllness('头痛')
    agree()
    submit()
    await screen.findByText('去支付')
    expect(toasts()).toEqual(['支付已取消，请在30分钟内完成支付'])
    expect(screen.getByText('问诊已提交，请在30分钟内完成支付')).toBeTruthy()
    fireEvent.click(screen.getByText('去支付'))
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(2))
    expect(sent('/dld-hospital/inquiry/addInquiryInfo')).toHaveLength(1)
    expect(sent('/dld-hospital/im/trade/service/im/init/continuePay').map((r) => bodyOf(r).id)).toEqual([900, 900])
  })

  test('a free doctor: 提交问诊 goes straight to waiting, with nothing to pay', async () => {
    await open(101)
    expect(within(document.querySelector('.inquiry__doctor') as HTMLElement).getByText('免费')).toBeTruthy()
    describeIllness('复诊开药')
    agree()
    fireEvent.click(screen.getByText('提交问诊'))
    await waitFor(() => expect(calls.navigations).toEqual([{ kind: 'redirectTo', url: '/pages/order/inquiry/detail?id=900' }]))
    expect(sent('/dld-hospital/im/trade/service/im/init/continuePay')).toHaveLength(0)
    expect(pay).not.toHaveBeenCalled()
    expect(inquiries[0]!.status).toBe('waiting')
  })

  test('the same attempt retried after no answer sends the same key, and the server answers the one inquiry it made', async () => {
    await open()
    describeIllness('胸痛')
    agree()
    nextCreate = 'dropAfterCommit'
    submit()
    await waitFor(() => expect(toasts()).toEqual(['未连接到服务器']))
    expect(pay).not.toHaveBeenCalled()
    submit()
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    const keys = sent('/dld-hospital/inquiry/addInquiryInfo').map((r) => bodyOf(r).idempotencyKey)
    expect(keys).toHaveLength(2)
    expect(keys[1]).toBe(keys[0])
    expect(inquiries).toHaveLength(1)
    expect(sent('/dld-hospital/im/trade/service/im/init/continuePay').map((r) => bodyOf(r).id)).toEqual([900])
  })

  test('a refusal made nothing: the next tap is a new attempt with a new key', async () => {
    await open()
    describeIllness('胸痛')
    agree()
    nextCreate = 'offline'
    submit()
    await waitFor(() => expect(toasts()).toEqual([DOCTOR_OFFLINE]))
    submit()
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    const keys = sent('/dld-hospital/inquiry/addInquiryInfo').map((r) => bodyOf(r).idempotencyKey)
    expect(keys).toHaveLength(2)
    expect(keys[1]).not.toBe(keys[0])
  })

  test('an empty description is refused with the server’s words, and nothing is ordered', async () => {
    await open()
    agree()
    submit()
    describeIllness('   ')
    submit()
    await waitFor(() => expect(toasts()).toEqual([NO_DESCRIPTION, NO_DESCRIPTION]))
    expect(sent('/dld-hospital/inquiry/addInquiryInfo')).toHaveLength(0)
  })

  test('the consent must be given first', async () => {
    await open()
    describeIllness('胸痛')
    submit()
    await waitFor(() => expect(toasts()).toEqual(['请阅读并同意《互联网诊疗知情同意书》']))
    expect(sent('/dld-hospital/inquiry/addInquiryInfo')).toHaveLength(0)
    expect(screen.getByRole('checkbox').getAttribute('aria-checked')).toBe('false')
  })

  test('before consenting, the patient reads that the records go to the regulator’s platform, when the hospital reports to one', async () => {
    supervisor = '示范省互联网医疗服务监管平台'
    await open()
    await screen.findByText('本院互联网诊疗服务接受示范省互联网医疗服务监管平台监管，本次问诊的病历和处方将按规定上传。')
  })

  test('a hospital reporting to no platform says nothing of it', async () => {
    await open()
    await waitFor(() => expect(sent('/dld-hospital/common/isSupervision')).toHaveLength(1))
    expect(document.body.textContent).not.toContain('监管')
  })

  test('the description stops at 500 characters, as the server allows', async () => {
    await open()
    describeIllness('痛'.repeat(520))
    expect(screen.getByText('500/500')).toBeTruthy()
    expect((screen.getByPlaceholderText(/请详细描述症状/) as HTMLTextAreaElement).value).toHaveLength(500)
  })

  test('at most 9 pictures: the picker asks only for what is left, and the add tile goes at 9', async () => {
    choose.mockImplementation((async ({ count }: { count: number }) => ({ tempFilePaths: Array.from({ length: count }, (_, i) => `blob:p${uploads + i}`) })) as never)
    await open()
    fireEvent.click(screen.getByRole('button', { name: '添加图片' }))
    await waitFor(() => expect(document.querySelectorAll('.picture-picker__item img')).toHaveLength(9))
    expect(screen.queryByRole('button', { name: '添加图片' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: '删除第9张图片' }))
    choose.mockClear()
    fireEvent.click(screen.getByRole('button', { name: '添加图片' }))
    await waitFor(() => expect(document.querySelectorAll('.picture-picker__item img')).toHaveLength(9))
    expect(choose).toHaveBeenCalledWith(expect.objectContaining({ count: 1 }))
  })

  test('an incomplete default patient: the modal of spec §5 before anything is sent, leading to the completion page', async () => {
    people = [{ id: 3, name: '李四', complete: false }]
    await open()
    describeIllness('胸痛')
    agree()
    submit()
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText(INCOMPLETE)).toBeTruthy()
    expect(within(dialog).getAllByRole('button').map((b) => b.textContent)).toEqual(['完善就诊人信息'])
    expect(sent('/dld-hospital/inquiry/addInquiryInfo')).toHaveLength(0)
    fireEvent.click(within(dialog).getByText('完善就诊人信息'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/custom/10412/addPatient/index?id=3&business=edit' }])
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  test('the server answers the incomplete text (the list was out of date): the same modal', async () => {
    serverIncomplete.add(1)
    await open()
    describeIllness('胸痛')
    agree()
    submit()
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText(INCOMPLETE)).toBeTruthy()
    expect(sent('/dld-hospital/inquiry/addInquiryInfo')).toHaveLength(1)
    expect(pay).not.toHaveBeenCalled()
    fireEvent.click(within(dialog).getByText('完善就诊人信息'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/custom/10412/addPatient/index?id=1&business=edit' }])
  })

  test('choosing an incomplete patient shows the modal and keeps the chosen one', async () => {
    people = [...people, { id: 3, name: '李四', complete: false }]
    await open()
    fireEvent.click(screen.getByText('李*'))
    expect(within(await screen.findByRole('dialog')).getByText(INCOMPLETE)).toBeTruthy()
    expect(screen.getByText('张*').closest('[role=radio]')!.getAttribute('aria-checked')).toBe('true')
  })

  test('no patient yet: a link to add one, and nothing can be submitted', async () => {
    people = []
    testing.setRouter('/internet/inquiry/index', { doctorId: '100' })
    render(<InquiryPage />)
    expect(await screen.findByText('还没有就诊人，请先添加')).toBeTruthy()
    expect(screen.getByText('请先添加就诊人')).toBeTruthy()
    expect((screen.getByText('提交并支付') as HTMLButtonElement).disabled).toBe(true)
    fireEvent.click(screen.getByText('添加就诊人'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/custom/10412/cardType/index' }])
  })

  test('a doctor not accepting consultations: says so and cannot be ordered', async () => {
    await open(102)
    expect(screen.getByText(DOCTOR_OFFLINE)).toBeTruthy()
    expect((screen.getByText('提交并支付') as HTMLButtonElement).disabled).toBe(true)
  })

  test('the doctor’s home opens this page from 图文问诊', async () => {
    testing.setRouter('/internet/doctor/index', { id: '100' })
    render(<OnlineDoctorHome />)
    await screen.findByText('从事临床工作二十年。')
    fireEvent.click(screen.getByText('图文问诊', { selector: 'button' }))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/internet/inquiry/index?doctorId=100' }])
  })
})

// ---------- the consultation orders ----------

describe('问诊订单 /pages/order/inquiry/index', () => {
  const open = async () => {
    testing.setRouter('/pages/order/inquiry/index')
    render(<InquiryOrders />)
    await screen.findByRole('tablist')
  }
  const rows = () => Array.from(document.querySelectorAll<HTMLElement>('.inquiry-order'))

  test('tabs 全部 / 待支付 / 待接诊 / 问诊中 / 已结束 ask the server for their status', async () => {
    inquiries = [inquiryOf(1, 'unpaid'), inquiryOf(2, 'waiting'), inquiryOf(3, 'inProgress'), inquiryOf(4, 'finished'), inquiryOf(5, 'cancelled')]
    await open()
    await waitFor(() => expect(rows()).toHaveLength(5))
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['全部', '待支付', '待接诊', '问诊中', '已结束'])
    const first = rows()[0]!
    expect(within(first).getByText('待支付')).toBeTruthy()
    expect(first.textContent).toContain('李明')
    expect(first.textContent).toContain('就诊人：张*')
    expect(first.textContent).toContain('¥30.00')

    fireEvent.click(screen.getByRole('tab', { name: '问诊中' }))
    await waitFor(() => expect(rows()).toHaveLength(1))
    expect(rows()[0]!.textContent).toContain('胸闷两周，活动后加重（3）')
    expect(screen.getByRole('tab', { name: '问诊中' }).getAttribute('aria-selected')).toBe('true')
    expect(sent('/dld-hospital/inquiry/order/list').map((r) => r.data)).toEqual([
      { page: 1, size: 10 },
      { status: 'inProgress', page: 1, size: 10 },
    ])
    fireEvent.click(screen.getByRole('tab', { name: '已结束' }))
    await waitFor(() => expect(rows().map((r) => r.querySelector('.inquiry-order__status')!.textContent)).toEqual(['已结束']))
    fireEvent.click(rows()[0]!)
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/pages/order/inquiry/detail?id=4' }])
  })

  test('a page at a time: 加载更多, 加载中..., 没有更多了; a failed page says 加载失败 and can be retried', async () => {
    inquiries = Array.from({ length: 23 }, (_, i) => inquiryOf(100 + i, 'finished'))
    await open()
    await waitFor(() => expect(rows()).toHaveLength(10))
    expect(screen.getByText('加载更多')).toBeTruthy()

    failing.add('/dld-hospital/inquiry/order/list')
    fireEvent.click(screen.getByText('加载更多'))
    expect(screen.getByText('加载中...')).toBeTruthy()
    expect(await screen.findByText('加载失败')).toBeTruthy()
    expect(rows()).toHaveLength(10)

    failing.clear()
    fireEvent.click(screen.getByText('加载失败'))
    await waitFor(() => expect(rows()).toHaveLength(20))
    fireEvent.click(screen.getByText('加载更多'))
    expect(await screen.findByText('没有更多了')).toBeTruthy()
    expect(rows()).toHaveLength(23)
    expect(sent('/dld-hospital/inquiry/order/list').map((r) => (r.data as { page: number }).page)).toEqual([1, 2, 2, 3])
  })

  test('nothing yet: says so with one way on (找医生问诊); a first page that fails says 加载失败 with 重新加载', async () => {
    await open()
    expect(await screen.findByText('暂无问诊订单')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: '找医生问诊' }))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/internet/doctorList/index' }])
    failing.add('/dld-hospital/inquiry/order/list')
    fireEvent.click(screen.getByRole('tab', { name: '待支付' }))
    expect(await screen.findByText('加载失败')).toBeTruthy()
    failing.clear()
    fireEvent.click(screen.getByRole('button', { name: '重新加载' }))
    expect(await screen.findByText('暂无问诊订单')).toBeTruthy()
  })
})

// ---------- one inquiry ----------

describe('问诊详情 /pages/order/inquiry/detail', () => {
  const open = async (id: number) => {
    testing.setRouter('/pages/order/inquiry/detail', { id: String(id) })
    render(<InquiryDetail />)
    await screen.findByText('问诊单号')
  }
  const row = (label: string) => screen.getByText(label).nextSibling!.textContent
  const buttons = () => Array.from(document.querySelectorAll('.inquiry-detail__actions button')).map((b) => b.textContent)
  const status = () => document.querySelector('.inquiry-detail__status-text')!.textContent

  test('checked on opening; unpaid: its pay countdown, 去支付 through the cashier, 取消问诊; no room, no complaint', async () => {
    inquiries = [inquiryOf(50, 'unpaid', { pictures: ['/dld-file/files/abcdefghijklmnopqrstuv.jpg'] })]
    await open(50)
    expect(sent('/dld-hospital/im/trade/service/im/check').map((r) => r.data)).toEqual([{ id: 50 }])
    expect(status()).toBe('待支付')
    expect(document.querySelector('.inquiry-detail__status')!.textContent).toMatch(/请在 (29:5\d|30:00) 内完成支付，超时将自动取消/)
    expect(row('就诊人')).toBe('张*')
    expect(row('问诊费')).toBe('¥30.00')
    expect(screen.getByText('胸闷两周，活动后加重（50）')).toBeTruthy()
    expect(document.querySelector('.inquiry-detail__pictures img')!.getAttribute('src')).toBe('/dld-file/files/abcdefghijklmnopqrstuv.jpg')
    expect(buttons()).toEqual(['去支付', '取消问诊'])
    fireEvent.click(screen.getByText('去支付'))
    await waitFor(() => expect(pay).toHaveBeenCalledWith({ kind: 'redirect', channel: 'sandbox', url: '/sandbox/pay/cashier?orderNo=P20261123000000000050' }))
    expect(sent('/dld-hospital/im/trade/service/im/init/continuePay').map(bodyOf)).toEqual([{ id: 50, returnUrl: '/h5/pages/order/inquiry/detail?id=50' }])
  })

  test('取消问诊 of an unpaid one asks first, then reads 已取消', async () => {
    inquiries = [inquiryOf(51, 'unpaid')]
    const modal = jest.spyOn(Taro, 'showModal')
    await open(51)
    fireEvent.click(screen.getByText('取消问诊'))
    await waitFor(() => expect(status()).toBe('已取消'))
    expect(modal).toHaveBeenCalledWith(expect.objectContaining({ title: '提示', content: '确定取消本次问诊吗？' }))
    expect(toasts()).toEqual(['已取消问诊'])
    expect(buttons()).toEqual([])
    modal.mockRestore()
  })

  test('waiting: the time left to accept, 进入诊室 opens the room; 取消问诊 of a paid one asks with the refund, then 退款中', async () => {
    inquiries = [inquiryOf(52, 'waiting', { serviceEndsAt: new Date(Date.now() + (23 * 60 + 10) * 60_000 + 30_000).toISOString() })]
    const modal = jest.spyOn(Taro, 'showModal')
    await open(52)
    expect(status()).toBe('待接诊')
    expect(screen.getByText('剩余 23小时10分')).toBeTruthy()
    expect(document.querySelector('.inquiry-detail__status')!.textContent).toContain('超时未接诊将自动关闭并退款')
    expect(row('支付时间')).toBeTruthy()
    expect(buttons()).toEqual(['进入诊室', '取消问诊', '投诉'])

    fireEvent.click(screen.getByText('进入诊室'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/internet/tim/index?toUserId=d_100&type=inquiry&inquiryId=52' }])

    modal.mockResolvedValueOnce({ confirm: false, cancel: true } as never)
    fireEvent.click(screen.getByText('取消问诊'))
    await waitFor(() => expect(modal).toHaveBeenCalledTimes(1))
    expect(sent('/dld-hospital/im/trade/service/im/cancel')).toHaveLength(0)

    fireEvent.click(screen.getByText('取消问诊'))
    await waitFor(() => expect(status()).toBe('退款中'))
    expect(modal).toHaveBeenLastCalledWith(expect.objectContaining({ content: '确定取消问诊吗？取消后已支付的¥30.00将原路退回，预计1-7个工作日到账。' }))
    expect(screen.getByText('退款处理中：¥30.00将原路退回，预计1-7个工作日到账')).toBeTruthy()
    expect(row('支付状态')).toBe('退款中')
    expect(toasts()).toEqual(['已取消，退款将原路退回'])
    expect(sent('/dld-hospital/im/trade/service/im/cancel').map((r) => r.data)).toEqual([{ id: 52 }])
    expect(buttons()).toEqual(['投诉'])
    modal.mockRestore()
  })

  test('a waiting one whose time ran out shows closed on opening (the check closes it), with its refund', async () => {
    inquiries = [inquiryOf(53, 'waiting', { serviceEndsAt: new Date(Date.now() - 60_000).toISOString() })]
    await open(53)
    expect(status()).toBe('退款中')
    expect(inquiries[0]!.status).toBe('closed')
    expect(screen.getByText('退款处理中：¥30.00将原路退回，预计1-7个工作日到账')).toBeTruthy()
    expect(buttons()).not.toContain('进入诊室')
    expect(buttons()).not.toContain('取消问诊')
  })

  test('in progress: the time left, 结束问诊 asks first and then reads 已结束; the room stays open', async () => {
    inquiries = [inquiryOf(54, 'inProgress', { serviceEndsAt: new Date(Date.now() + 5 * 60_000 + 20_000).toISOString() })]
    const modal = jest.spyOn(Taro, 'showModal')
    await open(54)
    expect(status()).toBe('问诊中')
    expect(screen.getByText('剩余 5分')).toBeTruthy()
    expect(buttons()).toEqual(['进入诊室', '结束问诊', '投诉'])
    fireEvent.click(screen.getByText('结束问诊'))
    await waitFor(() => expect(status()).toBe('已结束'))
    expect(modal).toHaveBeenCalledWith(expect.objectContaining({ content: '确定结束本次问诊吗？结束后将不能继续向医生提问。' }))
    expect(sent('/dld-hospital/im/trade/service/im/user/close').map((r) => r.data)).toEqual([{ id: 54 }])
    expect(toasts()).toEqual(['问诊已结束'])
    expect(buttons()).toEqual(['进入诊室', '投诉'])
    modal.mockRestore()
  })

  test('the service window running out while the page is open: the page checks again and shows closed', async () => {
    jest.useFakeTimers({ now: Date.now(), doNotFake: ['queueMicrotask', 'nextTick'] })
    inquiries = [inquiryOf(55, 'inProgress', { serviceEndsAt: new Date(Date.now() + 61_000).toISOString() })]
    testing.setRouter('/pages/order/inquiry/detail', { id: '55' })
    render(<InquiryDetail />)
    await act(async () => {
      await jest.advanceTimersByTimeAsync(10)
    })
    expect(screen.getByText('剩余 1分')).toBeTruthy()
    await act(async () => {
      await jest.advanceTimersByTimeAsync(2000)
    })
    expect(screen.getByText('剩余 不足1分钟')).toBeTruthy()
    await act(async () => {
      await jest.advanceTimersByTimeAsync(60_000)
    })
    expect(sent('/dld-hospital/im/trade/service/im/check')).toHaveLength(2)
    expect(status()).toBe('已关闭')
    expect(buttons()).toEqual(['投诉'])
  })

  test('投诉 opens the complaint page (test/page/records.test.tsx walks it); the detail has no form of its own', async () => {
    inquiries = [inquiryOf(56, 'finished')]
    await open(56)
    expect(buttons()).toEqual(['进入诊室', '投诉'])
    fireEvent.click(screen.getByText('投诉'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/internet/complaint/index?id=56' }])
    expect(document.querySelector('textarea')).toBeNull()
    expect(screen.queryByText('提交投诉')).toBeNull()
    expect(sent('/dld-hospital/im/trade/complaint')).toHaveLength(0)
  })

  test('a complaint already made shows, with no 投诉', async () => {
    inquiries = [inquiryOf(57, 'finished', { complaint: { content: '态度不好', time: '2026-11-23T05:00:00.000Z' } })]
    await open(57)
    expect(screen.getByText('态度不好')).toBeTruthy()
    expect(buttons()).toEqual(['进入诊室'])
  })

  const INTAKE = '/dld-hospital/im/trade/medicalRecord'
  const intakeCard = () => document.querySelector('.inquiry-detail__intake') as HTMLElement | null
  const typeInto = (placeholder: string, value: string) => fireEvent.change(screen.getByPlaceholderText(placeholder), { target: { value } })

  test('问诊单 while waiting: an empty form; 线下诊断 only once 线下是否就诊 is on; 保存问诊单 sends it trimmed and shows it saved', async () => {
    inquiries = [inquiryOf(60, 'waiting')]
    await open(60)
    const card = within(intakeCard()!)
    expect(card.getByText('问诊单')).toBeTruthy()
    expect(screen.queryByPlaceholderText('请输入线下医院的诊断')).toBeNull()
    expect((screen.getByPlaceholderText('请输入既往史（选填）') as HTMLTextAreaElement).value).toBe('')

    fireEvent.click(card.getByRole('switch', { name: '线下是否就诊' }))
    typeInto('请输入线下医院的诊断', ' 冠心病 ')
    typeInto('请输入既往史（选填）', '高血压十年  ')
    typeInto('请输入过敏史（选填）', '青霉素过敏')
    typeInto('请输入正在使用的药物（选填）', '阿司匹林')
    fireEvent.click(card.getByText('保存问诊单'))

    await waitFor(() => expect(toasts()).toEqual(['问诊单已保存']))
    expect(sent(INTAKE).map(bodyOf)).toEqual([
      { inquiryId: 60, visitedOffline: true, offlineDiagnosis: '冠心病', pastHistory: '高血压十年', allergyHistory: '青霉素过敏', currentMedication: '阿司匹林' },
    ])
    expect(card.getByText(/^已保存 /)).toBeTruthy()
    // the action buttons stay as they were
    expect(buttons()).toEqual(['进入诊室', '取消问诊', '投诉'])

    // switched off again: the offline diagnosis is not sent
    fireEvent.click(card.getByRole('switch', { name: '线下是否就诊' }))
    expect(screen.queryByPlaceholderText('请输入线下医院的诊断')).toBeNull()
    fireEvent.click(card.getByText('保存问诊单'))
    await waitFor(() => expect(sent(INTAKE)).toHaveLength(2))
    expect(bodyOf(sent(INTAKE)[1]!)).toMatchObject({ visitedOffline: false, offlineDiagnosis: '', pastHistory: '高血压十年' })
    await waitFor(() => expect(inquiries[0]!.intake!.offlineDiagnosis).toBe(''))
  })

  test('问诊单 saved before shows in the form of an unpaid inquiry, ready to change', async () => {
    const intake = { visitedOffline: true, offlineDiagnosis: '心律失常', pastHistory: '', allergyHistory: '无', currentMedication: '', updatedAt: '2026-11-23T01:30:00.000Z' }
    inquiries = [inquiryOf(61, 'unpaid', { intake })]
    await open(61)
    expect(screen.getByRole('switch', { name: '线下是否就诊' }).getAttribute('aria-checked')).toBe('true')
    expect((screen.getByPlaceholderText('请输入线下医院的诊断') as HTMLInputElement).value).toBe('心律失常')
    expect((screen.getByPlaceholderText('请输入过敏史（选填）') as HTMLTextAreaElement).value).toBe('无')
    typeInto('请输入正在使用的药物（选填）', '美托洛尔')
    fireEvent.click(screen.getByText('保存问诊单'))
    await waitFor(() => expect(toasts()).toEqual(['问诊单已保存']))
    expect(bodyOf(sent(INTAKE)[0]!)).toEqual({
      inquiryId: 61,
      visitedOffline: true,
      offlineDiagnosis: '心律失常',
      pastHistory: '',
      allergyHistory: '无',
      currentMedication: '美托洛尔',
    })
  })

  test('问诊单 of an ended inquiry is read only, without the form', async () => {
    const intake = { visitedOffline: false, offlineDiagnosis: '', pastHistory: '糖尿病', allergyHistory: '', currentMedication: '二甲双胍', updatedAt: '2026-11-23T01:30:00.000Z' }
    inquiries = [inquiryOf(62, 'finished', { intake })]
    await open(62)
    const card = within(intakeCard()!)
    const value = (label: string) => card.getByText(label).nextSibling!.textContent
    expect(value('线下是否就诊')).toBe('否')
    expect(card.queryByText('线下诊断')).toBeNull()
    expect(value('既往史')).toBe('糖尿病')
    expect(value('过敏史')).toBe('无')
    expect(value('正在使用的药物')).toBe('二甲双胍')
    expect(screen.queryByText('保存问诊单')).toBeNull()
    expect(document.querySelector('textarea')).toBeNull()
  })

  test('问诊单 absent on an ended inquiry: no card', async () => {
    inquiries = [inquiryOf(63, 'cancelled')]
    await open(63)
    expect(intakeCard()).toBeNull()
    expect(screen.queryByText('问诊单')).toBeNull()
  })

  test('问诊单 refused because the inquiry ended meanwhile: the server’s words, the form stays', async () => {
    inquiries = [inquiryOf(64, 'inProgress')]
    await open(64)
    inquiries[0]!.status = 'finished'
    typeInto('请输入既往史（选填）', '哮喘')
    fireEvent.click(screen.getByText('保存问诊单'))
    await waitFor(() => expect(toasts()).toEqual(['问诊已结束，无法修改问诊单']))
    expect(inquiries[0]!.intake).toBeNull()
    expect((screen.getByPlaceholderText('请输入既往史（选填）') as HTMLTextAreaElement).value).toBe('哮喘')
    expect(screen.getByText('保存问诊单')).toBeTruthy()
  })

  test('someone else’s inquiry goes to the no-permission page and shows nothing', async () => {
    testing.setRouter('/pages/order/inquiry/detail', { id: '999' })
    render(<InquiryDetail />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/pages/permission' }])
  })
})

describe('the service window text', () => {
  test('hours and minutes left, minutes rounded down; nothing once over', () => {
    expect(serviceLeftText((23 * 60 + 10) * 60_000 + 59_000)).toBe('剩余 23小时10分')
    expect(serviceLeftText(48 * 3600_000)).toBe('剩余 48小时0分')
    expect(serviceLeftText(59 * 60_000)).toBe('剩余 59分')
    expect(serviceLeftText(59_000)).toBe('剩余 不足1分钟')
    expect(serviceLeftText(0)).toBe('')
    expect(serviceLeftText(-5)).toBe('')
  })
})

// ---------- my consultations ----------

describe('我的问诊 /pages/sys/conversation/index', () => {
  test('a consultation opens its room with the doctor; one without an inquiry opens the consultation orders', async () => {
    const base = { doctorAvatar: '', deptName: '心血管内科', lastMessage: '', unreadCount: 0, hospitalCode: HOSPITAL, hospitalName: HOSPITAL_NAME }
    consultations = [
      { ...base, id: 1, orderNo: 'I202611230000000001', doctorName: '李明', status: '问诊中', updatedAt: new Date().toISOString(), conversationID: 'C2Cd_100', inquiryId: 900 },
      { ...base, id: 2, orderNo: 'OLD-1', doctorName: '王芳', status: '已结束', updatedAt: new Date(Date.now() - 3600_000).toISOString() },
    ]
    testing.setRouter('/pages/sys/conversation/index')
    render(<Conversation />)
    fireEvent.click(await screen.findByText('李明'))
    fireEvent.click(screen.getByText('王芳'))
    expect(calls.navigations).toEqual([
      { kind: 'navigateTo', url: '/internet/tim/index?toUserId=d_100&type=inquiry&inquiryId=900' },
      { kind: 'navigateTo', url: '/pages/order/inquiry/index' },
    ])
  })
})
