import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import SurveyList from '../../src/pages/survey/list'
import SurveyPage from '../../src/pages/survey/index'
import SurveyResultPage from '../../src/pages/survey/result'
import type { Survey, SurveyAnswerItem, SurveyQuestion } from '../../types/api/survey'

let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const HOSPITAL = '10392'
const ALREADY_ANSWERED = '您已参与过该调查，每人只能提交一次'
const opts = (...texts: string[]) => texts.map((text, i) => ({ id: String.fromCharCode(97 + i), text }))
const QUESTIONS: SurveyQuestion[] = [
  { id: 'q1', kind: 'single', title: '您本次就诊的方式是？', required: true, options: opts('线上预约挂号', '现场挂号'), maxLength: 0 },
  { id: 'q2', kind: 'rating', title: '您对医生的诊疗服务是否满意？', required: true, options: [], maxLength: 0 },
  { id: 'q3', kind: 'multiple', title: '您认为本院哪些方面需要改进？', required: false, options: opts('候诊时间', '就医环境', '停车便利'), maxLength: 0 },
  { id: 'q4', kind: 'text', title: '您对本院还有哪些意见或建议？', required: false, options: [], maxLength: 20 },
]
const surveyOf = (id: number, answered: boolean): Survey => ({
  id,
  hospitalCode: HOSPITAL,
  hospitalName: '示范医院',
  title: id === 1 ? '门诊就诊满意度调查' : '住院满意度调查',
  intro: '请花2分钟完成以下问卷',
  questionCount: QUESTIONS.length,
  answered,
  questions: QUESTIONS,
})

/** What the fake server stored, by survey. */
let stored: Map<number, SurveyAnswerItem[]>

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data } })
const refuse = (code: number, msg: string) => ({ statusCode: 200, data: { code, msg, data: null } })

function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = ''] = url.split('?')
    const query = (method === 'GET' ? data ?? {} : {}) as Record<string, string>
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: query.appId, provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 3, hospitalCode: HOSPITAL, hospitalName: '示范医院', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: query.imAccount, userSig: 's', expire: 1 })
    if (path === '/dld-hospital/survey/list') {
      return ok([1, 2].map((id) => {
        const { questions: _q, hospitalName: _h, ...summary } = surveyOf(id, stored.has(id))
        return summary
      }))
    }
    const one = /^\/dld-hospital\/survey\/(\d+)$/.exec(path)
    if (one) return ok(surveyOf(Number(one[1]), stored.has(Number(one[1]))))
    const result = /^\/dld-hospital\/survey\/result\/(\d+)$/.exec(path)
    if (result) {
      const answers = stored.get(Number(result[1]))
      return answers ? ok({ survey: surveyOf(Number(result[1]), true), answers, answeredAt: '2026-11-23T02:00:00.000Z' }) : refuse(2999, '暂无权限')
    }
    if (path === '/dld-hospital/survey' && method === 'POST') {
      const body = data as { surveyId: number; answers: SurveyAnswerItem[] }
      if (stored.has(body.surveyId)) return refuse(400, ALREADY_ANSWERED)
      stored.set(body.surveyId, body.answers)
      return ok({ survey: surveyOf(body.surveyId, true), answers: body.answers, answeredAt: '2026-11-23T02:00:00.000Z' })
    }
    return { statusCode: 404, data: '' }
  })
}

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10392demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  stored = new Map([[2, [{ questionId: 'q1', options: ['b'] }]]])
  serve()
})

const posts = () => calls.requests.filter((r) => r.url.split('?')[0] === '/dld-hospital/survey' && r.method === 'POST')

describe('满意度调查 /pages/survey/list', () => {
  test('lists the hospital’s surveys; one answered says 已参与 and opens the answer', async () => {
    testing.setRouter('/pages/survey/list', {})
    render(<SurveyList />)
    await screen.findByText('门诊就诊满意度调查')
    expect(screen.getByText('去参与 ›')).toBeTruthy()
    expect(screen.getByText('已参与')).toBeTruthy()
    fireEvent.click(screen.getByText('住院满意度调查'))
    expect(calls.navigations.at(-1)?.url).toBe('/pages/survey/result?id=2')
    fireEvent.click(screen.getByText('门诊就诊满意度调查'))
    expect(calls.navigations.at(-1)?.url).toBe('/pages/survey/index?id=1')
  })
})

describe('满意度调查 /pages/survey/index', () => {
  const open = async (id = 1) => {
    testing.setRouter('/pages/survey/index', { id: String(id) })
    render(<SurveyPage />)
  }

  test('names the required questions still open in words and sends nothing', async () => {
    await open()
    await screen.findByText('第1题 您本次就诊的方式是？')
    fireEvent.click(screen.getByText('提交'))
    expect(await screen.findByText('请回答必答题：第1题「您本次就诊的方式是？」、第2题「您对医生的诊疗服务是否满意？」')).toBeTruthy()
    expect(posts()).toHaveLength(0)
  })

  test('radios, checkboxes, five named stars with aria-checked and words with a count; 提交 stores it and opens the result', async () => {
    await open()
    await screen.findByText('第1题 您本次就诊的方式是？')
    const radio = screen.getByRole('radio', { name: '现场挂号' })
    fireEvent.click(screen.getByRole('radio', { name: '线上预约挂号' }))
    fireEvent.click(radio)
    expect(radio.getAttribute('aria-checked')).toBe('true')
    expect(screen.getByRole('radio', { name: '线上预约挂号' }).getAttribute('aria-checked')).toBe('false')

    const stars = [1, 2, 3, 4, 5].map((n) => screen.getByRole('radio', { name: new RegExp(`^${n}星 `) }))
    expect(stars.map((s) => s.getAttribute('aria-label'))).toEqual(['1星 非常不满意', '2星 不满意', '3星 一般', '4星 满意', '5星 非常满意'])
    fireEvent.click(stars[3]!)
    expect(stars.map((s) => s.getAttribute('aria-checked'))).toEqual(['false', 'false', 'false', 'true', 'false'])

    fireEvent.click(screen.getByRole('checkbox', { name: '停车便利' }))
    fireEvent.click(screen.getByRole('checkbox', { name: '候诊时间' }))
    expect(screen.getByRole('checkbox', { name: '候诊时间' }).getAttribute('aria-checked')).toBe('true')

    const box = screen.getByLabelText('第4题 您对本院还有哪些意见或建议？')
    fireEvent.input(box, { target: { value: '希望增加停车位' }, detail: { value: '希望增加停车位' } })
    await screen.findByText('7/20')

    fireEvent.click(screen.getByText('提交'))
    await waitFor(() => expect(posts()).toHaveLength(1))
    expect(posts()[0]!.data).toEqual({
      surveyId: 1,
      answers: [
        { questionId: 'q1', options: ['b'] },
        { questionId: 'q2', rating: 4 },
        { questionId: 'q3', options: ['a', 'c'] },
        { questionId: 'q4', text: '希望增加停车位' },
      ],
    })
    await waitFor(() => expect(calls.navigations.at(-1)).toEqual({ kind: 'redirectTo', url: '/pages/survey/result?id=1' }))
  })

  test('a survey answered already says 已参与 and offers the answer', async () => {
    await open(2)
    await screen.findByText('您已参与过该调查（已参与），感谢您的反馈')
    expect(screen.queryByText('提交')).toBeNull()
    fireEvent.click(screen.getByText('查看我的回答'))
    expect(calls.navigations.at(-1)?.url).toBe('/pages/survey/result?id=2')
  })
})

describe('调查结果 /pages/survey/result', () => {
  test('thanks, and the answer as given', async () => {
    stored.set(1, [
      { questionId: 'q1', options: ['a'] },
      { questionId: 'q2', rating: 5 },
      { questionId: 'q4', text: '医生很耐心' },
    ])
    testing.setRouter('/pages/survey/result', { id: '1' })
    render(<SurveyResultPage />)
    await screen.findByText('感谢您的参与！')
    expect(screen.getByText('线上预约挂号')).toBeTruthy()
    expect(screen.getByRole('img', { name: '5星 非常满意' })).toBeTruthy()
    expect(screen.getByText('未作答')).toBeTruthy()
    expect(screen.getByText('医生很耐心')).toBeTruthy()
  })
})
