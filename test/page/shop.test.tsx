/**
 * 药品商城, 购物车, 确认订单 and 药品订单 (spec §2 shop pages, /internet/sureOrder, /pages/order/shop): the cart kept on
 * the phone across a reload, its totals, the checkout's delivery-fee tip and served cities, and an order's detail with
 * what the patient may do in each state.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import platform from '../../src/platform/index.h5'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import ShopList from '../../src/pages/shop/list'
import ShopCart from '../../src/pages/shop/cart'
import StorePayment from '../../src/pages/storePayment'
import SureOrder from '../../src/internet/sureOrder'
import PharmacyOrderDetail from '../../src/pages/order/shop/detail'
import type { Address } from '../../types/api/address'
import type { Patient } from '../../types/api/patient'
import type { PharmacyOrder, PharmacyOrderStatus, Prescription, ShopDrug } from '../../types/api/pharmacy'
import { useCartStore } from '../../src/stores/CartStore'

let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10412'
const STORE_ID = 5
const TIP = '配送费15元，满99元包邮'
/** The server's refusal of an rx product without a reviewed prescription (shown as it says). */
const NO_PRESCRIPTION = '处方药需凭审核通过的处方购买'

const PATIENT: Patient = {
  id: 1,
  name: '张三',
  idCard: '110101********4514',
  mobile: '138****5678',
  sex: 1,
  sexText: '男',
  birthday: '1990-03-07',
  age: 36,
  relation: '本人',
  source: 'idCard',
  neonate: false,
  isDefault: false,
  hisMedCardNo: 'A100001',
  complete: true,
  missing: [],
}

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data } })
const refuse = (code: number, msg: string) => ({ statusCode: 200, data: { code, msg, data: null } })

function drug(id: number, name: string, priceFen: number, extra: Partial<ShopDrug> = {}): ShopDrug {
  return {
    id,
    code: `D${id}`,
    name,
    commonName: name,
    category: 'western',
    drugSpec: '0.25g*24粒',
    drugSpecUnit: 'g',
    unit: '盒',
    dosageForm: '胶囊',
    manufacturer: '示范药业',
    defaultUsage: '口服',
    priceFen,
    rx: false,
    picture: '',
    typeId: 1,
    storeId: STORE_ID,
    stock: 10,
    ...extra,
  }
}

const AMOXICILLIN = drug(1, '阿莫西林胶囊', 1250, { rx: true })
const VITAMIN_C = drug(2, '维生素C片', 890)
const COLD = drug(3, '复方感冒灵颗粒', 1580, { stock: 2 })

const address = (id: number, cityCode: number, regionText: string): Address => ({
  id,
  name: '张*',
  mobile: '138****5678',
  provinceCode: Math.floor(cityCode / 100) * 100,
  cityCode,
  districtCode: cityCode + 5,
  regionText,
  detail: '深南大道10000号',
  latitude: null,
  longitude: null,
  isDefault: id === 1,
})
const SHENZHEN = address(1, 440300, '广东省 深圳市 南山区')
const LHASA = address(2, 540100, '西藏自治区 拉萨市 城关区')

let addresses: Address[] = []
/** The shop store's stock by drug id where it differs from the product's (inventory). */
let stockAt = new Map<number, number>()
let placed: Record<string, unknown>[] = []
let planned: Record<string, unknown>[] = []
let orders: PharmacyOrder[] = []

function orderOf(id: number, status: PharmacyOrderStatus, extra: Partial<PharmacyOrder> = {}): PharmacyOrder {
  const text: Record<PharmacyOrderStatus, string> = {
    unpaid: '待支付',
    paid: '待发货',
    shipped: '已发货',
    ready: '待取药',
    completed: '已完成',
    refundRequested: '退款申请中',
    refunded: '已退款',
    cancelled: '已取消',
    closed: '已关闭',
  }
  return {
    id,
    orderCode: `RX2026112700000${id}`,
    source: 'shop',
    status,
    statusText: text[status],
    storeName: '示范大药房',
    drugNames: ['维生素C片'],
    totalFen: 2390,
    createdAt: '2026-11-27T01:00:00.000Z',
    prescriptionId: null,
    patientName: null,
    store: { id: STORE_ID, name: '示范大药房', address: '深圳市南山区科技园1号', delivery: true, pickup: true },
    delivery: 'express',
    address: { name: '张*', mobile: '138****5678', regionText: '广东省 深圳市 南山区', detail: '深南大道10000号' },
    lines: [{ drugId: 2, drugName: '维生素C片', drugSpec: '0.1g*100片', unit: '盒', quantity: 1, priceFen: 890, amountFen: 890 }],
    drugFeeFen: 890,
    diagnosisFeeFen: 0,
    expressFeeFen: 1500,
    carrier: status === 'shipped' || status === 'refundRequested' ? '顺丰速运' : null,
    trackingNo: status === 'shipped' || status === 'refundRequested' ? 'SF1234567890' : null,
    refundReason: null,
    payOrder: {
      orderNo: `P2026112700000${id}`,
      business: 'pharmacy',
      subject: '药品订单',
      amountFen: 2390,
      insuranceFen: 0,
      selfPayFen: 2390,
      status: status === 'unpaid' ? 'created' : 'paid',
      channel: status === 'unpaid' ? null : 'sandbox',
      expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
      paidAt: status === 'unpaid' ? null : '2026-11-27T01:01:00.000Z',
      refundedFen: 0,
      createdAt: '2026-11-27T01:00:00.000Z',
    },
    steps: [{ status: 'unpaid', statusText: '已下单', note: '', at: '2026-11-27T01:00:00.000Z' }],
    canPay: status === 'unpaid',
    canCancel: status === 'unpaid' || status === 'paid',
    canRefund: status === 'shipped' || status === 'ready',
    canCancelRefund: status === 'refundRequested',
    ...extra,
  }
}

const PRESCRIPTION: Prescription = {
  id: 31,
  presNo: 'CF20261127000031',
  inquiryId: 900,
  category: 'western',
  patientId: 1,
  patientName: '张三',
  sex: 1,
  age: 36,
  doctorId: 100,
  doctorName: '李明',
  deptName: '呼吸内科',
  pharmacistName: '王药师',
  diagnoses: [{ code: 'J06.900', name: '急性上呼吸道感染' }],
  advice: '多饮水',
  lines: [{ drugId: 1, drugName: '阿莫西林胶囊', drugSpec: '0.25g*24粒', drugSpecUnit: 'g', unit: '盒', dose: '0.5g', frequency: '每日3次', days: 5, totalCount: 2, priceFen: 1250, amountFen: 2500 }],
  drugFeeFen: 2500,
  diagnosisFeeFen: 1000,
  totalFen: 3500,
  status: 'approved',
  statusText: '审核通过',
  rejectReason: null,
  renewable: false,
  expired: false,
  orderable: true,
  orderId: null,
  expiresAt: '2026-11-30T01:00:00.000Z',
  reviewedAt: '2026-11-27T01:00:00.000Z',
  createdAt: '2026-11-27T00:30:00.000Z',
  stores: [{ id: STORE_ID, name: '示范大药房', address: '深圳市南山区科技园1号', delivery: true, pickup: true }],
}

/** Prescription 31 written renewable (a chronic patient's) when its orders say so; otherwise once only. */
const RENEWABLE_ID = PRESCRIPTION.id

function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = ''] = url.split('?')
    const query = (method === 'GET' ? (data ?? {}) : {}) as Record<string, string>
    // JSON calls send an object, the others a form (whose numbers arrive as text)
    const body = (method === 'GET' || !data ? {} : typeof data === 'string' ? Object.fromEntries(new URLSearchParams(data)) : data) as Record<string, unknown>
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: query.appId, provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 3, hospitalCode: HOSPITAL, hospitalName: '示范互联网医院', configDto: { isInternet: true, isPalm: false } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, banners: [], menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: query.imAccount, userSig: 's', expire: 1 })
    if (path === '/dld-palm/api/patient/list') return ok([PATIENT])
    if (path === '/dld-hospital/addressList') return ok(addresses)
    // the shop is the current hospital's: another hospital's shelf would be empty here
    if (path === '/dld-rpflow/api/drugType/list') return ok(query.hospitalCode === HOSPITAL ? [{ id: 1, name: '感冒用药' }] : [])
    if (path === '/dld-rpflow/api/drugStore/shop/drugPage')
      return ok(query.hospitalCode === HOSPITAL ? { records: [AMOXICILLIN, VITAMIN_C, COLD], total: 3, page: 1, size: 10 } : { records: [], total: 0, page: 1, size: 10 })
    if (path === `/dld-rpflow/api/store/detail/${STORE_ID}`)
      return ok({ id: STORE_ID, name: '示范大药房', address: '深圳市南山区科技园1号', delivery: true, pickup: true, phone: '0755-00000000', hours: '08:00-22:00', intro: '', latitude: null, longitude: null })
    if (path === `/dld-rpflow/api/sendTemplate/supportCity/${STORE_ID}`) return ok([{ provinceCode: 440000, provinceName: '广东省', cityCode: 440300, cityName: '深圳市' }])
    if (path === '/dld-rpflow/api/sendTemplate/expressFee') {
      const a = addresses.find((x) => x.id === body.addressId)
      const supported = a?.cityCode === 440300
      return ok({ supported, expressFeeFen: supported ? 1500 : 0, tip: supported ? TIP : '' })
    }
    if (path === `/dld-rpflow/api/prescription/${PRESCRIPTION.id}`) return ok(PRESCRIPTION)
    if (path === '/dld-rpflow/api/drugStore/store/inventory') {
      const all = [AMOXICILLIN, VITAMIN_C, COLD]
      return ok((body.drugIds as number[]).map((id) => ({ drugId: id, quantity: stockAt.get(id) ?? all.find((d) => d.id === id)?.stock ?? 0 })))
    }
    if (path === `/dld-rpflow/api/sendTemplate/${STORE_ID}`) return ok({ storeId: STORE_ID, expressFeeFen: 1500, freeShippingFromFen: 9900, tip: TIP })
    if (path === `/dld-rpflow/api/sendTemplate/shipProvince/${STORE_ID}`) return ok([{ code: 440000, name: '广东省' }, { code: 330000, name: '浙江省' }])
    if (path === `/dld-rpflow/api/sendTemplate/shipCity/${STORE_ID}/440000`) return ok([{ code: 440300, name: '深圳市' }, { code: 440100, name: '广州市' }])
    if (path === '/dld-hospital/pres/drugDetail') return ok([VITAMIN_C, AMOXICILLIN, COLD].filter((d) => String(query.ids).split(',').includes(String(d.id))))
    if (path === '/dld-rpflow/api/order/planOrder') {
      planned.push(body)
      const order = orderOf(90 + planned.length, 'unpaid', { source: 'prescription', prescriptionId: PRESCRIPTION.id, diagnosisFeeFen: 0 })
      orders.push(order)
      return ok(order)
    }
    const fromOrder = path.match(/^\/dld-rpflow\/api\/order\/web\/prescription\/(\d+)$/)
    if (fromOrder) {
      const order = orders.find((o) => o.id === Number(fromOrder[1]) && o.prescriptionId)
      // the prescription's order is its newest one not cancelled, closed or refunded
      const holder = Math.max(...orders.filter((o) => o.prescriptionId === order?.prescriptionId && !['cancelled', 'closed', 'refunded'].includes(o.status)).map((o) => o.id))
      return order ? ok({ ...PRESCRIPTION, renewable: order.prescriptionId === RENEWABLE_ID, orderable: false, orderId: holder, statusText: '已下单' }) : refuse(2999, '暂无权限')
    }
    if (path === '/dld-rpflow/api/order/place') {
      placed.push(body)
      const lines = (body.lines ?? []) as { drugId: number }[]
      if (lines.some((l) => l.drugId === AMOXICILLIN.id)) return refuse(400, NO_PRESCRIPTION)
      const order = orderOf(60 + placed.length, 'unpaid')
      orders.push(order)
      return ok(order)
    }
    const own = orders.find((o) => path.endsWith(`/${o.id}`) || Number(body.orderId) === o.id)
    if (path.startsWith('/dld-rpflow/api/order/unifiedOrder/')) return own ? ok(own.payOrder) : refuse(2999, '暂无权限')
    if (path === '/dld-pay/pay') return ok({ kind: 'redirect', channel: 'sandbox', url: `/sandbox/pay/cashier?orderNo=${String(body.orderNo)}` })
    if (path.startsWith('/dld-rpflow/api/order/detail/') || path.startsWith('/dld-rpflow/api/order/checkOrderAgain/')) return own ? ok(own) : refuse(2999, '暂无权限')
    if (path.startsWith('/dld-rpflow/api/order/cancel/') && own) {
      if (own.status === 'paid') own.payOrder = { ...own.payOrder!, status: 'refunded', refundedFen: own.payOrder!.selfPayFen }
      Object.assign(own, { status: 'cancelled', statusText: '已取消', canPay: false, canCancel: false })
      return ok(own)
    }
    if (path === '/dld-rpflow/api/storeQrCode/getInfo' && own) return ok({ orderId: own.id, pickupCode: '862041', qrText: 'PICKUP-862041', storeName: '示范大药房' })
    return { statusCode: 404, data: '' }
  })
}

let pay: jest.SpyInstance
beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10412demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  addresses = [SHENZHEN, LHASA]
  stockAt = new Map()
  placed = []
  planned = []
  orders = []
  pay = jest.spyOn(platform, 'pay').mockResolvedValue('left')
  serve()
})
afterEach(() => pay.mockRestore())

const toastTitles = () => calls.toasts.map((t) => t.title)
/** The amount in the foot's action bar (合计). */
const total = () => document.querySelector('.action-bar__money')?.textContent

/** Opens the shop and adds products by their names (once per name given). */
async function addToCart(...names: string[]) {
  testing.setRouter('/pages/shop/list/index')
  const page = render(<ShopList />)
  await screen.findByText('维生素C片')
  for (const name of names) fireEvent.click(screen.getByRole('button', { name: `${name}加入购物车` }))
  page.unmount()
}

describe('药品商城 and 购物车', () => {
  test('rx products are marked 处方药; the cart keeps its lines through a reload and totals the selected ones in yuan', async () => {
    testing.setRouter('/pages/shop/list/index')
    const shop = render(<ShopList />)
    await screen.findByText('阿莫西林胶囊')
    expect(screen.getAllByText('处方药')).toHaveLength(1)
    fireEvent.click(screen.getByRole('button', { name: '维生素C片加入购物车' }))
    fireEvent.click(screen.getByRole('button', { name: '维生素C片加入购物车' }))
    fireEvent.click(screen.getByRole('button', { name: '复方感冒灵颗粒加入购物车' }))
    expect(screen.getByRole('button', { name: '购物车，3件' })).toBeTruthy()
    shop.unmount()

    // the app is loaded again: a new root store reads the cart back from the phone
    mockRoot = new RootStore()
    testing.setRouter('/pages/shop/cart/index')
    render(<ShopCart />)
    await screen.findByText('维生素C片')
    expect(screen.getByText('复方感冒灵颗粒')).toBeTruthy()
    expect(screen.getByLabelText('维生素C片数量').textContent).toBe('2')
    // 2 × 8.90 + 15.80
    expect(total()).toBe('¥33.60')

    // no more than the stock (2), no fewer than 1
    fireEvent.click(screen.getByRole('button', { name: '复方感冒灵颗粒增加一盒' }))
    expect(screen.getByLabelText('复方感冒灵颗粒数量').textContent).toBe('2')
    fireEvent.click(screen.getByRole('button', { name: '复方感冒灵颗粒增加一盒' }))
    expect(screen.getByLabelText('复方感冒灵颗粒数量').textContent).toBe('2')
    fireEvent.click(screen.getByRole('button', { name: '维生素C片减少一盒' }))
    fireEvent.click(screen.getByRole('button', { name: '维生素C片减少一盒' }))
    expect(screen.getByLabelText('维生素C片数量').textContent).toBe('1')
    // 8.90 + 2 × 15.80
    expect(total()).toBe('¥40.50')

    // unselected lines are left out of the total; removing asks first
    fireEvent.click(screen.getByRole('checkbox', { name: '选择复方感冒灵颗粒' }))
    expect(total()).toBe('¥8.90')
    fireEvent.click(screen.getByRole('button', { name: '删除维生素C片' }))
    await waitFor(() => expect(screen.queryByText('维生素C片')).toBeNull())
    expect(calls.modals).toEqual(['确定从购物车删除维生素C片吗？'])
    expect(total()).toBe('¥0.00')
  })
})

describe('购物车 stock and 药品说明', () => {
  test('the cart reads the store’s stock: a line asking for more is marked and 去结算 waits until it is changed', async () => {
    await addToCart('维生素C片', '维生素C片', '维生素C片', '复方感冒灵颗粒')
    stockAt.set(VITAMIN_C.id, 1)
    testing.setRouter('/pages/shop/cart/index')
    render(<ShopCart />)
    expect(await screen.findByText('库存不足，仅剩1盒')).toBeTruthy()
    const settle = screen.getByRole('button', { name: '去结算' })
    expect(settle.getAttribute('aria-disabled') ?? String(settle.hasAttribute('disabled'))).toBe('true')
    expect(screen.getByText('部分药品库存不足，请修改数量')).toBeTruthy()
    // one tap down brings the line to what is left
    fireEvent.click(screen.getByRole('button', { name: '维生素C片减少一盒' }))
    expect(screen.getByLabelText('维生素C片数量').textContent).toBe('1')
    expect(screen.queryByText('库存不足，仅剩1盒')).toBeNull()
    expect(screen.getByRole('button', { name: '去结算' }).getAttribute('aria-disabled')).not.toBe('true')
    expect(screen.getByRole('button', { name: '维生素C片增加一盒' }).getAttribute('aria-disabled')).toBe('true')
  })

  test('a product of the shop opens its 药品说明', async () => {
    testing.setRouter('/pages/shop/list/index')
    render(<ShopList />)
    await screen.findByText('维生素C片')
    fireEvent.click(screen.getByRole('button', { name: '维生素C片 药品说明' }))
    const sheet = await screen.findByRole('dialog', { name: '维生素C片 药品说明' })
    expect(await within(sheet).findByText('示范药业')).toBeTruthy()
    expect(within(sheet).getByText('非处方药')).toBeTruthy()
    fireEvent.click(within(sheet).getByRole('button', { name: '关闭' }))
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})

describe('确认订单', () => {
  test('the cart is delivered to a served address: the fee tip shows 2.5 s, masked; 提交订单 places once and opens the cashier', async () => {
    await addToCart('维生素C片', '维生素C片')
    testing.setRouter('/pages/storePayment/index')
    render(<StorePayment />)
    await waitFor(() => expect(toastTitles()).toContain(TIP))
    expect(calls.toasts.filter((t) => t.title === TIP)).toEqual([{ title: TIP, icon: 'none', duration: 2500, mask: true }])
    expect(await screen.findByText('广东省 深圳市 南山区 深南大道10000号')).toBeTruthy()
    // 2 × 8.90 + 15.00 delivery
    expect(total()).toBe('¥32.80')

    const submit = screen.getByRole('button', { name: '提交订单' })
    fireEvent.click(submit)
    fireEvent.click(submit)
    await waitFor(() => expect(pay).toHaveBeenCalledWith({ kind: 'redirect', channel: 'sandbox', url: '/sandbox/pay/cashier?orderNo=P202611270000061' }))
    expect(placed).toHaveLength(1)
    expect(placed[0]).toMatchObject({ source: 'shop', storeId: STORE_ID, delivery: 'express', addressId: SHENZHEN.id, lines: [{ drugId: VITAMIN_C.id, quantity: 2 }] })
    expect(String(placed[0]!.idempotencyKey)).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    // the ordered lines have left the cart
    expect(useCartStore.of(mockRoot).lines).toEqual([])
  })

  test('an address in a city the pharmacy does not serve is refused before anything is placed', async () => {
    addresses = [{ ...LHASA, isDefault: true }]
    await addToCart('维生素C片')
    testing.setRouter('/pages/storePayment/index')
    render(<StorePayment />)
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', '该地址不在配送范围：示范大药房暂不配送到拉萨市，请更换收货地址或选择到店自提')
    expect(toastTitles()).not.toContain(TIP)
    fireEvent.click(screen.getByRole('button', { name: '提交订单' }))
    await waitFor(() => expect(toastTitles()).toContain('该地址不在配送范围'))
    expect(placed).toEqual([])
  })

  test('配送范围 lists the provinces delivered to, each opening on its cities, with the fee rule; 关闭 closes it', async () => {
    await addToCart('维生素C片')
    testing.setRouter('/pages/storePayment/index')
    render(<StorePayment />)
    await waitFor(() => expect(toastTitles()).toContain(TIP))
    fireEvent.click(screen.getByRole('link', { name: '配送范围' }))
    const sheet = await screen.findByRole('dialog', { name: '配送范围' })
    expect(within(sheet).getByText(`运费规则：${TIP}`)).toBeTruthy()
    const guangdong = await within(sheet).findByRole('button', { name: '广东省' })
    expect(within(sheet).getByRole('button', { name: '浙江省' })).toBeTruthy()
    expect(guangdong.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(guangdong)
    expect(await within(sheet).findByText('深圳市、广州市')).toBeTruthy()
    expect(guangdong.getAttribute('aria-expanded')).toBe('true')
    fireEvent.click(within(sheet).getByRole('button', { name: '关闭' }))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  test('a line the store now has too little of is marked 仅剩 N and holds the order back', async () => {
    await addToCart('维生素C片', '维生素C片', '维生素C片')
    stockAt.set(VITAMIN_C.id, 1)
    testing.setRouter('/pages/storePayment/index')
    render(<StorePayment />)
    expect(await screen.findByText('库存不足，仅剩1盒')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: '提交订单' }))
    await waitFor(() => expect(toastTitles()).toContain('部分药品库存不足'))
    expect(placed).toEqual([])
  })

  test('到店自提 needs no address and shows the store; an rx product without a prescription gets the server’s own words', async () => {
    addresses = []
    await addToCart('阿莫西林胶囊')
    testing.setRouter('/pages/storePayment/index')
    render(<StorePayment />)
    await screen.findByText('阿莫西林胶囊')
    fireEvent.click(await screen.findByRole('tab', { name: '到店自提' }))
    expect(await screen.findByText('营业时间：08:00-22:00')).toBeTruthy()
    // an rx line is bought for a patient, chosen here
    expect(screen.getByText('购物车中有处方药，需为持有审核通过处方的就诊人购买')).toBeTruthy()
    fireEvent.click(await screen.findByRole('radio', { name: '张*' }))
    fireEvent.click(screen.getByRole('button', { name: '提交订单' }))
    await waitFor(() => expect(toastTitles()).toContain(NO_PRESCRIPTION))
    expect(placed[0]).toMatchObject({ source: 'shop', delivery: 'pickup', patientId: 1 })
    expect(placed[0]!.addressId).toBeUndefined()
  })

  test('a prescription shows its lines with the drug and diagnosis fees', async () => {
    testing.setRouter('/internet/sureOrder/index', { prescriptionId: String(PRESCRIPTION.id) })
    render(<SureOrder />)
    expect(await screen.findByText('诊断：急性上呼吸道感染')).toBeTruthy()
    expect(screen.getByText('阿莫西林胶囊')).toBeTruthy()
    await waitFor(() => expect(toastTitles()).toContain(TIP))
    const rows = (label: string) => screen.getByText(label).parentElement!
    expect(within(rows('药品费')).getByText('¥25.00')).toBeTruthy()
    expect(within(rows('诊查费')).getByText('¥10.00')).toBeTruthy()
    expect(within(rows('配送费')).getByText('¥15.00')).toBeTruthy()
    expect(total()).toBe('¥50.00')
  })
})

describe('药品订单详情', () => {
  const open = async (order: PharmacyOrder, params: Record<string, string> = {}) => {
    orders = [order]
    testing.setRouter('/pages/order/shop/detail', { id: String(order.id), ...params })
    render(<PharmacyOrderDetail />)
    await screen.findByText(order.orderCode)
  }
  /** The order's actions (the navigation bar's 返回首页 is no action of the order). */
  const buttons = () => screen.getAllByRole('button').map((b) => b.textContent).filter((t) => t !== '返回首页')

  test('shipped: carrier and tracking number, 申请退款 only', async () => {
    await open(orderOf(70, 'shipped'))
    expect(screen.getByText('SF1234567890')).toBeTruthy()
    expect(screen.getByText('顺丰速运')).toBeTruthy()
    expect(buttons()).toEqual(['申请退款'])
  })

  test('unpaid: the time left, 去支付 and 取消订单; cancelling asks first, back from the cashier it is checked again', async () => {
    await open(orderOf(71, 'unpaid'), { source: 'pay' })
    expect(calls.requests.some((r) => r.url.endsWith('/dld-rpflow/api/order/checkOrderAgain/71'))).toBe(true)
    expect(screen.getByText(/内完成支付/)).toBeTruthy()
    expect(buttons()).toEqual(['去支付', '取消订单'])
    fireEvent.click(screen.getByRole('button', { name: '取消订单' }))
    await waitFor(() => expect(toastTitles()).toContain('订单已取消'))
    expect(calls.modals).toEqual(['确定取消该订单吗？'])
    expect(await screen.findByText('已取消')).toBeTruthy()
    expect(screen.queryByRole('button', { name: '取消订单' })).toBeNull()
  })

  test('paid, not shipped: cancelling says the money goes back; a pickup order shows its QR code', async () => {
    await open(orderOf(72, 'paid', { delivery: 'pickup', address: null, expressFeeFen: 0 }))
    expect(await screen.findByText('862041')).toBeTruthy()
    expect(screen.getByAltText('取药二维码，取药码862041')).toBeTruthy()
    expect(buttons()).toEqual(['取消订单'])
    fireEvent.click(screen.getByRole('button', { name: '取消订单' }))
    await waitFor(() => expect(toastTitles()).toContain('已取消，退款将原路返回'))
    expect(calls.modals).toEqual(['确定取消该订单吗？取消后已支付的金额将原路退回。'])
    expect(await screen.findByText('已退款¥23.90，已原路返回')).toBeTruthy()
  })

  test('from a prescription: 查看处方 opens the prescription it was placed from', async () => {
    await open(orderOf(74, 'paid', { source: 'prescription', prescriptionId: 99 }))
    fireEvent.click(screen.getByRole('link', { name: '查看处方' }))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/internet/prescription/medicine?orderId=74' })
    // not completed: never bought again from here
    expect(buttons()).toEqual(['取消订单'])
  })

  test('completed from a renewable prescription: 再次购药 leads through the same checkout and places a repeat order', async () => {
    await open(orderOf(75, 'completed', { source: 'prescription', prescriptionId: RENEWABLE_ID }))
    fireEvent.click(await screen.findByRole('button', { name: '再次购药' }))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: `/internet/sureOrder/index?prescriptionId=${PRESCRIPTION.id}&repeat=1` })

    testing.setRouter('/internet/sureOrder/index', { prescriptionId: String(PRESCRIPTION.id), repeat: '1' })
    render(<SureOrder />)
    await waitFor(() => expect(toastTitles()).toContain(TIP))
    expect(await screen.findByText('再次购药按原处方配药，仅收取药品费和配送费')).toBeTruthy()
    expect(screen.queryByText('诊查费')).toBeNull()
    // 25.00 drugs + 15.00 delivery, no consultation fee again
    expect(total()).toBe('¥40.00')
    fireEvent.click(screen.getByRole('button', { name: '提交订单' }))
    await waitFor(() => expect(planned).toHaveLength(1))
    expect(planned[0]).toMatchObject({ prescriptionId: PRESCRIPTION.id, storeId: STORE_ID, delivery: 'express', addressId: SHENZHEN.id })
    expect(placed).toEqual([])
  })

  test('completed, but bought again since (a newer order holds the prescription): no second 再次购药 from the old one', async () => {
    const newer = orderOf(95, 'unpaid', { source: 'prescription', prescriptionId: RENEWABLE_ID })
    orders = [newer]
    const old = orderOf(77, 'completed', { source: 'prescription', prescriptionId: RENEWABLE_ID })
    testing.setRouter('/pages/order/shop/detail', { id: String(old.id) })
    orders.push(old)
    render(<PharmacyOrderDetail />)
    await screen.findByText(old.orderCode)
    await waitFor(() => expect(calls.requests.some((r) => r.url.endsWith('/dld-rpflow/api/order/web/prescription/77'))).toBe(true))
    expect(screen.getByRole('link', { name: '查看处方' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: '再次购药' })).toBeNull()
  })

  test('completed from a prescription written for one order only: no 再次购药', async () => {
    await open(orderOf(76, 'completed', { source: 'prescription', prescriptionId: 30 }))
    await waitFor(() => expect(calls.requests.some((r) => r.url.endsWith('/dld-rpflow/api/order/web/prescription/76'))).toBe(true))
    expect(screen.getByRole('link', { name: '查看处方' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: '再次购药' })).toBeNull()
  })

  test('a refund asked for: 撤销退款申请 only', async () => {
    await open(orderOf(73, 'refundRequested', { refundReason: '买错了' }))
    expect(screen.getByText('买错了')).toBeTruthy()
    expect(buttons()).toEqual(['撤销退款申请'])
  })
})
