import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { calls, testing } from './doubles/taro'
import { RootStore } from '../../src/stores/RootStore'
import { LOCAL, local } from '../../src/services/storage'
import { MSG } from '../../src/ui/messages'
import { babyBloodTypes, hbPattern } from '../../src/utils/healthTools'
import { checkItemContent, checkItemList, REFERENCE_NOTE } from '../../server/src/domain/healthTools/checkItems'
import HepatitisTest from '../../src/internet/hepatitisTest/hepatitis-test'
import HepatitisResult from '../../src/internet/hepatitisTest/hepatitis-result'
import BabyBlood from '../../src/internet/babyBlood'
import InspectRead from '../../src/internet/inspectRead/inspect-read'
import InspectDetail from '../../src/internet/inspectRead/inspect-detail'
import type { BabyBloodQuery, HbSurveyQuery } from '../../types/api/healthTools'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

const DISCLAIMER = '结果仅供参考，不能替代医生诊断'

// ---------- the fake server: the real rules and content, answered as the server does ----------

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data } })
const refuse = (code: number, msg: string) => ({ statusCode: 200, data: { code, msg, data: null } })
let failing = new Set<string>()

function serve() {
  testing.answer(({ url, data }) => {
    const path = url.split('?')[0]!
    const query = (data ?? {}) as Record<string, string>
    if (failing.has(path)) return refuse(500, '服务器开小差了')
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: 'wx10412demo00000', provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 3, hospitalCode: '10412', hospitalName: '示范互联网医院', configDto: { isInternet: true, isPalm: false } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: '0_7', userSig: 's', expire: 1 })
    if (path === '/dld-hospital/healthTools/hbSelfSurvey') return ok(hbPattern(query as unknown as HbSurveyQuery))
    if (path === '/dld-hospital/healthTools/babyBlood') return ok(babyBloodTypes(query as unknown as BabyBloodQuery))
    if (path === '/dld-hospital/healthTools/checklistitems') return ok({ categories: checkItemList(), note: REFERENCE_NOTE, disclaimer: DISCLAIMER })
    if (path === '/dld-hospital/healthTools/itemcontent') {
      const content = checkItemContent(query.id ?? '')
      return content ? ok(content) : refuse(404, '检查项目不存在')
    }
    return { statusCode: 404, data: '' }
  })
}

const sent = (path: string) => calls.requests.filter((r) => r.url.split('?')[0] === path)
/** A radio of a named group (乙肝表面抗原（HBsAg）, 爸爸的ABO血型 …). */
const radio = (group: string, name: string) => within(screen.getByRole('radiogroup', { name: group })).getByRole('radio', { name })
const checkedIn = (group: string) =>
  within(screen.getByRole('radiogroup', { name: group }))
    .getAllByRole('radio')
    .filter((r) => r.getAttribute('aria-checked') === 'true')
    .map((r) => r.textContent)

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10412demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  failing = new Set()
  serve()
})

const HB_GROUPS = ['乙肝表面抗原（HBsAg）', '乙肝表面抗体（抗-HBs）', '乙肝e抗原（HBeAg）', '乙肝e抗体（抗-HBe）', '乙肝核心抗体（抗-HBc）']

describe('乙肝两对半自测 /internet/hepatitisTest/hepatitis-test', () => {
  test('five named radio groups; 查看解读 waits for all five, saying which is missing, then opens the result with them', async () => {
    testing.setRouter('/internet/hepatitisTest/hepatitis-test')
    render(<HepatitisTest />)
    await screen.findByText('对照检验单，选择每一项的结果')
    expect(screen.getAllByRole('radiogroup').map((g) => g.getAttribute('aria-label'))).toEqual(HB_GROUPS)
    for (const g of HB_GROUPS) expect(checkedIn(g)).toEqual([])
    expect(screen.getByText(new RegExp(DISCLAIMER))).toBeTruthy()

    const button = screen.getByRole('button', { name: '查看解读' }) as HTMLButtonElement
    expect(button.disabled).toBe(true)
    expect(screen.getByRole('status').textContent).toBe('请选择乙肝表面抗原（HBsAg）的结果')

    const picks = ['阳性（+）', '阴性（-）', '阳性（+）', '阴性（-）', '阳性（+）']
    HB_GROUPS.forEach((g, i) => fireEvent.click(radio(g, picks[i]!)))
    expect(radio(HB_GROUPS[0]!, '阳性（+）').getAttribute('aria-checked')).toBe('true')
    expect(radio(HB_GROUPS[0]!, '阴性（-）').getAttribute('aria-checked')).toBe('false')
    // a change of mind: the last one picked counts
    fireEvent.click(radio(HB_GROUPS[4]!, '阴性（-）'))
    fireEvent.click(radio(HB_GROUPS[4]!, '阳性（+）'))
    expect(checkedIn(HB_GROUPS[4]!)).toEqual(['阳性（+）'])

    expect(screen.queryByRole('status')).toBeNull()
    expect(button.disabled).toBe(false)
    fireEvent.click(button)
    expect(calls.navigations).toEqual([
      { kind: 'navigateTo', url: '/internet/hepatitisTest/hepatitis-result?HBsAg=positive&HBsAb=negative&HBeAg=positive&HBeAb=negative&HBcAb=positive' },
    ])
  })
})

describe('自测结果 /internet/hepatitisTest/hepatitis-result', () => {
  const DA_SAN_YANG = { HBsAg: 'positive', HBsAb: 'negative', HBeAg: 'positive', HBeAb: 'negative', HBcAb: 'positive' }

  test('asks the server with the five results of the address; shows the pattern in words, each marker, the meaning, advice and the disclaimer', async () => {
    testing.setRouter('/internet/hepatitisTest/hepatitis-result', DA_SAN_YANG)
    render(<HepatitisResult />)
    expect(await screen.findByRole('heading', { name: '大三阳' })).toBeTruthy()
    expect(sent('/dld-hospital/healthTools/hbSelfSurvey').map((r) => r.data)).toEqual([DA_SAN_YANG])
    // the category is written, not only a colour
    expect(screen.getByText('乙肝病毒感染')).toBeTruthy()
    const rows = Array.from(document.querySelectorAll('.hb-result__row')).map((r) => r.textContent)
    expect(rows).toEqual(['乙肝表面抗原（HBsAg）阳性（+）', '乙肝表面抗体（抗-HBs）阴性（-）', '乙肝e抗原（HBeAg）阳性（+）', '乙肝e抗体（抗-HBe）阴性（-）', '乙肝核心抗体（抗-HBc）阳性（+）'])
    expect(screen.getByText(/俗称“大三阳”/)).toBeTruthy()
    expect(screen.getByText(/^1\. 请到感染科或肝病科就诊/)).toBeTruthy()
    expect(screen.getByText(new RegExp(`^${DISCLAIMER}`))).toBeTruthy()

    // only one page open: 重新自测 opens the form in this page's place
    fireEvent.click(screen.getByRole('button', { name: '重新自测' }))
    expect(calls.navigations.pop()).toEqual({ kind: 'redirectTo', url: '/internet/hepatitisTest/hepatitis-test' })
  })

  test('a rare combination says 少见模式，建议复查并咨询医生', async () => {
    testing.setRouter('/internet/hepatitisTest/hepatitis-result', { ...DA_SAN_YANG, HBsAb: 'positive' })
    render(<HepatitisResult />)
    expect(await screen.findByRole('heading', { name: '少见模式' })).toBeTruthy()
    expect(screen.getByText('少见模式，建议复查并咨询医生。')).toBeTruthy()
  })

  test('without the five results it asks for them and calls nothing; a failed answer can be retried', async () => {
    testing.setRouter('/internet/hepatitisTest/hepatitis-result', { HBsAg: 'positive' })
    const { unmount } = render(<HepatitisResult />)
    expect(await screen.findByText('请先选择乙肝两对半五项的结果')).toBeTruthy()
    expect(sent('/dld-hospital/healthTools/hbSelfSurvey')).toHaveLength(0)
    fireEvent.click(screen.getByText('去自测'))
    expect(calls.navigations.pop()).toEqual({ kind: 'redirectTo', url: '/internet/hepatitisTest/hepatitis-test' })
    unmount()

    failing.add('/dld-hospital/healthTools/hbSelfSurvey')
    testing.setRouter('/internet/hepatitisTest/hepatitis-result', DA_SAN_YANG)
    render(<HepatitisResult />)
    expect(await screen.findByText(MSG.listFailed)).toBeTruthy()
    expect(calls.toasts).toEqual([])
    failing.clear()
    fireEvent.click(screen.getByText('重新加载'))
    expect(await screen.findByRole('heading', { name: '大三阳' })).toBeTruthy()
  })
})

describe('宝宝血型 /internet/babyBlood/index', () => {
  const open = async () => {
    testing.setRouter('/internet/babyBlood/index')
    render(<BabyBlood />)
    await screen.findByText('宝宝可能是什么血型？')
  }
  const chances = (heading: string) =>
    Array.from(screen.getByRole('heading', { name: heading }).closest('.baby-blood__card')!.querySelectorAll('.baby-blood__chance-line')).map((l) => l.textContent)

  test('four named choices; the result lists every type with its likelihood in words, and the notes for these parents', async () => {
    await open()
    expect(screen.getAllByRole('radiogroup').map((g) => g.getAttribute('aria-label'))).toEqual(['爸爸的ABO血型', '爸爸的Rh血型', '妈妈的ABO血型', '妈妈的Rh血型'])
    const button = screen.getByRole('button', { name: '查看宝宝可能的血型' }) as HTMLButtonElement
    expect(button.disabled).toBe(true)
    expect(screen.getByRole('status').textContent).toBe('请选择爸爸的ABO血型')

    fireEvent.click(radio('爸爸的ABO血型', 'AB型'))
    fireEvent.click(radio('爸爸的Rh血型', 'Rh阳性'))
    fireEvent.click(radio('妈妈的ABO血型', 'O型'))
    expect(screen.getByRole('status').textContent).toBe('请选择妈妈的Rh血型')
    fireEvent.click(radio('妈妈的Rh血型', 'Rh阴性'))
    expect(checkedIn('妈妈的Rh血型')).toEqual(['Rh阴性'])
    fireEvent.click(button)

    expect(await screen.findByText('宝宝可能是A型、B型，Rh阳性或Rh阴性')).toBeTruthy()
    expect(sent('/dld-hospital/healthTools/babyBlood').map((r) => r.data)).toEqual([{ fatherAbo: 'AB', fatherRh: 'positive', motherAbo: 'O', motherRh: 'negative' }])
    expect(chances('宝宝的ABO血型')).toEqual(['A型可能，50%', 'B型可能，50%', 'O型不可能', 'AB型不可能'])
    expect(chances('宝宝的Rh血型')).toEqual(['Rh阳性可能，约95%', 'Rh阴性可能，约5%'])
    expect(screen.getByText(/中国人群的血型基因频率/)).toBeTruthy()
    expect(screen.getByText(/抗D免疫球蛋白/)).toBeTruthy()
    expect(screen.getByText(/ABO溶血/)).toBeTruthy()
    expect(screen.getByText(new RegExp(`^${DISCLAIMER}`))).toBeTruthy()

    // another choice: the result for the other parents goes, and the next one is asked for
    fireEvent.click(radio('妈妈的ABO血型', 'A型'))
    expect(document.querySelector('.baby-blood__result')).toBeNull()
    fireEvent.click(button)
    expect(await screen.findByText('宝宝可能是A型、B型、AB型，Rh阳性或Rh阴性')).toBeTruthy()
  })

  test('O × O, Rh- × Rh-: O and Rh- for certain', async () => {
    await open()
    for (const [group, name] of [
      ['爸爸的ABO血型', 'O型'],
      ['爸爸的Rh血型', 'Rh阴性'],
      ['妈妈的ABO血型', 'O型'],
      ['妈妈的Rh血型', 'Rh阴性'],
    ])
      fireEvent.click(radio(group!, name!))
    fireEvent.click(screen.getByRole('button', { name: '查看宝宝可能的血型' }))
    expect(await screen.findByText('宝宝可能是O型，Rh阴性')).toBeTruthy()
    expect(chances('宝宝的ABO血型')).toEqual(['A型不可能', 'B型不可能', 'O型可能，100%', 'AB型不可能'])
    expect(chances('宝宝的Rh血型')).toEqual(['Rh阳性不可能', 'Rh阴性可能，100%'])
  })
})

describe('化验单解读 /internet/inspectRead/inspect-read and inspect-detail', () => {
  test('the items by category with their reference ranges; a search narrows them; an item opens its explanation', async () => {
    testing.setRouter('/internet/inspectRead/inspect-read')
    render(<InspectRead />)
    expect(await screen.findByRole('heading', { name: '血常规' })).toBeTruthy()
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['血常规', '肝功能', '肾功能', '血脂', '血糖', '尿常规', '甲状腺功能', '电解质'])
    const links = screen.getAllByRole('link')
    expect(links.length).toBeGreaterThanOrEqual(35)
    const alt = links.find((l) => l.textContent?.includes('ALT'))!
    expect(alt.textContent).toBe('丙氨酸氨基转移酶ALT参考范围：男 9–50；女 7–40 U/L')
    expect(screen.getByText(/以您检验单上标注的参考范围为准/)).toBeTruthy()
    expect(screen.getByText(DISCLAIMER)).toBeTruthy()

    fireEvent.change(screen.getByPlaceholderText('搜索项目名称或缩写，如 ALT'), { target: { value: 'tsh' } })
    await waitFor(() => expect(screen.getAllByRole('link')).toHaveLength(1))
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['甲状腺功能'])
    fireEvent.change(screen.getByPlaceholderText('搜索项目名称或缩写，如 ALT'), { target: { value: '没有这项' } })
    expect(await screen.findByText('没有找到相关检查项目')).toBeTruthy()
    fireEvent.change(screen.getByPlaceholderText('搜索项目名称或缩写，如 ALT'), { target: { value: '' } })
    fireEvent.click(screen.getAllByRole('link').find((l) => l.textContent?.includes('ALT'))!)
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/internet/inspectRead/inspect-detail?id=alt' }])
  })

  test('a failed list can be retried', async () => {
    failing.add('/dld-hospital/healthTools/checklistitems')
    testing.setRouter('/internet/inspectRead/inspect-read')
    render(<InspectRead />)
    expect(await screen.findByText(MSG.listFailed)).toBeTruthy()
    failing.clear()
    fireEvent.click(screen.getByText('重新加载'))
    expect(await screen.findByRole('heading', { name: '肝功能' })).toBeTruthy()
  })

  test('one item: its range, what it measures, high, low and what to do', async () => {
    testing.setRouter('/internet/inspectRead/inspect-detail', { id: 'alt' })
    render(<InspectDetail />)
    expect(await screen.findByRole('heading', { name: '丙氨酸氨基转移酶' })).toBeTruthy()
    expect(sent('/dld-hospital/healthTools/itemcontent').map((r) => r.data)).toEqual([{ id: 'alt' }])
    expect(screen.getByText('ALT · 肝功能')).toBeTruthy()
    expect(screen.getByText('参考范围（成人）：男 9–50；女 7–40 U/L')).toBeTruthy()
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['丙氨酸氨基转移酶', '这项检查查什么', '偏高可能见于', '偏低可能见于', '怎么办'])
    expect(screen.getByText(/脂肪肝、病毒性肝炎/)).toBeTruthy()
    expect(screen.getByText(new RegExp(`^${DISCLAIMER}`))).toBeTruthy()
  })

  test('a qualitative item reads 阳性可能见于 and has no 偏低; an unknown item says so and leads to the list', async () => {
    testing.setRouter('/internet/inspectRead/inspect-detail', { id: 'upro' })
    const { unmount } = render(<InspectDetail />)
    expect(await screen.findByRole('heading', { name: '尿蛋白' })).toBeTruthy()
    expect(screen.getByText('参考范围（成人）：阴性（-）')).toBeTruthy()
    expect(screen.getByRole('heading', { name: '阳性可能见于' })).toBeTruthy()
    expect(screen.queryByRole('heading', { name: '偏低可能见于' })).toBeNull()
    unmount()

    testing.setRouter('/internet/inspectRead/inspect-detail', { id: 'zzz' })
    render(<InspectDetail />)
    expect(await screen.findByText('没有找到这个检查项目')).toBeTruthy()
    expect(screen.queryByText('重新加载')).toBeNull()
    fireEvent.click(screen.getByText('查看全部项目'))
    expect(calls.navigations.pop()).toEqual({ kind: 'redirectTo', url: '/internet/inspectRead/inspect-read' })
  })
})
