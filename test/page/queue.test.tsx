import { render, screen, waitFor } from '@testing-library/react'
import { act } from 'react'
import { calls, testing, type SocketDouble } from './doubles/taro'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import { mapSensitive } from '../../src/utils/base64'
import CallRegister from '../../src/palm/callRegister'
import type { Patient } from '../../types/api/patient'
import type { TodayQueue, TodayTicket } from '../../types/api/queue'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10392'
const patient: Patient = {
  id: 1,
  name: '王小明',
  idCard: '110101********0011',
  mobile: '138****5678',
  sex: 1,
  sexText: '男',
  birthday: '1980-03-07',
  age: 46,
  relation: '本人',
  source: 'eHealth',
  neonate: false,
  isDefault: true,
  hisMedCardNo: 'A100002',
  complete: true,
  missing: [],
}

const ticket = (over: Partial<TodayTicket> = {}): TodayTicket => ({
  kind: 'pharmacy',
  place: '门诊西药房',
  window: '3号窗口',
  location: '门诊楼1楼东侧',
  ticketNo: 'Y012',
  ahead: 6,
  status: 'waiting',
  statusText: '候诊中',
  guide: '请到门诊楼1楼东侧门诊西药房3号窗口取药',
  billNos: ['B1'],
  patientId: 1,
  patientName: '王*明',
  orderNo: 'P202611230000000001',
  ...over,
})

let tickets: TodayTicket[]
const ok = (data: unknown) => ({
  statusCode: 200,
  data: { code: 200, msg: 'success', data: mapSensitive(data, (v) => Buffer.from(v, 'utf8').toString('base64')) },
})
function serve() {
  testing.answer(({ url }) => {
    const [path = ''] = url.split('?')
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '王五', wechatAvatar: '', mobile: '138****5678', roles: [], appId: 'wx10392demo00000', provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 1, hospitalCode: HOSPITAL, hospitalName: '示范市第一人民医院', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: '0_7', userSig: 'sig', expire: 1 })
    if (path === '/dld-palm/api/patient/list') return ok([patient])
    if (path === '/dld-palm/api/queue/today') return ok({ hospitalCode: HOSPITAL, tickets } satisfies TodayQueue)
    return { statusCode: 404, data: '' }
  })
}

/** The page's own socket: the one that subscribes to the queue once open. */
async function queueSocket(): Promise<SocketDouble & { subscription: Record<string, unknown> }> {
  let found: (SocketDouble & { subscription: Record<string, unknown> }) | undefined
  await waitFor(() => {
    for (const s of testing.sockets()) if (!s.sent.length && !s.closed) act(() => s.open())
    const s = testing.sockets().find((x) => x.sent.some((f) => f.op === 'queue'))
    expect(s).toBeTruthy()
    found = Object.assign(s!, { subscription: s!.sent.find((f) => f.op === 'queue')! })
  })
  return found!
}

/** The page's own notice (the app shell has a live region of its own). */
const notice = () => screen.getAllByRole('status').find((el) => el.classList.contains('call-register__notice'))!

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10392demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  tickets = [ticket()]
  serve()
  testing.setRouter('/palm/callRegister/index')
})

describe('排队叫号 /palm/callRegister/index', () => {
  test('the number large, how many are ahead, and it moves when a call is pushed (no polling)', async () => {
    render(<CallRegister />)
    expect(await screen.findByText('Y012')).toBeTruthy()
    expect(screen.getByText('排队号')).toBeTruthy()
    expect(screen.getByText('门诊西药房 3号窗口')).toBeTruthy()
    expect(screen.getByText('前面还有6人')).toBeTruthy()
    expect(screen.getByText('排队中')).toBeTruthy()
    expect(notice().textContent).toBe('')
    const sent = calls.requests.filter((r) => r.url.startsWith('/dld-palm/api/queue/today'))
    expect(sent).toHaveLength(1)
    expect(sent[0]!.data).toEqual({ hospitalCode: HOSPITAL, patientId: 1 })

    const socket = await queueSocket()
    expect(socket.subscription).toMatchObject({ op: 'queue', hospitalCode: HOSPITAL, patientId: 1 })
    act(() => socket.receive({ op: 'reply', id: socket.subscription.id, ok: true, data: { hospitalCode: HOSPITAL, tickets } }))
    expect(await screen.findByText('叫号后本页会自动更新')).toBeTruthy()

    // a window called: three ahead now, told in words (role=status) and by a buzz
    act(() => socket.receive({ op: 'queueChanged', hospitalCode: HOSPITAL, tickets: [ticket({ ahead: 3 })] }))
    expect(await screen.findByText('前面还有3人')).toBeTruthy()
    expect(notice().textContent).toBe('Y012号前面还有3人，请到门诊西药房3号窗口附近等候')
    expect(calls.vibrations).toBe(1)
    // closer still: no second buzz for the same turn
    act(() => socket.receive({ op: 'queueChanged', hospitalCode: HOSPITAL, tickets: [ticket({ ahead: 2 })] }))
    expect(await screen.findByText('前面还有2人')).toBeTruthy()

    // called: 已叫号 with where to go
    act(() => socket.receive({ op: 'queueChanged', hospitalCode: HOSPITAL, tickets: [ticket({ ahead: 0, status: 'called', statusText: '请到窗口' })] }))
    expect(await screen.findByText('已叫号')).toBeTruthy()
    expect(screen.queryByText(/前面还有/)).toBeNull()
    expect(notice().textContent).toBe('Y012号已叫号，请到门诊楼1楼东侧门诊西药房3号窗口取药')
    expect(calls.vibrations).toBeGreaterThanOrEqual(2)
    // pushes only: the list was read once
    expect(calls.requests.filter((r) => r.url.startsWith('/dld-palm/api/queue/today'))).toHaveLength(1)
  })

  test('hidden: the socket is closed; shown again: read and subscribed again', async () => {
    render(<CallRegister />)
    expect(await screen.findByText('Y012')).toBeTruthy()
    const socket = await queueSocket()
    act(() => testing.hidePage())
    expect(socket.closed).toBe(true)
    tickets = [ticket({ ahead: 1 })]
    act(() => testing.showPage())
    expect(await screen.findByText('前面还有1人')).toBeTruthy()
    await waitFor(() => expect(testing.sockets().filter((s) => !s.closed && s !== socket).length).toBeGreaterThan(0))
  })

  test('nothing today: 今日暂无排队', async () => {
    tickets = []
    render(<CallRegister />)
    expect(await screen.findByText('今日暂无排队')).toBeTruthy()
  })
})
