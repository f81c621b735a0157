import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import platform from '../../src/platform/index.h5'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import { mapSensitive } from '../../src/utils/base64'
import SelfService from '../../src/palm/selfService'
import SelfServiceConfirm from '../../src/palm/selfService/confirm'
import type { Patient } from '../../types/api/patient'
import type { SelfServiceItem } from '../../types/api/selfService'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10392'

const patient: Patient = {
  id: 1,
  name: '张*',
  idCard: '110101********4514',
  mobile: '138****5678',
  sex: 1,
  sexText: '男',
  birthday: '1990-03-07',
  age: 36,
  relation: '本人',
  source: 'idCard',
  neonate: false,
  isDefault: true,
  hisMedCardNo: 'A100001',
  complete: true,
  missing: [],
}

const ITEMS: SelfServiceItem[] = [
  { code: 'JY0001', name: '血常规（五分类）', priceFen: 2100, notes: '无需空腹', audience: '', allowed: true, reason: null },
  { code: 'JY0007', name: '肝功能（11项）', priceFen: 9000, notes: '需空腹8小时以上，建议上午8:00-10:00抽血', audience: '', allowed: true, reason: null },
  { code: 'JY0034', name: '人绒毛膜促性腺激素（β-HCG）', priceFen: 4600, notes: '妊娠试验', audience: '仅限18至55岁女性', allowed: false, reason: '仅限女性' },
  { code: 'JY0024', name: '前列腺特异性抗原', priceFen: 5700, notes: '检查前48小时内避免剧烈运动', audience: '仅限45岁及以上男性', allowed: false, reason: '仅限45岁及以上' },
]

let refuseBill: string | null = null

const ok = (data: unknown) => ({
  statusCode: 200,
  data: { code: 200, msg: 'success', data: mapSensitive(data, (v) => Buffer.from(v, 'utf8').toString('base64')) },
})

function serve() {
  testing.answer(({ url, data }) => {
    const [path = ''] = url.split('?')
    const body = Object.fromEntries(new URLSearchParams(typeof data === 'string' ? data : ''))
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: 'wx10392demo00000', provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 1, hospitalCode: HOSPITAL, hospitalName: '示范市第一人民医院', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: 'x', userSig: 's', expire: 1 })
    if (path === '/dld-palm/api/patient/list') return ok([patient])
    if (path === '/dld-palm/api/diagnosis/dict') return ok(ITEMS)
    if (path === '/dld-palm/api/diagnosis/onLine/clinicalBill') {
      if (refuseBill) return { statusCode: 200, data: { code: 400, msg: refuseBill, data: null } }
      const codes = body.codes!.split(',')
      const chosen = ITEMS.filter((i) => codes.includes(i.code))
      return ok({ billNos: ['B20261123000001'], amountFen: chosen.reduce((s, i) => s + i.priceFen, 0), items: chosen.map((i) => ({ code: i.code, name: i.name, amountFen: i.priceFen })), place: '检验科采血处' })
    }
    if (path === '/dld-palm/api/payment/init') {
      return ok({
        record: { id: 78, orderNo: 'P202611230001', status: 'created' },
        action: { kind: 'redirect', channel: 'sandbox', url: '/sandbox/pay/cashier?orderNo=P202611230001' },
      })
    }
    return { statusCode: 404, data: '' }
  })
}

const sent = (path: string) => calls.requests.filter((r) => r.url.split('?')[0] === path)
const formOf = (r: { data: unknown }) => Object.fromEntries(new URLSearchParams(r.data as string))
const total = () => document.querySelector('.action-bar__amount')!.textContent

let pay: jest.SpyInstance

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10392demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  refuseBill = null
  pay = jest.spyOn(platform, 'pay').mockResolvedValue('paid')
  serve()
})
afterEach(() => pay.mockRestore())

async function chooseTwo() {
  testing.setRouter('/palm/selfService/index')
  const page = render(<SelfService />)
  const blood = await screen.findByRole('checkbox', { name: '血常规（五分类） ¥21.00' })
  fireEvent.click(blood)
  fireEvent.click(screen.getByRole('checkbox', { name: '肝功能（11项） ¥90.00' }))
  return { page, blood }
}

describe('自助开单 /palm/selfService/index', () => {
  test('tests as checkboxes with price and notes; one not for this patient is disabled with the reason; 合计 follows', async () => {
    const { blood } = await chooseTwo()
    expect(formOf(sent('/dld-palm/api/diagnosis/dict')[0]!)).toEqual({ hospitalCode: HOSPITAL, patientId: '1' })
    expect(blood.getAttribute('aria-checked')).toBe('true')
    expect(screen.getAllByText('需空腹8小时以上，建议上午8:00-10:00抽血').length).toBe(1)
    expect(total()).toBe('合计 ¥111.00')
    expect(screen.getByText('已选2项')).toBeTruthy()

    const hcg = screen.getByRole('checkbox', { name: '人绒毛膜促性腺激素（β-HCG） ¥46.00，不可选：仅限女性' })
    expect(hcg.getAttribute('aria-disabled')).toBe('true')
    expect(screen.getByText('不可选：仅限女性')).toBeTruthy()
    expect(screen.getByText('不可选：仅限45岁及以上')).toBeTruthy()
    fireEvent.click(hcg)
    expect(hcg.getAttribute('aria-checked')).toBe('false')
    expect(total()).toBe('合计 ¥111.00')

    fireEvent.click(blood)
    expect(total()).toBe('合计 ¥90.00')
    fireEvent.click(screen.getByText('下一步'))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/selfService/confirm/index' })
  })
})

describe('确认开单 /palm/selfService/confirm/index', () => {
  test('the chosen tests, the patient and the fasting notice; 确认并支付 makes the bill and pays it, landing on the record', async () => {
    const { page } = await chooseTwo()
    page.unmount()
    testing.setRouter('/palm/selfService/confirm/index')
    render(<SelfServiceConfirm />)
    expect(await screen.findByText('血常规（五分类）')).toBeTruthy()
    expect(screen.getByText('肝功能（11项）')).toBeTruthy()
    expect(screen.getByText('2项')).toBeTruthy()
    expect(screen.getByText('所选项目含需空腹检验的项目，请空腹8小时以上再来采血')).toBeTruthy()
    expect(total()).toBe('合计 ¥111.00')

    fireEvent.click(screen.getByText('确认并支付'))
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    const bill = formOf(sent('/dld-palm/api/diagnosis/onLine/clinicalBill')[0]!)
    expect(bill).toMatchObject({ hospitalCode: HOSPITAL, patientId: '1', codes: 'JY0001,JY0007' })
    expect(bill.idempotencyKey!.length).toBeGreaterThanOrEqual(16)
    expect(formOf(sent('/dld-palm/api/payment/init')[0]!)).toMatchObject({ hospitalCode: HOSPITAL, patientId: '1', billNos: 'B20261123000001', returnUrl: '/h5/pages/order/payment/detail?source=pay' })
    await waitFor(() => expect(calls.navigations.pop()).toEqual({ kind: 'redirectTo', url: '/pages/order/payment/detail?source=pay&id=78' }))
  })

  test('a refusal from the server is shown and nothing is paid; the next try is a new request', async () => {
    const { page } = await chooseTwo()
    page.unmount()
    refuseBill = '前列腺特异性抗原仅限男性，不能为该就诊人开单'
    render(<SelfServiceConfirm />)
    fireEvent.click(await screen.findByText('确认并支付'))
    await waitFor(() => expect(calls.toasts.some((t) => t.title === refuseBill)).toBe(true))
    expect(pay).not.toHaveBeenCalled()
    expect(sent('/dld-palm/api/payment/init')).toHaveLength(0)
    refuseBill = null
    fireEvent.click(screen.getByText('确认并支付'))
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1))
    const [first, second] = sent('/dld-palm/api/diagnosis/onLine/clinicalBill').map(formOf)
    expect(first!.idempotencyKey).not.toBe(second!.idempotencyKey)
  })

  test('nothing chosen: a way back to the list', async () => {
    render(<SelfServiceConfirm />)
    fireEvent.click(await screen.findByText('去选择'))
    expect(calls.navigations.pop()).toEqual({ kind: 'redirectTo', url: '/palm/selfService/index' })
  })
})
