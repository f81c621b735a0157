import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import Taro, { calls, testing } from './doubles/taro'
import { RootStore } from '../../src/stores/RootStore'
import { PatientStore } from '../../src/stores/PatientStore'
import { LOCAL, SESSION, local, session } from '../../src/services/storage'
import { mapSensitive } from '../../src/utils/base64'
import { parseIdCard } from '../../src/utils/idCard'
import { maskIdCard, maskMobile, maskName } from '../../src/utils/mask'
import { usePatientCompletion } from '../../src/components/PatientCompletion'
import PatientPage from '../../src/pages/patient'
import AddPatient from '../../src/pages/addPatient'
import Escorts from '../../src/palm/hospitalization/escort'
import type { Accompany, Patient } from '../../types/api/patient'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10392'

/** A bound patient as the server keeps it: whole values; ids grow with the bind time (oldest first). */
interface Person {
  id: number
  name: string
  idCard: string
  mobile: string
  relation: string
  isDefault: boolean
  cardNo: string
}

let people: Person[] = []
let escorts: Accompany[] = []

const person = (id: number, name: string, idCard: string, mobile: string, isDefault = false): Person => ({
  id,
  name,
  idCard,
  mobile,
  relation: id === 1 ? '本人' : '子女',
  isDefault,
  cardNo: `A${100000 + id}`,
})
const zhang = () => person(1, '张三', '110101199003074514', '13812345678')
const ouyang = () => person(2, '欧阳娜娜', '310104198506120027', '13987654321', true)
const wang = () => person(3, '王芳', '110101196208151241', '')

/** What the list and default calls answer: masked (spec §9), with completeness, as server/src/domain/patient.ts does. */
function toDto(p: Person, hospitalCode?: string): Patient {
  const info = parseIdCard(p.idCard)!
  const missing = p.mobile ? [] : (['mobile'] as const)
  return {
    id: p.id,
    name: maskName(p.name),
    idCard: maskIdCard(p.idCard),
    mobile: maskMobile(p.mobile),
    sex: info.sex,
    sexText: info.sexText,
    birthday: info.birthday,
    age: info.age,
    relation: p.relation,
    source: 'idCard',
    neonate: false,
    isDefault: p.isDefault,
    hisMedCardNo: hospitalCode ? p.cardNo : '',
    complete: missing.length === 0,
    missing: [...missing],
  }
}

/** The server's envelope, with the sensitive fields base64-encoded on the way out (server/src/sensitive.ts). */
const ok = (data: unknown) => ({
  statusCode: 200,
  data: { code: 200, msg: 'success', data: mapSensitive(data, (s) => Buffer.from(s, 'utf8').toString('base64')) },
})
const refuse = (code: number, msg: string) => ({ statusCode: 200, data: { code, msg, data: null } })
const fromBase64 = (s: string) => Buffer.from(s, 'base64').toString('utf8')

/** The account's mobile, which the server knows whole and the app as 138****5678. */
const ACCOUNT_MOBILE = '13812345678'

/** The real server's answers for startup and the patient and escort calls, over `people` and `escorts`. */
function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = '', search = ''] = url.split('?')
    const query = { ...Object.fromEntries(new URLSearchParams(search)), ...(method === 'GET' ? ((data ?? {}) as Record<string, string>) : {}) }
    const body = Object.fromEntries(new URLSearchParams(typeof data === 'string' ? data : ''))
    const id = Number(path.split('/').pop())
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: query.appId, provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 1, hospitalCode: HOSPITAL, hospitalName: '示范医院', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: query.imAccount, userSig: 's', expire: 1 })
    if (path === '/dld-palm/admin/system/dict') return ok(['本人', '父母', '配偶', '子女', '其他'].map((label, i) => ({ label, value: label, sort: i })))
    if (path === '/dld-palm/api/patient/list') {
      const sorted = [...people].sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.id - b.id)
      return ok(sorted.map((p) => toDto(p, query.hospitalCode)))
    }
    if (path === '/dld-palm/api/patient/bind') {
      // the account's own mobile was verified when the account was bound: no second code
      if (body.mobile !== ACCOUNT_MOBILE && !body.code) return refuse(400, '请输入验证码')
      if (body.mobile !== ACCOUNT_MOBILE && body.code !== '123456') return refuse(400, '验证码错误')
      const added = { ...person(people.length + 1, body.name!, fromBase64(body.idCard!), body.mobile!), relation: body.relation! }
      people.push(added)
      return ok(toDto(added))
    }
    const target = people.find((p) => p.id === id)
    if (path.startsWith('/dld-palm/api/patient/') && !target) return refuse(2999, '暂无权限')
    if (path.startsWith('/dld-palm/api/patient/default/')) {
      people.forEach((p) => (p.isDefault = p.id === id))
      return ok(toDto(target!, query.hospitalCode))
    }
    if (path.startsWith('/dld-palm/api/patient/unbind/')) {
      people = people.filter((p) => p.id !== id)
      escorts = escorts.filter((e) => e.patientId !== id)
      const next = target!.isDefault ? ([...people].sort((a, b) => a.id - b.id)[0] ?? null) : null
      if (next) next.isDefault = true
      return ok({ defaultPatientId: next?.id ?? null })
    }
    if (path.startsWith('/dld-palm/api/accompany/list/'))
      return ok(escorts.filter((e) => e.patientId === id).map((e) => ({ ...e, name: maskName(e.name), idCard: maskIdCard(e.idCard), mobile: maskMobile(e.mobile) })))
    return { statusCode: 404, data: '' }
  })
}

const sent = (fragment: string) => calls.requests.filter((r) => r.url.includes(fragment))
const cardOf = (name: string) => screen.getByText(name).closest('.patient-card') as HTMLElement

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10392demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  people = [zhang(), ouyang(), wang()]
  escorts = []
  serve()
})

describe('PatientStore (spec §3 Patient)', () => {
  test('load reads the list the server answers: default first, identity numbers decoded from base64 and still masked', async () => {
    const store = new PatientStore(() => HOSPITAL)
    await store.load()
    expect(sent('/patient/list')[0]!.data).toEqual({ hospitalCode: HOSPITAL })
    expect(store.list.map((p) => [p.name, p.idCard, p.isDefault])).toEqual([
      ['欧**娜', '310104********0027', true],
      ['张*', '110101********4514', false],
      ['王*', '110101********1241', false],
    ])
    expect(store.list[0]!.hisMedCardNo).toBe('A100002')
    expect(store.defaultPatient?.id).toBe(2)
    expect(store.loaded).toBe(true)
  })

  test('setDefault leaves exactly one default, and the server agrees', async () => {
    const store = new PatientStore()
    await store.load()
    await store.setDefault(3)
    expect(sent('/patient/default/')[0]!.url).toBe('/dld-palm/api/patient/default/3')
    expect(store.list.filter((p) => p.isDefault).map((p) => p.id)).toEqual([3])
    expect(people.filter((p) => p.isDefault).map((p) => p.id)).toEqual([3])
  })

  test('unbinding the default moves the default to the patient the server names, not the first one left in the list', async () => {
    const store = new PatientStore()
    await store.load() // 欧阳娜娜 (2), 张三 (1), 王芳 (3)
    await store.setDefault(3)
    await expect(store.unbind(3)).resolves.toBe(1) // the server picks the oldest patient left
    expect(store.list.map((p) => [p.id, p.isDefault])).toEqual([
      [2, false],
      [1, true],
    ])
    await store.load()
    expect(store.defaultPatient?.id).toBe(1)
  })

  test('the chosen patient is current for this session; once unbound, current falls back to the default', async () => {
    const store = new PatientStore()
    await store.load()
    store.choose(store.byId(3)!)
    expect(store.current?.id).toBe(3)
    expect(new PatientStore().current?.id).toBe(3) // kept under the session key 'patient' (spec §3)
    await store.unbind(3)
    expect(store.current?.id).toBe(2)
    expect(session.get(SESSION.patient)).toBeUndefined()

    store.choose(store.byId(1)!)
    people = people.filter((p) => p.id !== 1) // unbound on another device
    await store.load()
    expect(store.current?.id).toBe(2)
  })
})

/** A flow that needs a complete patient, e.g. registration (spec §5). */
function Registration({ patient, go }: { patient: Pick<Patient, 'id' | 'complete'>; go: () => void }) {
  const { requireComplete, modal } = usePatientCompletion()
  return (
    <>
      <button type='button' onClick={() => requireComplete(patient, go)}>
        预约挂号
      </button>
      {modal}
    </>
  )
}

describe('the incomplete-patient modal (spec §5)', () => {
  test('an incomplete patient stops the flow with the spec’s text and one button that opens the completion page', () => {
    const go = jest.fn()
    render(<Registration patient={{ id: 3, complete: false }} go={go} />)
    fireEvent.click(screen.getByText('预约挂号'))
    const dialog = screen.getByRole('dialog')
    expect(within(dialog).getByText('当前就诊人信息不完整，请先完善就诊人信息。')).toBeTruthy()
    expect(within(dialog).getAllByRole('button').map((b) => b.textContent)).toEqual(['完善就诊人信息'])
    fireEvent.click(within(dialog).getByText('完善就诊人信息'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/pages/addPatient/index?id=3&business=edit' }])
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(go).not.toHaveBeenCalled()
  })

  test('a complete patient goes on with no modal', () => {
    const go = jest.fn()
    render(<Registration patient={{ id: 1, complete: true }} go={go} />)
    fireEvent.click(screen.getByText('预约挂号'))
    expect(go).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(calls.navigations).toEqual([])
  })
})

async function openPatientList() {
  testing.setRouter('/pages/patient/index')
  render(<PatientPage />)
  await screen.findByText('欧**娜')
}

describe('就诊人管理 /pages/patient/index', () => {
  test('names, identity numbers and mobiles are masked (spec §9); the default one carries the badge', async () => {
    await openPatientList()
    expect(screen.getByText('就诊人管理')).toBeTruthy()
    const cards = document.querySelectorAll('.patient-card')
    expect(Array.from(cards, (c) => c.querySelector('.patient-card__name')!.textContent)).toEqual(['欧**娜', '张*', '王*'])
    expect(within(cardOf('张*')).getByText('证件号码：110101********4514')).toBeTruthy()
    expect(within(cardOf('张*')).getByText('手机号码：138****5678')).toBeTruthy()
    expect(within(cardOf('王*')).getByText('手机号码：未填写')).toBeTruthy()
    expect(within(cardOf('王*')).getByText('待完善')).toBeTruthy()
    const text = document.body.textContent!
    for (const whole of ['张三', '欧阳娜娜', '110101199003074514', '13812345678']) expect(text).not.toContain(whole)
    // the hospital card number too: only the electronic health card shows it whole
    expect(within(cardOf('张*')).getByText(/^就诊卡号：A\*+\d{2}$/)).toBeTruthy()
    for (const p of people) expect(text).not.toContain(p.cardNo)
    expect(within(cardOf('欧**娜')).getByText('默认')).toBeTruthy()
    expect(screen.getAllByText('默认')).toHaveLength(1)
    expect(within(cardOf('欧**娜')).queryByText('设为默认')).toBeNull()
  })

  test('设为默认 moves the badge to that patient', async () => {
    await openPatientList()
    fireEvent.click(within(cardOf('张*')).getByText('设为默认'))
    await waitFor(() => expect(within(cardOf('张*')).queryByText('默认')).toBeTruthy())
    expect(screen.getAllByText('默认')).toHaveLength(1)
    expect(calls.toasts.map((t) => t.title)).toEqual(['已设为默认就诊人'])
    expect(sent('/patient/default/1')).toHaveLength(1)
  })

  test('解除绑定 asks first: cancelling keeps the patient, confirming removes it and the default moves on', async () => {
    const modal = jest.spyOn(Taro, 'showModal').mockResolvedValueOnce({ confirm: false, cancel: true })
    await openPatientList()
    fireEvent.click(within(cardOf('欧**娜')).getByText('解除绑定'))
    await waitFor(() => expect(modal).toHaveBeenCalledTimes(1))
    expect(modal).toHaveBeenCalledWith(expect.objectContaining({ title: '提示', content: '确定解除绑定就诊人欧**娜吗？解除后其陪护人也将一并解除。' }))
    expect(sent('/patient/unbind/')).toHaveLength(0)

    fireEvent.click(within(cardOf('欧**娜')).getByText('解除绑定'))
    await waitFor(() => expect(screen.queryByText('欧**娜')).toBeNull())
    expect(sent('/patient/unbind/2')).toHaveLength(1)
    expect(calls.toasts.map((t) => t.title)).toEqual(['已解除绑定'])
    expect(within(cardOf('张*')).getByText('默认')).toBeTruthy()
    modal.mockRestore()
  })

  test('陪护人 of an incomplete patient shows the completion modal; of a complete one it opens the escort page', async () => {
    await openPatientList()
    fireEvent.click(within(cardOf('王*')).getByText('陪护人'))
    expect(within(screen.getByRole('dialog')).getByText('当前就诊人信息不完整，请先完善就诊人信息。')).toBeTruthy()
    fireEvent.click(screen.getByText('完善就诊人信息'))
    fireEvent.click(within(cardOf('张*')).getByText('陪护人'))
    // 10392 has its own completion page (spec §2 customer-specific pages)
    expect(calls.navigations).toEqual([
      { kind: 'navigateTo', url: '/custom/10392/addPatient/index?id=3&business=edit' },
      { kind: 'navigateTo', url: '/palm/hospitalization/escort/index?patientId=1' },
    ])
  })
})

/** The add-patient page on its 身份证 form, with the other fields filled as a patient would. */
async function openAddPatient(idCard: string) {
  people = []
  testing.setRouter('/pages/addPatient/index')
  render(<AddPatient />)
  fireEvent.change(await screen.findByPlaceholderText('请输入就诊人姓名'), { target: { value: '赵六' } })
  fireEvent.change(screen.getByPlaceholderText('请输入身份证号'), { target: { value: idCard } })
  fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: '13700001111' } })
  fireEvent.change(screen.getByPlaceholderText('请输入验证码'), { target: { value: '123456' } })
}
const row = (label: string) => screen.getByText(label).closest('.form-field') as HTMLElement

describe('添加就诊人 /pages/addPatient/index, 身份证', () => {
  test('an 18-digit number fills sex and birth date, which follow the number and cannot be edited', async () => {
    await openAddPatient('110101199003074514')
    expect(within(row('性别')).getByText('男')).toBeTruthy()
    expect(within(row('出生日期')).getByText('1990-03-07')).toBeTruthy()
    for (const label of ['性别', '出生日期']) {
      expect(row(label).querySelector('input')).toBeNull()
      expect(within(row(label)).queryByRole('radio')).toBeNull()
    }
    fireEvent.change(screen.getByPlaceholderText('请输入身份证号'), { target: { value: '310104198506120027' } })
    expect(within(row('性别')).getByText('女')).toBeTruthy()
    expect(within(row('出生日期')).getByText('1985-06-12')).toBeTruthy()
  })

  test('a valid number binds the patient, the number sent base64-encoded', async () => {
    await openAddPatient('310104198506120027')
    fireEvent.click(screen.getByText('确认添加'))
    await waitFor(() => expect(calls.navigations).toEqual([{ kind: 'redirectTo', url: '/pages/patient/index' }]))
    const body = new URLSearchParams(sent('/patient/bind')[0]!.data as string)
    expect(fromBase64(body.get('idCard')!)).toBe('310104198506120027')
    expect([body.get('name'), body.get('relation'), body.get('isDefault')]).toEqual(['赵六', '本人', 'true'])
    expect(calls.toasts.map((t) => t.title)).toEqual(['添加成功'])
  })

  test("the account's own mobile needs no second code: the code row says so and none is sent", async () => {
    await openAddPatient('310104198506120027')
    fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: ACCOUNT_MOBILE } })
    expect(screen.queryByPlaceholderText('请输入验证码')).toBeNull()
    expect(within(row('验证码')).getByText('账号手机号已验证，无需验证码')).toBeTruthy()
    fireEvent.click(screen.getByText('确认添加'))
    await waitFor(() => expect(calls.navigations).toEqual([{ kind: 'redirectTo', url: '/pages/patient/index' }]))
    const body = new URLSearchParams(sent('/patient/bind')[0]!.data as string)
    expect([body.get('mobile'), body.get('code')]).toEqual([ACCOUNT_MOBILE, null])
  })

  test('another number that only looks like it (same mask) gets the code row back when the server asks for a code', async () => {
    await openAddPatient('310104198506120027')
    fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: '13800005678' } })
    expect(screen.queryByPlaceholderText('请输入验证码')).toBeNull()
    fireEvent.click(screen.getByText('确认添加'))
    await waitFor(() => expect(calls.toasts.map((t) => t.title)).toEqual(['请输入验证码']))
    fireEvent.change(await screen.findByPlaceholderText('请输入验证码'), { target: { value: '123456' } })
    fireEvent.click(screen.getByText('确认添加'))
    await waitFor(() => expect(calls.navigations).toEqual([{ kind: 'redirectTo', url: '/pages/patient/index' }]))
    expect(sent('/patient/bind').map((r) => new URLSearchParams(r.data as string).get('code'))).toEqual([null, '123456'])
  })

  test('a wrong check digit shows an error and sends nothing', async () => {
    await openAddPatient('110101199003074515')
    fireEvent.click(screen.getByText('确认添加'))
    expect(calls.toasts.map((t) => t.title)).toEqual(['身份证号码不正确'])
    expect(sent('/patient/bind')).toHaveLength(0)
    expect(calls.navigations).toEqual([])
  })
})

const escort = (id: number, name: string, idCard: string, mobile: string): Accompany => ({
  id,
  patientId: 1,
  name,
  idCard,
  mobile,
  relation: '配偶',
  createdAt: '2024-05-01T08:00:00.000Z',
})

describe('陪护人 /palm/hospitalization/escort/index', () => {
  test('escorts are masked, and a patient with two cannot add a third', async () => {
    escorts = [escort(11, '李雷', '110101199003074514', '13612345678'), escort(12, '韩梅梅', '310104198506120027', '13512345678')]
    testing.setRouter('/palm/hospitalization/escort/index', { patientId: '1' })
    render(<Escorts />)
    await screen.findByText('李*')
    expect(screen.getByText('韩*梅')).toBeTruthy()
    expect(screen.getByText('证件号码：110101********4514')).toBeTruthy()
    expect(screen.getByText('手机号码：135****5678')).toBeTruthy()
    expect(document.body.textContent).not.toContain('13612345678')
    const add = screen.getByText('添加陪护人') as HTMLButtonElement
    expect(add.disabled).toBe(true)
    fireEvent.click(add)
    expect(calls.navigations).toEqual([])
    expect(screen.getByText('每位就诊人最多添加2位陪护人')).toBeTruthy()
  })

  test("an address without one of the account's patients says so and asks the server nothing about escorts", async () => {
    for (const params of [{}, { patientId: 'abc' }, { patientId: '999' }] as Record<string, string>[]) {
      calls.requests.length = 0
      testing.setRouter('/palm/hospitalization/escort/index', params)
      const { unmount } = render(<Escorts />)
      expect(await screen.findByText('未找到该就诊人，请从就诊人管理进入')).toBeTruthy()
      expect(sent('/accompany/')).toEqual([])
      expect(calls.toasts.map((t) => t.title).filter((t) => t.includes('参数错误'))).toEqual([])
      fireEvent.click(screen.getByText('就诊人管理'))
      expect(calls.navigations.at(-1)).toEqual({ kind: 'redirectTo', url: '/pages/patient/index' })
      unmount()
    }
  })

  test('with one escort the patient can add another', async () => {
    escorts = [escort(11, '李雷', '110101199003074514', '13612345678')]
    testing.setRouter('/palm/hospitalization/escort/index', { patientId: '1' })
    render(<Escorts />)
    await screen.findByText('李*')
    fireEvent.click(screen.getByText('添加陪护人'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/palm/hospitalization/escort/addEscort?patientId=1' }])
  })
})
