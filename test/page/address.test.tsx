import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { areaList } from '@vant/area-data'
import Taro, { calls, testing } from './doubles/taro'
import { RootStore } from '../../src/stores/RootStore'
import { AddressStore } from '../../src/stores/AddressStore'
import { LOCAL, local } from '../../src/services/storage'
import { mapSensitive } from '../../src/utils/base64'
import { maskMobile, maskName } from '../../src/utils/mask'
import AddressList from '../../src/pages/address/list'
import AddressAdd from '../../src/pages/address/add'
import ChooseLocation from '../../src/pages/chooseLocation'
import type { Address, Location, Region } from '../../types/api/address'
import { useAddressStore } from '../../src/stores/AddressStore'

/** Pages reach their stores through useStores(): each test gets a fresh root store. */
let mockRoot: RootStore
jest.mock('../../src/stores', () => ({ useStores: () => mockRoot }))

/** The regions table as the server seeds it (server/src/seed/regions.ts): @vant/area-data, parents from code prefixes. */
const REGIONS: (Region & { parentCode: number })[] = [
  ...Object.entries(areaList.province_list).map(([code, name]) => ({ code: Number(code), name, level: 1 as const, parentCode: 0 })),
  ...Object.entries(areaList.city_list).map(([code, name]) => ({ code: Number(code), name, level: 2 as const, parentCode: Number(`${code.slice(0, 2)}0000`) })),
  ...Object.entries(areaList.county_list).map(([code, name]) => ({ code: Number(code), name, level: 3 as const, parentCode: Number(`${code.slice(0, 4)}00`) })),
].map((r) => ({ ...r, leaf: r.level === 3 }))
const regionByCode = new Map(REGIONS.map((r) => [r.code, r]))

/** server/src/domain/address.ts regionText: one chain, a municipality's repeated city and placeholder cities left out. */
function regionText(provinceCode: number, cityCode: number, districtCode: number): string | null {
  const province = regionByCode.get(provinceCode)
  const city = regionByCode.get(cityCode)
  const district = regionByCode.get(districtCode)
  const chained = province?.level === 1 && city?.level === 2 && district?.level === 3 && city.parentCode === province.code && district.parentCode === city.code
  if (!chained) return null
  const names = [province.name]
  if (city.name !== province.name && !['县', '省直辖县', '自治区直辖县级行政区划'].includes(city.name)) names.push(city.name)
  names.push(district.name)
  return names.join(' ')
}

/** An address as the server keeps it: whole values; `at` orders by creation. */
interface Row {
  id: number
  name: string
  mobile: string
  provinceCode: number
  cityCode: number
  districtCode: number
  detail: string
  latitude: string | null
  longitude: string | null
  isDefault: boolean
  at: number
}

let rows: Row[] = []
let clock = 0

const row = (id: number, name: string, mobile: string, codes: [number, number, number], detail: string, isDefault = false): Row => ({
  id,
  name,
  mobile,
  provinceCode: codes[0],
  cityCode: codes[1],
  districtCode: codes[2],
  detail,
  latitude: null,
  longitude: null,
  isDefault,
  at: id,
})
const NANSHAN: [number, number, number] = [440000, 440300, 440305]
const FUTIAN: [number, number, number] = [440000, 440300, 440304]
const SHANGCHENG: [number, number, number] = [330000, 330100, 330102]
const DONGCHENG: [number, number, number] = [110000, 110100, 110101]
/** Oldest first; 李四's is the default. The list shows 李*, then the newest (欧**娜), then 张*丰. */
const seed = () => [
  row(1, '张三丰', '13812345678', NANSHAN, '科技园科苑路15号'),
  row(2, '李四', '13900001111', SHANGCHENG, '西湖大道1号', true),
  row(3, '欧阳娜娜', '13700002222', DONGCHENG, '东长安街1号'),
]

/** What the address calls answer (server/src/domain/address.ts toAddress): the list masks name and mobile. */
const toAddress = (r: Row, masked: boolean): Address => ({
  id: r.id,
  name: masked ? maskName(r.name) : r.name,
  mobile: masked ? maskMobile(r.mobile) : r.mobile,
  provinceCode: r.provinceCode,
  cityCode: r.cityCode,
  districtCode: r.districtCode,
  regionText: regionText(r.provinceCode, r.cityCode, r.districtCode)!,
  detail: r.detail,
  latitude: r.latitude,
  longitude: r.longitude,
  isDefault: r.isDefault,
})

/** The sandbox location provider (server/src/plugins/providers/location.ts): the nearest provincial capital's centre. */
const CAPITALS = [
  { city: '北京市', cityCode: 110100, districtCode: 110101, lat: 39.9042, lng: 116.4074 },
  { city: '杭州市', cityCode: 330100, districtCode: 330102, lat: 30.2741, lng: 120.1551 },
  { city: '广州市', cityCode: 440100, districtCode: 440104, lat: 23.1291, lng: 113.2644 },
]
function sandboxLocation(latitude: number, longitude: number): Location {
  const nearest = [...CAPITALS].sort((a, b) => Math.hypot(a.lat - latitude, a.lng - longitude) - Math.hypot(b.lat - latitude, b.lng - longitude))[0]!
  const provinceCode = Math.floor(nearest.cityCode / 10000) * 10000
  const province = regionByCode.get(provinceCode)!.name
  const city = regionByCode.get(nearest.cityCode)!.name
  const district = regionByCode.get(nearest.districtCode)!.name
  return {
    latitude,
    longitude,
    address: `${city === province ? province : province + city}${district}（模拟定位）`,
    name: `${nearest.city}中心`,
    province,
    city,
    district,
    provinceCode,
    cityCode: nearest.cityCode,
    districtCode: nearest.districtCode,
  }
}

const ok = (data: unknown) => ({ statusCode: 200, data: { code: 200, msg: 'success', data: mapSensitive(data, (s) => Buffer.from(s, 'utf8').toString('base64')) } })
const refuse = (code: number, msg: string) => ({ statusCode: 200, data: { code, msg, data: null } })

/** The route's zod schema (server/src/routes/patient/address.ts addressInput), with its messages. */
function parseInput(body: Record<string, string>): { problem: string } | { input: Omit<Row, 'id' | 'isDefault' | 'at'>; isDefault: boolean } {
  const name = (body.name ?? '').trim()
  if (!name) return { problem: '请输入收货人姓名' }
  if (name.length > 20) return { problem: '收货人姓名不能超过20个字' }
  if (!/^1[3-9]\d{9}$/.test(body.mobile ?? '')) return { problem: '手机号格式不正确' }
  const codes = [body.provinceCode, body.cityCode, body.districtCode].map(Number)
  if (codes.some((c) => !Number.isInteger(c) || c < 100000 || c > 999999)) return { problem: '所在地区不正确' }
  const detail = (body.detail ?? '').trim()
  if (detail.length < 2) return { problem: '请输入详细地址' }
  if (detail.length > 100) return { problem: '详细地址不能超过100个字' }
  if (!regionText(codes[0]!, codes[1]!, codes[2]!)) return { problem: '所在地区不正确，请重新选择' }
  return {
    input: { name, mobile: body.mobile!, provinceCode: codes[0]!, cityCode: codes[1]!, districtCode: codes[2]!, detail, latitude: body.latitude || null, longitude: body.longitude || null },
    isDefault: body.isDefault === 'true' || body.isDefault === '1',
  }
}

/** The real server's answers for startup, addresses, regions and reverse geocoding, over `rows`. */
function serve() {
  testing.answer(({ url, method, data }) => {
    const [path = '', search = ''] = url.split('?')
    const query = { ...Object.fromEntries(new URLSearchParams(search)), ...(method === 'GET' ? ((data ?? {}) as Record<string, string>) : {}) }
    const body = Object.fromEntries(new URLSearchParams(typeof data === 'string' ? data : ''))
    const id = Number(path.split('/').pop())
    if (path === '/dld-hospital/userinfo') return ok({ id: 7, nickname: '张三', wechatAvatar: '', mobile: '138****5678', roles: [], appId: query.appId, provider: 'wechat' })
    if (path === '/dld-hospital/hospital/getByAppId') return ok({ id: 1, hospitalCode: '10392', hospitalName: '示范医院', configDto: { isInternet: true, isPalm: true } })
    if (path === '/dld-hospital/common/homePageConfig') return ok({ main: false, hospital: null, menus: [] })
    if (path === '/dld-im/im/user-sig') return ok({ driver: 'local', sdkAppId: 0, imAccount: query.imAccount, userSig: 's', expire: 1 })
    if (path.startsWith('/dld-system/nation/parent/'))
      return ok(REGIONS.filter((r) => r.parentCode === id).sort((a, b) => a.code - b.code).map(({ code, name, level, leaf }) => ({ code, name, level, leaf })))
    if (path === '/dld-system/map/getLocation') {
      const [lat, lng] = String(query.location).split(',').map(Number)
      return ok(sandboxLocation(lat!, lng!))
    }
    if (path === '/dld-hospital/addressList') {
      const sorted = [...rows].sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || b.at - a.at || b.id - a.id)
      return ok(sorted.map((r) => toAddress(r, true)))
    }
    if (path === '/dld-hospital/addAddress' && method === 'POST') {
      const parsed = parseInput(body)
      if ('problem' in parsed) return refuse(400, parsed.problem)
      const isDefault = rows.length === 0 || parsed.isDefault
      if (isDefault) rows.forEach((r) => (r.isDefault = false))
      const added: Row = { id: Math.max(0, ...rows.map((r) => r.id)) + 1, ...parsed.input, isDefault, at: ++clock }
      rows.push(added)
      return ok(toAddress(added, false))
    }
    const target = rows.find((r) => r.id === id)
    if (path.startsWith('/dld-hospital/updateAddress/') && method === 'PUT') {
      if (!target) return refuse(2999, '暂无权限')
      const parsed = parseInput(body)
      if ('problem' in parsed) return refuse(400, parsed.problem)
      const isDefault = target.isDefault || parsed.isDefault
      if (isDefault) rows.forEach((r) => (r.isDefault = false))
      Object.assign(target, parsed.input, { isDefault })
      return ok(toAddress(target, false))
    }
    if (path.startsWith('/dld-hospital/address/')) {
      if (!target) return refuse(2999, '暂无权限')
      if (method === 'GET') return ok(toAddress(target, false))
      if (method === 'DELETE') {
        rows = rows.filter((r) => r !== target)
        if (!target.isDefault) return ok({ defaultAddressId: null })
        const next = [...rows].sort((a, b) => b.at - a.at || b.id - a.id)[0]
        if (next) next.isDefault = true
        return ok({ defaultAddressId: next?.id ?? null })
      }
    }
    return { statusCode: 404, data: '' }
  })
}

const sent = (fragment: string) => calls.requests.filter((r) => r.url.includes(fragment))
const bodyOf = (r: { data: unknown }) => Object.fromEntries(new URLSearchParams(r.data as string))
const cardOf = (name: string) => screen.getByText(name).closest('.addresses__item') as HTMLElement
const names = () => Array.from(document.querySelectorAll('.addresses__name'), (n) => n.textContent)
const toasts = () => calls.toasts.map((t) => t.title)
const nationCalls = () => sent('/dld-system/nation/parent/').map((r) => r.url)

/** The device's position API, which the Taro double does not have: each test that locates sets it. */
type GetLocation = (o: { type: string }) => Promise<{ latitude: number; longitude: number }>
const device = Taro as typeof Taro & { getLocation?: GetLocation }

beforeEach(() => {
  testing.reset()
  window.sessionStorage.clear()
  local.set(LOCAL.token, 'tok')
  local.set(LOCAL.lifeData, { appId: 'wx10392demo00000', expire: Date.now() + 3_600_000 })
  mockRoot = new RootStore()
  rows = seed()
  clock = rows.length
  serve()
})

afterEach(() => {
  delete device.getLocation
})

describe('AddressStore', () => {
  test('regions come from nation/parent/{code}, each level asked once, districts marked as leaves', async () => {
    const store = new AddressStore()
    const provinces = await store.regionsUnder(0)
    expect(provinces).toHaveLength(Object.keys(areaList.province_list).length)
    expect(provinces.find((p) => p.code === 440000)).toEqual({ code: 440000, name: '广东省', level: 1, leaf: false })
    const districts = await store.regionsUnder(440300)
    expect(districts.find((d) => d.code === 440305)).toEqual({ code: 440305, name: '南山区', level: 3, leaf: true })
    await store.regionsUnder(440300)
    expect(nationCalls()).toEqual(['/dld-system/nation/parent/0', '/dld-system/nation/parent/440300'])
  })

  test('deleting the default lets the server name the next default; a deleted chosen address is no longer chosen', async () => {
    const store = new AddressStore()
    await store.loadList()
    store.choose(store.list[0]!)
    await store.remove(2)
    expect(sent('/dld-hospital/address/2').map((r) => r.method)).toEqual(['DELETE'])
    expect(store.chosen).toBeNull()
    expect(store.list.map((a) => [a.name, a.isDefault])).toEqual([
      ['欧**娜', true], // the newest one left
      ['张*丰', false],
    ])
    expect(store.defaultAddress?.id).toBe(3)
  })
})

async function openList(params: Record<string, string> = {}) {
  testing.setRouter('/pages/address/list', params)
  render(<AddressList />)
  await screen.findByText('李*')
}

describe('收货地址 /pages/address/list', () => {
  test('lists the server’s addresses masked, the default first with its badge', async () => {
    await openList()
    expect(screen.getByText('收货地址')).toBeTruthy()
    expect(names()).toEqual(['李*', '欧**娜', '张*丰'])
    const first = cardOf('李*')
    expect(within(first).getByText('139****1111')).toBeTruthy()
    expect(within(first).getByText('浙江省 杭州市 上城区')).toBeTruthy()
    expect(within(first).getByText('西湖大道1号')).toBeTruthy()
    expect(within(first).getByText('默认')).toBeTruthy()
    expect(within(first).getByText('默认地址')).toBeTruthy()
    expect(within(first).queryByText('设为默认')).toBeNull()
    expect(screen.getAllByText('默认')).toHaveLength(1)
    expect(within(cardOf('欧**娜')).getByText('北京市 东城区')).toBeTruthy()
    expect(within(cardOf('张*丰')).getByText('设为默认')).toBeTruthy()
    for (const whole of ['张三丰', '李四', '欧阳娜娜', '13812345678', '13900001111']) expect(document.body.textContent).not.toContain(whole)
    expect(screen.queryByText('暂无收货地址')).toBeNull()
  })

  test('no addresses: the empty text, and 新增收货地址 opens the add page', async () => {
    rows = []
    testing.setRouter('/pages/address/list')
    render(<AddressList />)
    await screen.findByText('暂无收货地址')
    expect(document.querySelectorAll('.addresses__item')).toHaveLength(0)
    fireEvent.click(screen.getByText('新增收货地址'))
    expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/pages/address/add' }])
  })

  test('设为默认 writes the whole address back as the default and moves the badge', async () => {
    await openList()
    fireEvent.click(within(cardOf('张*丰')).getByText('设为默认'))
    await waitFor(() => expect(names()).toEqual(['张*丰', '欧**娜', '李*']))
    expect(within(cardOf('张*丰')).getByText('默认')).toBeTruthy()
    expect(screen.getAllByText('默认')).toHaveLength(1)
    expect(sent('/dld-hospital/address/1').map((r) => r.method)).toEqual(['GET'])
    const [put] = sent('/dld-hospital/updateAddress/')
    expect(put!.url).toBe('/dld-hospital/updateAddress/1')
    // whole values, never the masked ones the list shows
    expect(bodyOf(put!)).toEqual({ name: '张三丰', mobile: '13812345678', provinceCode: '440000', cityCode: '440300', districtCode: '440305', detail: '科技园科苑路15号', isDefault: 'true' })
    expect(rows.find((r) => r.id === 1)).toMatchObject({ name: '张三丰', mobile: '13812345678', isDefault: true })
    expect(toasts()).toEqual(['已设为默认'])
  })

  test('删除 asks first: cancelling keeps the address and sends nothing, confirming deletes it', async () => {
    const modal = jest.spyOn(Taro, 'showModal').mockResolvedValueOnce({ confirm: false, cancel: true })
    await openList()
    fireEvent.click(within(cardOf('欧**娜')).getByText('删除'))
    await waitFor(() => expect(modal).toHaveBeenCalledTimes(1))
    expect(modal).toHaveBeenCalledWith(expect.objectContaining({ title: '提示', content: '确定删除该收货地址吗？', confirmText: '确定', cancelText: '取消' }))
    await new Promise((r) => setTimeout(r, 20))
    expect(sent('/dld-hospital/address/3')).toHaveLength(0)
    expect(names()).toEqual(['李*', '欧**娜', '张*丰'])
    expect(toasts()).toEqual([])

    fireEvent.click(within(cardOf('欧**娜')).getByText('删除'))
    await waitFor(() => expect(screen.queryByText('欧**娜')).toBeNull())
    expect(modal).toHaveBeenCalledTimes(2)
    expect(sent('/dld-hospital/address/3').map((r) => r.method)).toEqual(['DELETE'])
    expect(names()).toEqual(['李*', '张*丰'])
    expect(rows.map((r) => r.id)).toEqual([1, 2])
    expect(toasts()).toEqual(['已删除'])
    modal.mockRestore()
  })

  test('tapping an address, or its 编辑, opens it for editing', async () => {
    await openList()
    fireEvent.click(screen.getByText('张*丰'))
    fireEvent.click(within(cardOf('李*')).getByText('编辑'))
    expect(calls.navigations).toEqual([
      { kind: 'navigateTo', url: '/pages/address/add?id=1' },
      { kind: 'navigateTo', url: '/pages/address/add?id=2' },
    ])
  })

  test('with select=1 tapping an address chooses it and goes back', async () => {
    await openList({ select: '1' })
    expect(screen.getByText('选择收货地址')).toBeTruthy()
    fireEvent.click(screen.getByText('欧**娜'))
    expect(useAddressStore.of(mockRoot).chosen?.id).toBe(3)
    expect(calls.navigations).toEqual([{ kind: 'navigateBack', url: '' }])
  })
})

const field = (placeholder: string) => screen.getByPlaceholderText(placeholder) as HTMLInputElement
const type = (placeholder: string, value: string) => fireEvent.change(field(placeholder), { target: { value } })
const regionShown = () => document.querySelector('.address-form__region')!.textContent

async function openAdd(params: Record<string, string> = {}) {
  testing.setRouter('/pages/address/add', params)
  render(<AddressAdd />)
  await screen.findByPlaceholderText('请输入收货人姓名')
}

/** Opens 所在地区 and chooses one name per level, waiting for each level to arrive. */
async function pickRegion(path: string[]) {
  fireEvent.click(document.querySelector('.address-form__region')!)
  const picker = await screen.findByRole('dialog', { name: '所在地区' })
  for (const name of path) fireEvent.click(await within(picker).findByText(name))
  await waitFor(() => expect(screen.queryByRole('dialog', { name: '所在地区' })).toBeNull())
}

/** Saved: 保存成功, then back (after the toast) to the page that opened the form. */
async function savedAndBack() {
  fireEvent.click(screen.getByText('保存'))
  await waitFor(() => expect(calls.navigations).toEqual([{ kind: 'navigateBack', url: '' }]), { timeout: 2000 })
  expect(toasts()).toEqual(['保存成功'])
}

describe('新增收货地址 /pages/address/add', () => {
  test('the region picker asks each level from nation/parent, shows the chosen path, and saving adds the address', async () => {
    await openAdd()
    expect(screen.getByText('新增收货地址')).toBeTruthy()
    expect(regionShown()).toBe('请选择省/市/区')
    type('请输入收货人姓名', ' 王五 ')
    type('请输入手机号', '13600003333')

    fireEvent.click(document.querySelector('.address-form__region')!)
    const picker = await screen.findByRole('dialog', { name: '所在地区' })
    expect((await within(picker).findAllByRole('option')).map((o) => o.textContent)).toEqual(
      Object.entries(areaList.province_list)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([, n]) => n),
    )
    fireEvent.click(within(picker).getByText('广东省'))
    fireEvent.click(await within(picker).findByText('深圳市'))
    fireEvent.click(await within(picker).findByText('南山区'))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '所在地区' })).toBeNull())
    expect(nationCalls()).toEqual(['/dld-system/nation/parent/0', '/dld-system/nation/parent/440000', '/dld-system/nation/parent/440300'])
    expect(regionShown()).toBe('广东省 深圳市 南山区')

    type('请输入街道、门牌号等', '科技园科苑路16号 ')
    await savedAndBack()
    const adds = sent('/dld-hospital/addAddress')
    expect(adds.map((r) => r.method)).toEqual(['POST'])
    expect(bodyOf(adds[0]!)).toEqual({ name: '王五', mobile: '13600003333', provinceCode: '440000', cityCode: '440300', districtCode: '440305', detail: '科技园科苑路16号', isDefault: 'false' })
    expect(sent('/updateAddress/')).toHaveLength(0)
    expect(rows.find((r) => r.name === '王五')).toMatchObject({ districtCode: 440305, isDefault: false, latitude: null })
    // the list reloads with it
    expect(useAddressStore.of(mockRoot).list.map((a) => a.name)).toEqual(['李*', '王*', '欧**娜', '张*丰'])
  })

  const good = { name: '王五', mobile: '13600003333', detail: '科技园科苑路16号' }
  test.each([
    ['no receiver name', { ...good, name: '   ' }, true, '请输入收货人姓名'],
    ['a receiver name over 10 Chinese characters', { ...good, name: '欧阳诸葛司马上官慕容端' }, true, '收货人姓名最多10个汉字或20个字母'],
    ['a mobile of 10 digits', { ...good, mobile: '1360000333' }, true, '请输入正确的手机号'],
    ['a mobile not starting with 1', { ...good, mobile: '23600003333' }, true, '请输入正确的手机号'],
    ['no region', good, false, '请选择所在地区'],
    ['no detail', { ...good, detail: '  ' }, true, '请输入详细地址'],
  ])('%s: the page says so and sends no add call', async (_case, values, withRegion, message) => {
    await openAdd()
    type('请输入收货人姓名', values.name)
    type('请输入手机号', values.mobile)
    if (withRegion) await pickRegion(['广东省', '深圳市', '南山区'])
    type('请输入街道、门牌号等', values.detail)
    fireEvent.click(screen.getByText('保存'))
    await waitFor(() => expect(toasts()).toEqual([message]))
    await new Promise((r) => setTimeout(r, 20))
    expect(sent('/dld-hospital/addAddress')).toHaveLength(0)
    expect(sent('/updateAddress/')).toHaveLength(0)
    expect(calls.navigations).toEqual([])
    expect(rows).toHaveLength(3)
  })

  test('with an id the page edits: whole values in the form, the picker on the saved district, saving updates', async () => {
    await openAdd({ id: '1' })
    expect(screen.getByText('编辑收货地址')).toBeTruthy()
    await waitFor(() => expect(field('请输入收货人姓名').value).toBe('张三丰'))
    expect(sent('/dld-hospital/address/1').map((r) => r.method)).toEqual(['GET'])
    expect(field('请输入手机号').value).toBe('13812345678')
    expect(field('请输入街道、门牌号等').value).toBe('科技园科苑路15号')
    expect(regionShown()).toBe('广东省 深圳市 南山区')

    // reopened on 南山区 among 深圳市's districts; 福田区 replaces it
    fireEvent.click(document.querySelector('.address-form__region')!)
    const picker = await screen.findByRole('dialog', { name: '所在地区' })
    await waitFor(() => expect(within(picker).getByText('南山区').getAttribute('aria-selected')).toBe('true'))
    expect(nationCalls()).toEqual(['/dld-system/nation/parent/0', '/dld-system/nation/parent/440000', '/dld-system/nation/parent/440300'])
    fireEvent.click(within(picker).getByText('福田区'))
    await waitFor(() => expect(regionShown()).toBe('广东省 深圳市 福田区'))
    type('请输入街道、门牌号等', '深南大道2号')

    await savedAndBack()
    expect(sent('/dld-hospital/addAddress')).toHaveLength(0)
    const puts = sent('/dld-hospital/updateAddress/')
    expect(puts.map((r) => [r.method, r.url])).toEqual([['PUT', '/dld-hospital/updateAddress/1']])
    expect(bodyOf(puts[0]!)).toEqual({ name: '张三丰', mobile: '13812345678', provinceCode: '440000', cityCode: '440300', districtCode: String(FUTIAN[2]), detail: '深南大道2号', isDefault: 'false' })
    expect(rows).toHaveLength(3)
    expect(rows.find((r) => r.id === 1)).toMatchObject({ districtCode: 440304, detail: '深南大道2号' })
  })
})

describe('定位 from the add page (/pages/chooseLocation/index)', () => {
  test('a granted position fills region, detail and coordinates from map/getLocation, and they are saved', async () => {
    device.getLocation = jest.fn(async () => ({ latitude: 30.27, longitude: 120.15 }))
    await openAdd()
    type('请输入收货人姓名', '李四')
    type('请输入手机号', '13900001111')
    fireEvent.click(screen.getByText('定位'))
    await waitFor(() => expect(calls.navigations).toEqual([{ kind: 'navigateTo', url: '/pages/chooseLocation/index' }]))

    testing.setRouter('/pages/chooseLocation/index')
    const locating = render(<ChooseLocation />)
    await screen.findByText('杭州市中心')
    expect(device.getLocation).toHaveBeenCalledWith(expect.objectContaining({ type: 'wgs84' }))
    // the browser's WGS-84 position, sent in GCJ-02 as the server and the map services take it
    expect(sent('/dld-system/map/getLocation').map((r) => r.data)).toEqual([{ location: '30.26768,120.154709' }])
    expect(screen.getByText('浙江省杭州市上城区（模拟定位）')).toBeTruthy()
    fireEvent.click(screen.getByText('确认'))
    expect(calls.navigations.at(-1)).toEqual({ kind: 'navigateBack', url: '' })
    locating.unmount()
    calls.navigations.length = 0

    await waitFor(() => expect(regionShown()).toBe('浙江省 杭州市 上城区'))
    expect(field('请输入街道、门牌号等').value).toBe('杭州市中心（模拟定位）')
    expect(field('请输入收货人姓名').value).toBe('李四')
    type('请输入街道、门牌号等', '杭州市中心西湖大道1号')
    await savedAndBack()
    expect(bodyOf(sent('/dld-hospital/addAddress')[0]!)).toEqual({
      name: '李四',
      mobile: '13900001111',
      provinceCode: String(SHANGCHENG[0]),
      cityCode: String(SHANGCHENG[1]),
      districtCode: String(SHANGCHENG[2]),
      detail: '杭州市中心西湖大道1号',
      latitude: '30.26768',
      longitude: '120.154709',
      isDefault: 'false',
    })
    expect(nationCalls()).toEqual([]) // nothing picked by hand
  })

  test('a refused permission says so, asks the server nothing, and the region is then picked by hand', async () => {
    device.getLocation = jest.fn(() => Promise.reject({ errMsg: 'getLocation:fail auth deny' }))
    await openAdd()
    fireEvent.click(screen.getByText('定位'))
    testing.setRouter('/pages/chooseLocation/index')
    const locating = render(<ChooseLocation />)
    const alert = await screen.findByRole('alert')
    expect(within(alert).getByText('未获得定位权限')).toBeTruthy()
    expect(within(alert).getByText('请在浏览器或系统设置中允许使用位置信息，或手动选择所在地区。')).toBeTruthy()
    expect(sent('/dld-system/map/getLocation')).toHaveLength(0)
    expect(screen.queryByText('确认')).toBeNull()
    fireEvent.click(screen.getByText('手动选择地区'))
    expect(calls.navigations).toEqual([
      { kind: 'navigateTo', url: '/pages/chooseLocation/index' },
      { kind: 'navigateBack', url: '' },
    ])
    locating.unmount()

    // back on the form, the picker opens by itself on the provinces; the region is still unchosen
    const picker = await screen.findByRole('dialog', { name: '所在地区' })
    expect(regionShown()).toBe('请选择省/市/区')
    fireEvent.click(await within(picker).findByText('浙江省'))
    fireEvent.click(await within(picker).findByText('杭州市'))
    fireEvent.click(await within(picker).findByText('上城区'))
    await waitFor(() => expect(regionShown()).toBe('浙江省 杭州市 上城区'))
    expect(nationCalls()).toEqual(['/dld-system/nation/parent/0', '/dld-system/nation/parent/330000', '/dld-system/nation/parent/330100'])
  })
})
