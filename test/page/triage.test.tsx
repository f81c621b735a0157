import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import Taro, { calls, testing } from './doubles/taro'
import { RootStore } from '../../src/stores/RootStore'
import { TriageStore } from '../../src/stores/TriageStore'
import { LOCAL, SESSION, local, session } from '../../src/services/storage'
import Triage from '../../src/palm/ds'
import type { TriageAnswer } from '../../types/api/triage'
import { useTriageStore } from '../../src/stores/TriageStore'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10392'
const DISCLAIMER = 'AI导诊仅供参考，不能替代医生的诊断和治疗'
const PLACEHOLDER = '请描述您的症状，如：头痛两天，伴有发热'

// ---------- the fake server: the agent's answers by what the patient wrote ----------

const cardio: TriageAnswer = {
  reply: '根据您描述的“胸闷、心慌”，建议您就诊心血管内科。',
  emergency: false,
  departments: [
    {
      id: 11,
      deptName: '心血管内科',
      reason: '您提到“胸闷”“心慌”，该科诊治心慌、胸闷等心脏和血管问题',
      doctors: [
        { id: 101, doctorName: '李明', title: '主任医师', avatar: '/static/doctors/101.svg' },
        { id: 102, doctorName: '王芳', title: '副主任医师', avatar: '/static/doctors/102.svg' },
      ],
    },
    { id: 14, deptName: '神经内科', reason: '您提到“头晕”', doctors: [] },
  ],
  disclaimer: DISCLAIMER,
  source: 'offline',
}
const children: TriageAnswer = {
  reply: '建议您就诊儿内科。',
  emergency: false,
  departments: [{ id: 31, deptName: '儿内科', reason: '您提到“孩子”', doctors: [{ id: 301, doctorName: '赵丽华', title: '主治医师', avatar: '' }] }],
  disclaimer: DISCLAIMER,
  source: 'offline',
}
const emergency: TriageAnswer = {
  reply: '您描述的情况可能危及生命，请立即拨打120急救电话，或马上前往最近医院的急诊科就诊。',
  emergency: true,
  departments: [],
  disclaimer: DISCLAIMER,
  source: 'offline',
}
const refusal: TriageAnswer = {
  reply: '抱歉，我不能推荐药物或用药剂量。药物必须由医生面诊后开具处方，请不要自行用药。',
  emergency: false,
  departments: [],
  disclaimer: DISCLAIMER,
  source: 'offline',
}

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data } })
const refuse = (code: number, msg: string) => ({ statusCode: 200, data: { code, msg, data: null } })

/** The next triage call waits for the test to let it answer. */
let hold: Promise<void> | null = null
let refuseNext: string | null = null

function serve() {
  testing.answer((async ({ url, data }: { url: string; data: unknown }) => {
    const path = url.split('?')[0]
    const body = Object.fromEntries(new URLSearchParams(typeof data === 'string' ? data : ''))
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: 'wx10392demo00000', provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 1, hospitalCode: HOSPITAL, hospitalName: '示范市第一人民医院', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: '0_7', userSig: 's', expire: 1 })
    if (path === '/dld-palm/api/ai/triage') {
      if (hold) await hold
      if (refuseNext) {
        const msg = refuseNext
        refuseNext = null
        return refuse(400, msg)
      }
      const text = body.text ?? ''
      if (/药/.test(text)) return ok(refusal)
      if (/大汗|昏迷/.test(text)) return ok(emergency)
      if (/孩子/.test(text)) return ok(children)
      return ok(cardio)
    }
    return { statusCode: 404, data: '' }
  }) as unknown as Parameters<typeof testing.answer>[0])
}

const sent = () => calls.requests.filter((r) => r.url === '/dld-palm/api/ai/triage').map((r) => Object.fromEntries(new URLSearchParams(r.data as string)))
const sendButton = () => screen.getByText('发送') as HTMLButtonElement
const input = () => screen.getByPlaceholderText(PLACEHOLDER) as HTMLInputElement

async function open() {
  testing.setRouter('/palm/ds/index')
  render(<Triage />)
  await screen.findByText(/您好，我是智能导诊助手/)
}

async function say(text: string) {
  fireEvent.change(input(), { target: { value: text } })
  fireEvent.click(sendButton())
}

let makePhoneCall: jest.Mock

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10392demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  hold = null
  refuseNext = null
  makePhoneCall = jest.fn(async () => undefined)
  ;(Taro as unknown as { makePhoneCall: jest.Mock }).makePhoneCall = makePhoneCall
  serve()
})

describe('智能导诊 /palm/ds/index', () => {
  test('the disclaimer on top, a greeting with example complaints; 发送 works only with something typed', async () => {
    await open()
    expect(screen.getByRole('note').textContent).toBe(DISCLAIMER)
    for (const example of ['最近总是胸闷心慌', '孩子发烧咳嗽两天了', '肚子疼还拉肚子', '膝盖关节痛']) expect(screen.getByText(example)).toBeTruthy()
    expect(sendButton().disabled).toBe(true)
    fireEvent.change(input(), { target: { value: '   ' } })
    expect(sendButton().disabled).toBe(true)
    fireEvent.click(sendButton())
    expect(sent()).toEqual([])
    fireEvent.change(input(), { target: { value: '头晕' } })
    expect(sendButton().disabled).toBe(false)
  })

  test('sends what the patient typed and shows the answer: the reply, departments with why, their doctors, the disclaimer', async () => {
    await open()
    await say('  最近总是胸闷心慌 ')
    expect(sent()).toEqual([{ hospitalCode: HOSPITAL, text: '最近总是胸闷心慌' }])
    expect(Array.from(document.querySelectorAll('.triage__bubble--patient'), (b) => b.textContent)).toEqual(['最近总是胸闷心慌'])
    expect(input().value).toBe('')

    expect(await screen.findByText('根据您描述的“胸闷、心慌”，建议您就诊心血管内科。')).toBeTruthy()
    const card = screen.getByText('心血管内科').closest('.triage__dept') as HTMLElement
    expect(within(card).getByText('您提到“胸闷”“心慌”，该科诊治心慌、胸闷等心脏和血管问题')).toBeTruthy()
    expect(within(card).getByText('预约挂号')).toBeTruthy()
    const doctors = within(card).getByLabelText('心血管内科医生')
    expect(Array.from(doctors.querySelectorAll('.triage__doctor'), (d) => d.textContent)).toEqual(['李明主任医师', '王芳副主任医师'])
    expect(doctors.querySelector('img')!.getAttribute('src')).toBe('/static/doctors/101.svg')
    expect(screen.getByText('神经内科')).toBeTruthy()
    // on top, and with the answer
    expect(screen.getAllByText(DISCLAIMER)).toHaveLength(2)
    expect(document.querySelector('[role="alert"]')).toBeNull()
    expect(screen.queryByText('拨打120')).toBeNull()
  })

  test('a department opens its schedule (kept as the session’s department), a doctor the doctor page', async () => {
    await open()
    await say('胸闷心慌')
    const card = (await screen.findByText('心血管内科')).closest('.triage__dept') as HTMLElement
    fireEvent.click(within(card).getByText('心血管内科'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: `/palm/register/deptSchedule/index?deptId=11&deptName=${encodeURIComponent('心血管内科')}` }])
    expect(session.get(SESSION.dept)).toEqual({ id: 11, deptName: '心血管内科' })
    fireEvent.click(within(card).getByText('王芳'))
    expect(calls.navigations.pop()).toEqual({ kind: 'navigateTo', url: '/palm/doctor/index?id=102' })
  })

  test('an example complaint is sent with one tap, leaving the draft alone', async () => {
    await open()
    fireEvent.change(input(), { target: { value: '还没写完' } })
    fireEvent.click(screen.getByText('孩子发烧咳嗽两天了'))
    expect(sent()).toEqual([{ hospitalCode: HOSPITAL, text: '孩子发烧咳嗽两天了' }])
    expect(await screen.findByText('儿内科')).toBeTruthy()
    expect(input().value).toBe('还没写完')
  })

  test('while the agent thinks, a bubble says so and nothing more can be sent', async () => {
    let release = () => undefined as void
    hold = new Promise<void>((r) => (release = r))
    await open()
    await say('胸闷心慌')
    expect(await screen.findByRole('status')).toBeTruthy()
    expect(screen.getByText('正在为您分析，请稍候…')).toBeTruthy()
    fireEvent.change(input(), { target: { value: '还有头晕' } })
    expect(sendButton().disabled).toBe(true)
    fireEvent.click(sendButton())
    fireEvent.click(screen.getByText('膝盖关节痛'))
    expect(sent()).toHaveLength(1)
    hold = null
    await act(async () => release())
    expect(await screen.findByText('根据您描述的“胸闷、心慌”，建议您就诊心血管内科。')).toBeTruthy()
    expect(screen.queryByRole('status')).toBeNull()
    expect(sendButton().disabled).toBe(false)
  })

  test('an emergency is shown in red with 拨打120, which calls 120', async () => {
    await open()
    await say('胸痛，满头大汗')
    const alert = await screen.findByRole('alert')
    expect(alert.className).toContain('triage__bubble--emergency')
    expect(within(alert).getByText(/请立即拨打120急救电话/)).toBeTruthy()
    fireEvent.click(within(alert).getByText('拨打120'))
    expect(makePhoneCall).toHaveBeenCalledWith({ phoneNumber: '120' })
  })

  test('a question about medicines gets the refusal, with no department', async () => {
    await open()
    await say('吃什么药')
    expect(await screen.findByText(/药物必须由医生面诊后开具处方/)).toBeTruthy()
    expect(document.querySelector('.triage__dept')).toBeNull()
  })

  test('a refused message shows the server’s words through the request layer, and can be sent again', async () => {
    await open()
    refuseNext = '描述不能超过200个字'
    await say('胸闷心慌')
    expect(await screen.findByText('发送失败，点击重试')).toBeTruthy()
    expect(calls.toasts.map((t) => t.title)).toEqual(['描述不能超过200个字'])
    expect(useTriageStore.of(mockRoot).error).toBe('描述不能超过200个字')
    fireEvent.click(screen.getByText('发送失败，点击重试'))
    expect(await screen.findByText('根据您描述的“胸闷、心慌”，建议您就诊心血管内科。')).toBeTruthy()
    expect(screen.queryByText('发送失败，点击重试')).toBeNull()
    expect(sent()).toEqual([
      { hospitalCode: HOSPITAL, text: '胸闷心慌' },
      { hospitalCode: HOSPITAL, text: '胸闷心慌' },
    ])
  })
})

describe('TriageStore', () => {
  test('keeps the conversation while the hospital stays the same; another hospital starts afresh', async () => {
    let code = HOSPITAL
    const store = new TriageStore(() => code)
    store.open()
    await store.send('胸闷心慌')
    expect(store.messages.map((m) => m.from)).toEqual(['patient', 'agent'])
    store.open() // back from the department's schedule
    expect(store.messages).toHaveLength(2)
    code = '10388'
    store.open()
    expect(store.messages).toEqual([])
  })

  test('cuts a draft at 200 characters, an emoji counting one; sends nothing without a hospital', async () => {
    const store = new TriageStore(() => undefined)
    store.setDraft('😣'.repeat(250))
    expect(Array.from(store.draft)).toHaveLength(200)
    expect(store.canSend).toBe(false)
    await store.send()
    expect(store.messages).toEqual([])
    await waitFor(() => expect(sent()).toEqual([]))
  })
})
