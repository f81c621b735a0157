import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { runInAction } from 'mobx'
import { calls, testing } from './doubles/taro'
import platform from '../../src/platform/index.h5'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import EvaluatePage from '../../src/internet/tim/evaluate'
import GiftPage from '../../src/internet/tim/gift'
import MoreEvaluation from '../../src/internet/moreEvaluation'
import ScorePage from '../../src/internet/score'
import OnlineDoctorHome from '../../src/internet/doctor'
import type { Evaluation, Gift, GiftItem, ReceivedGift } from '../../types/api/evaluation'
import type { Inquiry } from '../../types/api/inquiry'
import type { OnlineDoctorInfo } from '../../types/api/internet'
import type { PayOrder } from '../../types/api/payment'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10412'
const HOSPITAL_NAME = '示范互联网医院'
const DOCTOR = 100
const INQUIRY = 900
/** The server's texts (server/src/domain/evaluation.ts, gift.ts), verbatim. */
const BAD_SCORE = '请选择1至5星评分'
const ALREADY_EVALUATED = '该问诊已评价，请勿重复提交'
const OTHER_DOCTOR = '该问诊不是与这位医生的问诊'
const GOOD_TAGS = ['回复及时', '解答专业', '态度很好', '耐心细致', '建议很有帮助', '通俗易懂']
const BAD_TAGS = ['回复慢', '解答不清楚', '态度一般', '不够耐心', '建议没有帮助']
const CATALOGUE: GiftItem[] = [
  { code: 'flower', name: '鲜花', priceFen: 100 },
  { code: 'tea', name: '暖心茶', priceFen: 660 },
  { code: 'letter', name: '感谢信', priceFen: 990 },
  { code: 'banner', name: '锦旗', priceFen: 6600 },
]

// ---------- the fake server: the evaluation and gift calls as server/src/domain/evaluation.ts and gift.ts answer them ----------

function doctorInfo(id: number): OnlineDoctorInfo {
  return {
    id,
    doctorName: id === DOCTOR ? '李明' : '王芳',
    title: '主任医师',
    avatar: `/static/doctors/${id}.svg`,
    deptId: 11,
    deptName: '心血管内科',
    hospitalCode: HOSPITAL,
    hospitalName: HOSPITAL_NAME,
    level: 4.5,
    stars: { full: 4, half: true, empty: 0 },
    priceFen: 3000,
    avgReplySeconds: 900,
    replyTimeText: '15分钟',
    servedCount: 1000,
    goodRate: 97,
    online: true,
    speciality: '冠心病',
    imAccount: `d_${id}`,
    intro: '从事临床工作二十年。',
    services: [{ type: 'text', name: '图文问诊', priceFen: 3000 }],
    fansCount: 10,
    followed: false,
  }
}

function inquiryOf(id: number, evaluated = false): Inquiry {
  return {
    id,
    inquiryNo: `I20261123${String(id).padStart(12, '0')}`,
    status: 'finished',
    statusText: '已结束',
    serviceType: 'text',
    serviceName: '图文问诊',
    kind: 'inquiry',
    description: '胸闷两周',
    pictures: [],
    priceFen: 3000,
    patientId: 1,
    patientName: '王*国',
    hospitalCode: HOSPITAL,
    hospitalName: HOSPITAL_NAME,
    doctor: { id: DOCTOR, doctorName: '李明', title: '主任医师', avatar: '/static/doctors/100.svg', deptName: '心血管内科', imAccount: 'd_100' },
    paidAt: '2026-11-23T01:05:00.000Z',
    acceptedAt: '2026-11-23T02:00:00.000Z',
    serviceEndsAt: null,
    finishedAt: '2026-11-23T03:00:00.000Z',
    cancellable: false,
    complaint: null,
    intake: null,
    evaluated,
    order: null,
    createdAt: '2026-11-23T01:00:00.000Z',
  }
}

/** A doctor's ratings, newest first, as the server lists them. */
function ratingsOf(n: number): Evaluation[] {
  return Array.from({ length: n }, (_, i) => ({
    id: 500 - i,
    score: i % 4 === 3 ? 2 : 5,
    tags: i % 4 === 3 ? ['回复慢'] : ['回复及时', '态度很好'],
    content: `评价内容${i + 1}`,
    patientName: i % 2 === 0 ? '匿名用户' : '张*',
    createdAt: new Date(Date.UTC(2026, 10, 20 - i, 4)).toISOString(),
  }))
}

let inquiries: Record<number, Inquiry> = {}
/** What the server stored, by inquiry. */
let rated = new Map<number, Evaluation>()
let ratings: Record<number, Evaluation[]> = {}
let gifts: (Gift & { key: string })[] = []
let payOrders: Record<string, PayOrder> = {}
/** The next toPay answers: a business refusal, or no answer at all (before or after the server made the gift). */
let nextToPay: 'ok' | 'otherDoctor' | 'drop' | 'dropAfterCommit' = 'ok'
let failing = new Set<string>()
/** Calls held until the test lets them go (to see 加载中...): null until the call arrives, then its release. */
let held = new Map<string, (() => void) | null>()
let nextGift = 1

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data } })
const refuse = (code: number, msg: string) => ({ statusCode: 200, data: { code, msg, data: null } })

function summaryOf(doctorId: number) {
  const list = ratings[doctorId] ?? []
  const counts = new Map<string, number>()
  for (const r of list) for (const t of r.tags) counts.set(t, (counts.get(t) ?? 0) + 1)
  return {
    count: list.length,
    goodRate: list.length ? Math.round((list.filter((r) => r.score >= 4).length * 100) / list.length) : doctorInfo(doctorId).goodRate,
    tags: [...counts].map(([tag, count]) => ({ tag, count })).sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : 1)),
  }
}

function addEvaluation(body: { inquiryId: number; score: number; tags: string[]; content: string; anonymous: boolean }) {
  const inq = inquiries[body.inquiryId]
  if (!inq) return refuse(2999, '暂无权限')
  if (!Number.isInteger(body.score) || body.score < 1 || body.score > 5) return refuse(400, BAD_SCORE)
  if (body.tags.some((t) => !GOOD_TAGS.includes(t) && !BAD_TAGS.includes(t))) return refuse(400, '评价标签不正确')
  if (rated.has(inq.id)) return refuse(400, ALREADY_EVALUATED)
  const evaluation: Evaluation = {
    id: 600 + rated.size,
    score: body.score,
    tags: body.tags,
    content: body.content,
    patientName: body.anonymous ? '匿名用户' : '王*国',
    createdAt: new Date().toISOString(),
  }
  rated.set(inq.id, evaluation)
  ratings[inq.doctor.id] = [evaluation, ...(ratings[inq.doctor.id] ?? [])]
  return ok({ evaluation, inquiryId: inq.id, doctorId: inq.doctor.id, goodRate: summaryOf(inq.doctor.id).goodRate })
}

function payOrderOf(no: number, item: GiftItem, status: PayOrder['status']): PayOrder {
  return {
    orderNo: `P20261123${String(no).padStart(12, '0')}`,
    business: 'gift',
    subject: `心意·${item.name} 李明`,
    amountFen: item.priceFen,
    insuranceFen: 0,
    selfPayFen: item.priceFen,
    status,
    channel: status === 'paid' ? 'sandbox' : null,
    expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
    paidAt: status === 'paid' ? new Date().toISOString() : null,
    refundedFen: 0,
    createdAt: new Date().toISOString(),
  }
}

function makeGift(key: string, doctorId: number, inquiryId: number | null, item: GiftItem, message: string, status: Gift['status']) {
  const no = nextGift++
  const order = payOrderOf(no, item, status === 'paid' ? 'paid' : 'created')
  payOrders[order.orderNo] = order
  const gift = {
    key,
    id: no,
    giftNo: `G20261123${String(no).padStart(12, '0')}`,
    doctorId,
    doctorName: '李明',
    inquiryId,
    giftCode: item.code,
    giftName: item.name,
    priceFen: item.priceFen,
    message,
    status,
    orderNo: order.orderNo,
    paidAt: order.paidAt,
    createdAt: order.createdAt,
  }
  gifts.push(gift)
  return gift
}

/** A gift as the server answers it (without the test's own key). */
function view(g: Gift & { key: string }): Gift {
  const { key, ...gift } = g
  void key
  return gift
}

function toPay(form: Record<string, string>) {
  const known = gifts.find((g) => g.key === form.idempotencyKey)
  if (known) {
    const gift = view(known)
    if (gift.giftCode !== form.giftCode) return refuse(409, '重复的请求')
    return ok({ gift, pay: gift.status === 'unpaid' ? { kind: 'redirect', channel: 'sandbox', url: `/sandbox/pay/cashier?orderNo=${gift.orderNo}` } : null })
  }
  if (nextToPay === 'otherDoctor') {
    nextToPay = 'ok'
    return refuse(400, OTHER_DOCTOR)
  }
  if (nextToPay === 'drop') {
    nextToPay = 'ok'
    throw new Error('connection reset')
  }
  const item = CATALOGUE.find((g) => g.code === form.giftCode)
  if (!item) return refuse(400, '请选择要送出的心意')
  const gift = view(makeGift(form.idempotencyKey!, Number(form.doctorId), form.inquiryId ? Number(form.inquiryId) : null, item, form.message ?? '', 'unpaid'))
  if (nextToPay === 'dropAfterCommit') {
    nextToPay = 'ok'
    throw new Error('connection reset after the server made it')
  }
  return ok({ gift, pay: { kind: 'redirect', channel: 'sandbox', url: `/sandbox/pay/cashier?orderNo=${gift.orderNo}` } })
}

function received(doctorId: number): ReceivedGift[] {
  return gifts
    .filter((g) => g.doctorId === doctorId && g.status === 'paid')
    .reverse()
    .map((g) => ({ id: g.id, giftCode: g.giftCode, giftName: g.giftName, senderName: '王*国', message: g.message, paidAt: g.paidAt! }))
}

const page = <T,>(list: T[], p: number, size: number) => ({ records: list.slice((p - 1) * size, p * size), total: list.length, page: p, size })

function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = ''] = url.split('?')
    const query = (method === 'GET' ? data ?? {} : {}) as Record<string, string | number>
    const form = Object.fromEntries(new URLSearchParams(typeof data === 'string' ? data : '')) as Record<string, string>
    const json = (method !== 'GET' && data && typeof data === 'object' ? data : {}) as Record<string, unknown>
    const answer = () => {
      if (failing.has(path)) return refuse(500, '服务器开小差了')
      if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: query.appId, provider: 'wechat' })
      if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 3, hospitalCode: HOSPITAL, hospitalName: HOSPITAL_NAME, configDto: { isInternet: true, isPalm: false } })
      if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
      if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: query.imAccount, userSig: 's', expire: 1 })
      if (path === '/dld-hospital/doctor/info') return Number(query.id) === DOCTOR ? ok(doctorInfo(DOCTOR)) : refuse(404, '医生不存在')
      if (path === '/dld-hospital/inquiry/order/detail') {
        const inq = inquiries[Number(query.id)]
        return inq ? ok({ ...inq, evaluated: inq.evaluated || rated.has(inq.id) }) : refuse(2999, '暂无权限')
      }
      if (path === '/dld-hospital/im/evaluate/tags') return ok({ good: GOOD_TAGS, bad: BAD_TAGS })
      if (path === '/dld-hospital/im/evaluate/add') return addEvaluation(json as never)
      if (path === '/dld-hospital/im/evaluate/doctor/evaluates') {
        const doctorId = Number(form.doctorId)
        if (doctorId !== DOCTOR) return refuse(404, '医生不存在')
        return ok({ ...page(ratings[doctorId] ?? [], Number(form.page), Number(form.size)), summary: summaryOf(doctorId) })
      }
      // the doctor's home asks whether a consultation with the doctor is open (继续问诊): none here
      if (path === '/dld-hospital/im/core/orderByDoctorAndUserId') return ok(null)
      if (path === '/dld-hospital/im/gift/gifts') return ok(CATALOGUE)
      if (path === '/dld-hospital/im/gift/toPay') return toPay(form)
      if (path === '/dld-hospital/im/gift/doctor/gifts') return ok(page(received(Number(form.doctorId)), Number(form.page), Number(form.size)))
      if (path.startsWith('/dld-pay/order/')) {
        const order = payOrders[decodeURIComponent(path.slice('/dld-pay/order/'.length))]
        return order ? ok(order) : refuse(2999, '暂无权限')
      }
      return { statusCode: 404, data: '' }
    }
    if (held.has(path)) return new Promise((resolve) => held.set(path, () => (held.delete(path), resolve(answer())))) as never
    return answer()
  })
}

const sent = (path: string) => calls.requests.filter((r) => r.url.split('?')[0] === path)
const formOf = (r: { data: unknown }) => Object.fromEntries(new URLSearchParams(r.data as string))
const toasts = () => calls.toasts.map((t) => t.title)

let pay: jest.SpyInstance

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10412demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  inquiries = { [INQUIRY]: inquiryOf(INQUIRY), 901: inquiryOf(901, true) }
  rated = new Map()
  ratings = { [DOCTOR]: ratingsOf(12) }
  gifts = []
  payOrders = {}
  nextToPay = 'ok'
  failing = new Set()
  held = new Map()
  nextGift = 1
  pay = jest.spyOn(platform, 'pay').mockResolvedValue('left')
  serve()
})
afterEach(() => {
  pay.mockRestore()
})

// ---------- 评价医生 ----------

describe('评价医生 /internet/tim/evaluate/index', () => {
  const open = async (inquiryId = INQUIRY) => {
    testing.setRouter('/internet/tim/evaluate/index', { inquiryId: String(inquiryId) })
    render(<EvaluatePage />)
    await screen.findByText('本次问诊满意度')
    await screen.findByText('李明')
  }
  const star = (n: number) => screen.getByRole('radio', { name: `${n}星` })
  const tagChips = () => screen.queryAllByRole('checkbox').map((c) => [c.textContent, c.getAttribute('aria-checked')])
  const submit = () => fireEvent.click(screen.getByText('提交评价'))

  test('no tags before a score; good tags for 4–5 stars, bad ones for 1–3, and a chosen tag goes when the kind changes', async () => {
    await open()
    expect(screen.getByText('请点击星星为医生评分')).toBeTruthy()
    expect(tagChips()).toEqual([])
    expect(screen.getAllByRole('radio').map((r) => r.getAttribute('aria-checked'))).toEqual(['false', 'false', 'false', 'false', 'false'])

    fireEvent.click(star(5))
    expect(star(5).getAttribute('aria-checked')).toBe('true')
    expect(screen.getByText('非常满意')).toBeTruthy()
    expect(tagChips().map(([t]) => t)).toEqual(GOOD_TAGS)
    fireEvent.click(screen.getByRole('checkbox', { name: '回复及时' }))
    fireEvent.click(screen.getByRole('checkbox', { name: '耐心细致' }))
    fireEvent.click(screen.getByRole('checkbox', { name: '耐心细致' }))
    expect(tagChips().filter(([, on]) => on === 'true')).toEqual([['回复及时', 'true']])

    // still good: the choice stays
    fireEvent.click(star(4))
    expect(screen.getByText('满意')).toBeTruthy()
    expect(tagChips().filter(([, on]) => on === 'true')).toEqual([['回复及时', 'true']])

    fireEvent.click(star(2))
    expect(screen.getByText('不满意')).toBeTruthy()
    expect(tagChips()).toEqual(BAD_TAGS.map((t) => [t, 'false']))
    fireEvent.click(screen.getByRole('checkbox', { name: '回复慢' }))
    fireEvent.click(star(3))
    expect(tagChips().filter(([, on]) => on === 'true')).toEqual([['回复慢', 'true']])

    fireEvent.click(star(5))
    expect(tagChips()).toEqual(GOOD_TAGS.map((t) => [t, 'false']))
    // the stars lit up to the one tapped
    expect(document.querySelectorAll('.evaluate__star--on')).toHaveLength(5)
    fireEvent.click(star(1))
    expect(document.querySelectorAll('.evaluate__star--on')).toHaveLength(1)
  })

  test('without a score nothing is sent: the server’s own words say why', async () => {
    await open()
    submit()
    expect(toasts()).toEqual([BAD_SCORE])
    expect(sent('/dld-hospital/im/evaluate/add')).toHaveLength(0)
  })

  test('提交评价 sends the stars, tags, words and 匿名 (on by default), then shows the rating as stored', async () => {
    await open()
    const anonymous = screen.getByRole('switch', { name: '匿名评价' })
    expect(anonymous.getAttribute('aria-checked')).toBe('true')
    fireEvent.click(star(4))
    fireEvent.click(screen.getByRole('checkbox', { name: '解答专业' }))
    fireEvent.click(screen.getByRole('checkbox', { name: '态度很好' }))
    const box = screen.getByPlaceholderText('说说您对医生的评价（选填）')
    fireEvent.change(box, { target: { value: '  医生很耐心，讲得很清楚  ' } })
    expect(screen.getByText('15/200')).toBeTruthy()
    fireEvent.click(anonymous)
    expect(screen.getByRole('switch', { name: '匿名评价' }).getAttribute('aria-checked')).toBe('false')
    submit()

    expect(await screen.findByText('您的评价')).toBeTruthy()
    const [call] = sent('/dld-hospital/im/evaluate/add')
    expect(call!.method).toBe('POST')
    expect(call!.header['Content-Type']).toBe('application/json')
    expect(call!.data).toEqual({ inquiryId: INQUIRY, score: 4, tags: ['解答专业', '态度很好'], content: '医生很耐心，讲得很清楚', anonymous: false })
    expect(toasts()).toEqual(['评价成功'])
    expect(calls.toasts[0]!.icon).toBe('success')
    // what the server stored
    expect(screen.getByLabelText('4星')).toBeTruthy()
    expect(screen.getByText('医生很耐心，讲得很清楚')).toBeTruthy()
    expect(screen.getByText('显示为：王*国')).toBeTruthy()
    expect(screen.queryByText('提交评价')).toBeNull()
    fireEvent.click(screen.getByText('返回诊室'))
    expect(calls.navigations).toEqual([{ kind: 'navigateBack', url: '' }])
  })

  test('the words stop at 200 characters, as the server allows', async () => {
    await open()
    fireEvent.change(screen.getByPlaceholderText('说说您对医生的评价（选填）'), { target: { value: '好'.repeat(230) } })
    expect(screen.getByText('200/200')).toBeTruthy()
    fireEvent.click(star(5))
    submit()
    await screen.findByText('您的评价')
    expect((sent('/dld-hospital/im/evaluate/add')[0]!.data as { content: string }).content).toHaveLength(200)
  })

  test('rated meanwhile (another phone): the second rating shows the server’s refusal, and nothing changes there', async () => {
    await open()
    rated.set(INQUIRY, ratingsOf(1)[0]!)
    fireEvent.click(star(1))
    fireEvent.click(screen.getByRole('checkbox', { name: '回复慢' }))
    submit()
    expect((await screen.findByRole('alert')).textContent).toBe(ALREADY_EVALUATED)
    expect(toasts()).toEqual([ALREADY_EVALUATED])
    expect(screen.getByText('提交评价')).toBeTruthy()
    expect(rated.get(INQUIRY)!.score).toBe(5)
  })

  test('a consultation already rated says so instead of the form', async () => {
    testing.setRouter('/internet/tim/evaluate/index', { inquiryId: '901' })
    render(<EvaluatePage />)
    expect(await screen.findByText('您已评价过本次问诊')).toBeTruthy()
    expect(screen.queryByText('提交评价')).toBeNull()
  })

  test('the room showing that consultation is told, and reloads it (it then shows 已评价)', async () => {
    runInAction(() => {
      mockRoot.chat.order.id = INQUIRY
      mockRoot.chat.order.inquiry = inquiryOf(INQUIRY)
    })
    await open()
    fireEvent.click(star(5))
    submit()
    await screen.findByText('您的评价')
    await waitFor(() => expect(mockRoot.chat.order.inquiry?.evaluated).toBe(true))
    expect(sent('/dld-hospital/inquiry/order/detail').map((r) => r.data)).toEqual([{ id: INQUIRY }, { id: INQUIRY }])
  })

  test('a rating of another consultation leaves the room’s alone', async () => {
    inquiries[902] = inquiryOf(902)
    runInAction(() => {
      mockRoot.chat.order.id = INQUIRY
      mockRoot.chat.order.inquiry = inquiryOf(INQUIRY)
    })
    await open(902)
    fireEvent.click(star(5))
    submit()
    await screen.findByText('您的评价')
    expect(sent('/dld-hospital/inquiry/order/detail').map((r) => r.data)).toEqual([{ id: 902 }])
    expect(mockRoot.chat.order.inquiry?.evaluated).toBe(false)
  })

  test('tags that fail to load say 加载失败, and 重新加载 brings the form', async () => {
    failing.add('/dld-hospital/im/evaluate/tags')
    testing.setRouter('/internet/tim/evaluate/index', { inquiryId: String(INQUIRY) })
    render(<EvaluatePage />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
    failing.clear()
    fireEvent.click(screen.getByText('重新加载'))
    expect(await screen.findByText('本次问诊满意度')).toBeTruthy()
  })
})

// ---------- 送心意 ----------

describe('送心意 /internet/tim/gift/index', () => {
  const open = async (params: Record<string, string> = { doctorId: String(DOCTOR), inquiryId: String(INQUIRY) }) => {
    testing.setRouter('/internet/tim/gift/index', params)
    render(<GiftPage />)
    await screen.findByText('李明')
  }
  const cards = () => screen.getAllByRole('radio')
  const choose = async (name: string) => fireEvent.click(await screen.findByRole('radio', { name: new RegExp(name) }))
  const sendButton = () => screen.getByText(/^送出心意/)
  const keys = () => sent('/dld-hospital/im/gift/toPay').map((r) => formOf(r).idempotencyKey)

  test('the doctor, the catalogue with prices as cards, one chosen at a time', async () => {
    await open()
    expect(screen.getByText(`${HOSPITAL_NAME} · 心血管内科`)).toBeTruthy()
    await waitFor(() => expect(cards()).toHaveLength(4))
    expect(cards().map((c) => c.textContent)).toEqual(['鲜花¥1.00', '暖心茶¥6.60', '感谢信¥9.90', '锦旗¥66.00'])
    await choose('暖心茶')
    await choose('锦旗')
    expect(cards().map((c) => c.getAttribute('aria-checked'))).toEqual(['false', 'false', 'false', 'true'])
    expect(sendButton().textContent).toBe('送出心意 ¥66.00')
  })

  test('nothing chosen: nothing is sent', async () => {
    await open()
    await waitFor(() => expect(cards()).toHaveLength(4))
    fireEvent.click(sendButton())
    expect(toasts()).toEqual(['请选择要送出的心意'])
    expect(sent('/dld-hospital/im/gift/toPay')).toHaveLength(0)
  })

  test('送出心意 makes the gift and pays it: in H5 the sandbox cashier, which returns to this page', async () => {
    pay.mockRestore()
    const assign = jest.fn()
    const realLocation = window.location
    Object.defineProperty(window, 'location', { configurable: true, value: { ...realLocation, assign } })
    try {
      await open()
      await choose('暖心茶')
      const box = screen.getByPlaceholderText('写一句感谢的话给医生（选填）')
      fireEvent.change(box, { target: { value: '谢谢李医生'.repeat(12) } })
      expect(screen.getByText('50/50')).toBeTruthy()
      fireEvent.change(box, { target: { value: ' 谢谢李医生 ' } })
      fireEvent.click(sendButton())
      await waitFor(() => expect(assign).toHaveBeenCalledWith('/sandbox/pay/cashier?orderNo=P20261123000000000001'))
      const [call] = sent('/dld-hospital/im/gift/toPay')
      expect(call!.method).toBe('POST')
      expect(formOf(call!)).toEqual({
        doctorId: String(DOCTOR),
        inquiryId: String(INQUIRY),
        giftCode: 'tea',
        message: '谢谢李医生',
        idempotencyKey: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/),
        returnUrl: `/h5/internet/tim/gift/index?doctorId=${DOCTOR}&inquiryId=${INQUIRY}`,
      })
      expect(gifts).toHaveLength(1)
    } finally {
      Object.defineProperty(window, 'location', { configurable: true, value: realLocation })
      pay = jest.spyOn(platform, 'pay').mockResolvedValue('left')
    }
  })

  test('no answer: the retry sends the same key and the server answers the one gift it made', async () => {
    await open()
    await choose('鲜花')
    nextToPay = 'dropAfterCommit'
    fireEvent.click(sendButton())
    await waitFor(() => expect(toasts()).toEqual(['未连接到服务器']))
    expect(pay).not.toHaveBeenCalled()
    fireEvent.click(sendButton())
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    expect(keys()).toHaveLength(2)
    expect(keys()[1]).toBe(keys()[0])
    expect(gifts).toHaveLength(1)
    expect(pay).toHaveBeenCalledWith({ kind: 'redirect', channel: 'sandbox', url: '/sandbox/pay/cashier?orderNo=P20261123000000000001' })
  })

  test('no answer before the server made it: the same key again makes it once', async () => {
    await open()
    await choose('鲜花')
    nextToPay = 'drop'
    fireEvent.click(sendButton())
    await waitFor(() => expect(toasts()).toEqual(['未连接到服务器']))
    fireEvent.click(sendButton())
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    expect(keys()[1]).toBe(keys()[0])
    expect(gifts).toHaveLength(1)
  })

  test('a refusal made nothing: the next tap is a new attempt with a new key; another gift is another attempt too', async () => {
    await open()
    await choose('鲜花')
    nextToPay = 'otherDoctor'
    fireEvent.click(sendButton())
    await waitFor(() => expect(toasts()).toEqual([OTHER_DOCTOR]))
    fireEvent.click(sendButton())
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    expect(keys()).toHaveLength(2)
    expect(keys()[1]).not.toBe(keys()[0])
    // the cashier was left: paying again pays the same gift
    fireEvent.click(sendButton())
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(2))
    expect(keys()[2]).toBe(keys()[1])
    expect(gifts).toHaveLength(1)
    await choose('感谢信')
    fireEvent.click(sendButton())
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(3))
    expect(keys()[3]).not.toBe(keys()[2])
    expect(gifts.map((g) => g.giftCode)).toEqual(['flower', 'letter'])
  })

  test('back from the cashier paid: 感谢您的心意, and the doctor’s received gifts show it', async () => {
    const paid = makeGift('k-paid-000001', DOCTOR, INQUIRY, CATALOGUE[3]!, '妙手仁心', 'paid')
    await open({ doctorId: String(DOCTOR), inquiryId: String(INQUIRY), orderNo: paid.orderNo! })
    expect(await screen.findByText('感谢您的心意')).toBeTruthy()
    expect(screen.getByText('心意·锦旗 李明 ¥66.00')).toBeTruthy()
    expect(sent(`/dld-pay/order/${paid.orderNo}`)).toHaveLength(1)
    expect(screen.queryByRole('radiogroup', { name: '心意' })).toBeNull()
    expect(await screen.findByText('王*国 送出 锦旗')).toBeTruthy()
    expect(screen.getByText('妙手仁心')).toBeTruthy()
    // another gift is a new attempt
    fireEvent.click(screen.getByText('再送一份'))
    expect(await screen.findByRole('radiogroup', { name: '心意' })).toBeTruthy()
    expect(screen.queryByText('感谢您的心意')).toBeNull()
  })

  test('back from the cashier unpaid: says so, and the catalogue stays', async () => {
    const unpaid = makeGift('k-unpaid-0001', DOCTOR, INQUIRY, CATALOGUE[0]!, '', 'unpaid')
    await open({ doctorId: String(DOCTOR), inquiryId: String(INQUIRY), orderNo: unpaid.orderNo! })
    expect(await screen.findByText('支付未完成，可重新选择心意送出')).toBeTruthy()
    expect(screen.queryByText('感谢您的心意')).toBeNull()
    expect(cards()).toHaveLength(4)
  })

  test('paid in WeChat’s sheet: the payment core is asked at once and the page thanks the patient', async () => {
    pay.mockImplementation(async () => {
      // the provider's notification arrived: the gift and its order are paid
      const g = gifts[0]!
      g.status = 'paid'
      payOrders[g.orderNo!] = { ...payOrders[g.orderNo!]!, status: 'paid', paidAt: new Date().toISOString() }
      g.paidAt = payOrders[g.orderNo!]!.paidAt
      return 'paid'
    })
    await open()
    await choose('鲜花')
    fireEvent.click(sendButton())
    expect(await screen.findByText('感谢您的心意')).toBeTruthy()
    expect(screen.getByText('鲜花 ¥1.00')).toBeTruthy()
    expect(sent('/dld-pay/order/P20261123000000000001')).toHaveLength(1)
    expect(await screen.findByText('王*国 送出 鲜花')).toBeTruthy()
  })

  test('a cancelled payment says so and keeps the gift to pay again', async () => {
    pay.mockResolvedValueOnce('cancelled')
    await open()
    await choose('鲜花')
    fireEvent.click(sendButton())
    await waitFor(() => expect(toasts()).toEqual(['支付已取消']))
    expect(screen.queryByText('感谢您的心意')).toBeNull()
  })

  test('the received gifts a page at a time; none yet says so', async () => {
    await open()
    expect(await screen.findByText('医生还没有收到心意')).toBeTruthy()
  })

  test('received gifts: 没有更多了 at the end, 加载失败 when the list fails', async () => {
    for (let i = 0; i < 3; i++) makeGift(`k-r-${i}-0000000`, DOCTOR, null, CATALOGUE[i]!, `谢谢${i}`, 'paid')
    await open()
    expect(await screen.findByText('没有更多了')).toBeTruthy()
    expect(screen.getAllByText(/^王\*国 送出/).map((e) => e.textContent)).toEqual(['王*国 送出 感谢信', '王*国 送出 暖心茶', '王*国 送出 鲜花'])
  })

  test('received gifts that fail to load say 加载失败', async () => {
    failing.add('/dld-hospital/im/gift/doctor/gifts')
    await open()
    expect(await screen.findByText('加载失败')).toBeTruthy()
    // silent: the list says it, no toast
    expect(toasts()).toEqual([])
  })
})

// ---------- 全部评价 ----------

describe('全部评价 /internet/moreEvaluation/index', () => {
  const open = async () => {
    testing.setRouter('/internet/moreEvaluation/index', { doctorId: String(DOCTOR) })
    render(<MoreEvaluation />)
    await screen.findByText('共12条评价')
  }
  const items = () => Array.from(document.querySelectorAll<HTMLElement>('.evaluation-item'))

  test('the summary: count, 好评率 and the tag counts', async () => {
    await open()
    expect(screen.getByText('好评率 75%')).toBeTruthy()
    expect(screen.getAllByText(/^(回复及时|态度很好|回复慢) \d+$/).map((t) => t.textContent)).toEqual(['回复及时 9', '态度很好 9', '回复慢 3'])
  })

  test('each rating: name or 匿名用户, stars, tags, words, date', async () => {
    await open()
    const [first, second] = items()
    expect(within(first!).getByText('匿名用户')).toBeTruthy()
    expect(within(first!).getByLabelText('5星')).toBeTruthy()
    expect(within(first!).getByText('回复及时')).toBeTruthy()
    expect(within(first!).getByText('评价内容1')).toBeTruthy()
    expect(within(first!).getByText('2026-11-20')).toBeTruthy()
    expect(within(second!).getByText('张*')).toBeTruthy()
  })

  test('a page at a time: 加载更多, 加载中..., 没有更多了; a failed page says 加载失败 and can be retried', async () => {
    await open()
    expect(items()).toHaveLength(10)
    expect(screen.getByText('加载更多')).toBeTruthy()

    failing.add('/dld-hospital/im/evaluate/doctor/evaluates')
    fireEvent.click(screen.getByText('加载更多'))
    expect(screen.getByText('加载中...')).toBeTruthy()
    expect(await screen.findByText('加载失败')).toBeTruthy()
    expect(items()).toHaveLength(10)
    expect(toasts()).toEqual([])

    failing.clear()
    held.set('/dld-hospital/im/evaluate/doctor/evaluates', null)
    fireEvent.click(screen.getByText('加载失败'))
    await waitFor(() => expect(held.get('/dld-hospital/im/evaluate/doctor/evaluates')).toBeTruthy())
    expect(screen.getByText('加载中...')).toBeTruthy()
    expect(items()).toHaveLength(10)
    held.get('/dld-hospital/im/evaluate/doctor/evaluates')!()
    expect(await screen.findByText('没有更多了')).toBeTruthy()
    expect(items()).toHaveLength(12)
    expect(sent('/dld-hospital/im/evaluate/doctor/evaluates').map((r) => formOf(r))).toEqual([
      { doctorId: '100', page: '1', size: '10' },
      { doctorId: '100', page: '2', size: '10' },
      { doctorId: '100', page: '2', size: '10' },
    ])
  })

  test('no ratings yet: says so', async () => {
    ratings = { [DOCTOR]: [] }
    testing.setRouter('/internet/moreEvaluation/index', { doctorId: String(DOCTOR) })
    render(<MoreEvaluation />)
    expect(await screen.findByText('暂无评价')).toBeTruthy()
    // no rate next to no ratings (好评率 93% · 共0条评价 contradicted itself)
    expect(screen.queryByText(/好评率/)).toBeNull()
    expect(screen.queryByText('共0条评价')).toBeNull()
  })

  test('a first page that fails says 加载失败, and 重新加载 loads it', async () => {
    failing.add('/dld-hospital/im/evaluate/doctor/evaluates')
    testing.setRouter('/internet/moreEvaluation/index', { doctorId: String(DOCTOR) })
    render(<MoreEvaluation />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
    failing.clear()
    fireEvent.click(screen.getByText('重新加载'))
    expect(await screen.findByText('共12条评价')).toBeTruthy()
  })
})

// ---------- 医生评分 ----------

describe('医生评分 /internet/score/index', () => {
  test('the service level as stars, 好评率, the count, tag counts and the two newest ratings, with 查看全部评价', async () => {
    testing.setRouter('/internet/score/index', { doctorId: String(DOCTOR) })
    render(<ScorePage />)
    expect(await screen.findByText('李明')).toBeTruthy()
    await screen.findByText('12')
    // level 4.5: four full stars and a half (spec §3)
    const level = screen.getByLabelText('服务等级4.5星')
    expect(level.querySelectorAll('.level-stars__star--full')).toHaveLength(4)
    expect(level.querySelectorAll('.level-stars__star--half')).toHaveLength(1)
    expect(screen.getByText('75%')).toBeTruthy()
    expect(screen.getByText('回复及时 9')).toBeTruthy()
    expect(screen.getByText('回复慢 3')).toBeTruthy()
    const items = Array.from(document.querySelectorAll<HTMLElement>('.evaluation-item'))
    expect(items.map((i) => i.querySelector('.evaluation-item__content')!.textContent)).toEqual(['评价内容1', '评价内容2'])
    fireEvent.click(screen.getByRole('link', { name: '查看全部评价' }))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: `/internet/moreEvaluation/index?doctorId=${DOCTOR}` }])
  })

  test('a doctor without ratings: the doctor’s own good rate, 暂无评价 and no link', async () => {
    ratings = { [DOCTOR]: [] }
    testing.setRouter('/internet/score/index', { doctorId: String(DOCTOR) })
    render(<ScorePage />)
    expect(await screen.findByText('暂无评价')).toBeTruthy()
    expect(screen.getByText('97%')).toBeTruthy()
    expect(screen.getByText('0')).toBeTruthy()
    expect(screen.queryByText('查看全部评价')).toBeNull()
  })

  test('an unknown doctor says 加载失败', async () => {
    testing.setRouter('/internet/score/index', { doctorId: '999' })
    render(<ScorePage />)
    expect(await screen.findByText('加载失败')).toBeTruthy()
  })
})

// ---------- the doctor's home ----------

describe('医生主页 /internet/doctor/index: 患者评价', () => {
  const open = async () => {
    testing.setRouter('/internet/doctor/index', { id: String(DOCTOR) })
    render(<OnlineDoctorHome />)
    await screen.findByText('从事临床工作二十年。')
  }

  test('好评率, the count, the two newest and 查看全部', async () => {
    await open()
    const section = await screen.findByLabelText('患者评价')
    expect(await within(section).findByText('好评率 75% · 共12条评价')).toBeTruthy()
    expect(Array.from(section.querySelectorAll('.evaluation-item__content')).map((e) => e.textContent)).toEqual(['评价内容1', '评价内容2'])
    fireEvent.click(within(section).getByRole('link', { name: '查看全部' }))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: `/internet/moreEvaluation/index?doctorId=${DOCTOR}` }])
  })

  test('no ratings yet: 暂无评价 and no link', async () => {
    ratings = { [DOCTOR]: [] }
    await open()
    const section = await screen.findByLabelText('患者评价')
    expect(await within(section).findByText('暂无评价')).toBeTruthy()
    expect(within(section).queryByText('查看全部')).toBeNull()
  })

  test('ratings that fail to load say 加载失败 in the section only, and can be retried', async () => {
    failing.add('/dld-hospital/im/evaluate/doctor/evaluates')
    await open()
    const section = await screen.findByLabelText('患者评价')
    expect(await within(section).findByText('加载失败，点击重试')).toBeTruthy()
    expect(toasts()).toEqual([])
    failing.clear()
    fireEvent.click(within(section).getByText('加载失败，点击重试'))
    expect(await within(section).findByText('好评率 75% · 共12条评价')).toBeTruthy()
  })
})
