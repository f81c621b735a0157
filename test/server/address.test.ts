import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { eq } from 'drizzle-orm'
import { addresses } from '../../server/src/db/schema'
import { MAX_ADDRESSES } from '../../server/src/domain/patientRules'
import { startTestApp, signInWechat, signInUser, envelopeOf, type TestApp } from './harness'

let t: TestApp
type Caller = Awaited<ReturnType<typeof signInUser>>
/** Someone else, whose addresses the tests try to reach. */
let other: Caller
let othersAddressId: number

before(async () => {
  t = await startTestApp()
  other = await signInUser(t.app)
  othersAddressId = (await add(other, shenzhen())).data.id
})
after(() => t.close())

interface Address {
  id: number
  name: string
  mobile: string
  provinceCode: number
  cityCode: number
  districtCode: number
  regionText: string
  detail: string
  latitude: string | null
  longitude: string | null
  isDefault: boolean
}

const shenzhen = (over: Record<string, unknown> = {}) => ({
  name: '张三丰',
  mobile: '13812345678',
  provinceCode: 440000,
  cityCode: 440300,
  districtCode: 440305,
  detail: '科技园南区深南大道10000号',
  ...over,
})

const headersOf = (c?: { headers: Record<string, string> }) => c?.headers
const list = (c?: Caller | { headers: Record<string, string> }) =>
  t.app.inject({ method: 'GET', url: '/dld-hospital/addressList', headers: headersOf(c) }).then((r) => envelopeOf<Address[]>(r))
const add = (c: { headers: Record<string, string> } | undefined, body: unknown) =>
  t.app.inject({ method: 'POST', url: '/dld-hospital/addAddress', headers: headersOf(c), payload: body as object }).then((r) => envelopeOf<Address>(r))
const update = (c: { headers: Record<string, string> } | undefined, id: number | string, body: unknown) =>
  t.app
    .inject({ method: 'PUT', url: `/dld-hospital/updateAddress/${id}`, headers: headersOf(c), payload: body as object })
    .then((r) => envelopeOf<Address>(r))
const detail = (c: { headers: Record<string, string> } | undefined, id: number | string) =>
  t.app.inject({ method: 'GET', url: `/dld-hospital/address/${id}`, headers: headersOf(c) }).then((r) => envelopeOf<Address>(r))
const remove = (c: { headers: Record<string, string> } | undefined, id: number | string) =>
  t.app
    .inject({ method: 'DELETE', url: `/dld-hospital/address/${id}`, headers: headersOf(c) })
    .then((r) => envelopeOf<{ defaultAddressId: number | null }>(r))

/** What the database holds for a user, to show that refused calls changed nothing. */
const rowsOf = (userId: number) => t.database.db.select().from(addresses).where(eq(addresses.userId, userId)).orderBy(addresses.id)

describe('GET /dld-hospital/addressList', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    const anon = await list()
    assert.equal(anon.code, 401)
    assert.equal(anon.data, null)
    const unbound = await list(await signInWechat(t.app))
    assert.equal(unbound.code, 403)
    assert.equal(unbound.msg, '请先绑定手机号')
  })

  it('is empty for a new user and never shows someone else’s addresses', async () => {
    const u = await signInUser(t.app)
    const env = await list(u)
    assert.equal(env.code, 200)
    assert.deepEqual(env.data, [])
  })

  it('lists the default first, then the newest, with names and mobiles masked', async () => {
    const u = await signInUser(t.app)
    const first = (await add(u, shenzhen({ name: '张三丰', mobile: '13812345678' }))).data
    const second = (await add(u, shenzhen({ name: '李四', mobile: '13912340000', detail: '南山大道1号' }))).data
    const third = (await add(u, shenzhen({ name: '欧阳娜娜', mobile: '13700001111', detail: '后海大道2号' }))).data
    const env = await list(u)
    assert.equal(env.code, 200)
    assert.deepEqual(
      env.data.map((a) => a.id),
      [first.id, third.id, second.id],
    )
    const [head, ...rest] = env.data
    assert.equal(head!.isDefault, true)
    assert.ok(rest.every((a) => !a.isDefault))
    assert.equal(head!.name, '张*丰')
    assert.equal(head!.mobile, '138****5678')
    assert.equal(env.data[1]!.name, '欧**娜')
    assert.equal(env.data[2]!.name, '李*')
    assert.equal(env.data[2]!.mobile, '139****0000')
    // the street address is what the patient checks before ordering: shown as saved
    assert.equal(head!.detail, '科技园南区深南大道10000号')
    assert.equal(head!.regionText, '广东省 深圳市 南山区')
  })
})

describe('POST /dld-hospital/addAddress', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    assert.equal((await add(undefined, shenzhen())).code, 401)
    const unbound = await add(await signInWechat(t.app), shenzhen())
    assert.equal(unbound.code, 403)
    assert.equal(unbound.data, null)
  })

  it('refuses bad input with a message and saves nothing', async () => {
    const u = await signInUser(t.app)
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: '' }, /请输入收货人姓名/],
      [{ name: '   ' }, /请输入收货人姓名/],
      [{ name: '张'.repeat(21) }, /收货人姓名不能超过20个字/],
      [{ mobile: '1381234567' }, /手机号格式不正确/],
      [{ mobile: '12812345678' }, /手机号格式不正确/],
      [{ detail: '号' }, /请输入详细地址/],
      [{ detail: '路'.repeat(141) }, /详细地址不能超过140个字/],
      [{ provinceCode: 'abc' }, /^参数错误/],
      [{ cityCode: { code: 440300 } }, /^参数错误/],
      [{ name: 12345 }, /^参数错误/],
      [{ latitude: '91.5' }, /纬度不正确/],
      [{ longitude: 'east' }, /经度不正确/],
      [{ isDefault: 'maybe' }, /^参数错误/],
    ]
    for (const [over, msg] of cases) {
      const env = await add(u, shenzhen(over))
      assert.equal(env.code, 400, JSON.stringify(over))
      assert.match(env.msg, msg, JSON.stringify(over))
      assert.equal(env.data, null)
    }
    const { name: _omit, ...noName } = shenzhen()
    assert.equal((await add(u, noName)).code, 400)
    assert.deepEqual(await rowsOf(u.userId), [])
  })

  it('refuses regions that do not exist or do not form one chain, and saves nothing', async () => {
    const u = await signInUser(t.app)
    const chains: Record<string, number>[] = [
      // Shenzhen's district under Beijing
      { provinceCode: 110000, cityCode: 110100, districtCode: 440305 },
      // a city of another province
      { provinceCode: 440000, cityCode: 110100, districtCode: 110101 },
      // levels swapped
      { provinceCode: 440300, cityCode: 440000, districtCode: 440305 },
      { provinceCode: 440000, cityCode: 440305, districtCode: 440300 },
      // codes that do not exist
      { provinceCode: 440000, cityCode: 440300, districtCode: 440399 },
      { provinceCode: 990000, cityCode: 990100, districtCode: 990101 },
    ]
    for (const chain of chains) {
      const env = await add(u, shenzhen(chain))
      assert.equal(env.code, 400, JSON.stringify(chain))
      assert.equal(env.msg, '所在地区不正确，请重新选择')
    }
    assert.deepEqual(await rowsOf(u.userId), [])
  })

  it('answers the whole address; the first becomes the default', async () => {
    const u = await signInUser(t.app)
    const env = await add(u, shenzhen({ latitude: '22.5431', longitude: '113.9344', isDefault: false }))
    assert.equal(env.code, 200)
    assert.equal(env.msg, 'success')
    assert.deepEqual({ ...env.data, id: 0 }, {
      id: 0,
      name: '张三丰',
      mobile: '13812345678',
      provinceCode: 440000,
      cityCode: 440300,
      districtCode: 440305,
      regionText: '广东省 深圳市 南山区',
      detail: '科技园南区深南大道10000号',
      latitude: '22.5431',
      longitude: '113.9344',
      isDefault: true,
    })
  })

  it('names a municipality once and leaves placeholder cities out', async () => {
    const u = await signInUser(t.app)
    const beijing = await add(u, shenzhen({ provinceCode: 110000, cityCode: 110100, districtCode: 110105 }))
    assert.equal(beijing.code, 200)
    assert.equal(beijing.data.regionText, '北京市 朝阳区')
    const county = await add(u, shenzhen({ provinceCode: 500000, cityCode: 500200, districtCode: 500229 }))
    assert.equal(county.code, 200)
    assert.equal(county.data.regionText, '重庆市 城口县')
  })

  it('moves the default to a new address asked to be it; a form-encoded body works too', async () => {
    const u = await signInUser(t.app)
    const first = (await add(u, shenzhen())).data
    const res = await t.app.inject({
      method: 'POST',
      url: '/dld-hospital/addAddress',
      headers: { ...u.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...shenzhen(), provinceCode: '440000', cityCode: '440300', districtCode: '440305', isDefault: 'true' } as Record<string, string>).toString(),
    })
    const second = envelopeOf<Address>(res)
    assert.equal(second.code, 200)
    assert.equal(second.data.isDefault, true)
    const third = (await add(u, shenzhen({ isDefault: 'false' }))).data
    assert.equal(third.isDefault, false)
    const now = await list(u)
    assert.deepEqual(
      now.data.map((a) => [a.id, a.isDefault]),
      [
        [second.data.id, true],
        [third.id, false],
        [first.id, false],
      ],
    )
  })

  it(`keeps at most ${MAX_ADDRESSES} addresses`, async () => {
    const u = await signInUser(t.app)
    for (let i = 0; i < MAX_ADDRESSES; i++) assert.equal((await add(u, shenzhen({ detail: `第${i}号楼` }))).code, 200)
    const env = await add(u, shenzhen({ detail: '再来一个' }))
    assert.equal(env.code, 400)
    assert.equal(env.msg, `最多可保存${MAX_ADDRESSES}个收货地址`)
    assert.equal((await rowsOf(u.userId)).length, MAX_ADDRESSES)
    // deleting one makes room again
    const [last] = (await list(u)).data.slice(-1)
    assert.equal((await remove(u, last!.id)).code, 200)
    assert.equal((await add(u, shenzhen({ detail: '再来一个' }))).code, 200)
  })

  it('concurrent adds keep one default and the limit (a race shows on the PostgreSQL run)', async () => {
    const u = await signInUser(t.app)
    const envs = await Promise.all(Array.from({ length: MAX_ADDRESSES + 4 }, (_, i) => add(u, shenzhen({ detail: `并发${i}号`, isDefault: i % 2 === 0 }))))
    assert.equal(envs.filter((e) => e.code === 200).length, MAX_ADDRESSES)
    assert.ok(envs.every((e) => e.code === 200 || e.msg === `最多可保存${MAX_ADDRESSES}个收货地址`))
    const rows = await rowsOf(u.userId)
    assert.equal(rows.length, MAX_ADDRESSES)
    assert.equal(rows.filter((r) => r.isDefault).length, 1)
  })

  it('keeps name, mobile and street address encrypted in the table', async () => {
    const u = await signInUser(t.app)
    await add(u, shenzhen({ name: '王小明', mobile: '13655556666', detail: '加密路8号' }))
    const [row] = await rowsOf(u.userId)
    const raw = JSON.stringify(row)
    for (const plain of ['王小明', '13655556666', '加密路8号']) assert.ok(!raw.includes(plain), plain)
  })
})

describe('PUT /dld-hospital/updateAddress/:id', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    assert.equal((await update(undefined, othersAddressId, shenzhen())).code, 401)
    assert.equal((await update(await signInWechat(t.app), othersAddressId, shenzhen())).code, 403)
  })

  it('refuses bad input and a bad region chain, changing nothing', async () => {
    const u = await signInUser(t.app)
    const saved = (await add(u, shenzhen())).data
    const before = await rowsOf(u.userId)
    for (const over of [{ name: '' }, { mobile: 'x' }, { detail: '路'.repeat(141) }, { districtCode: 110101 }]) {
      const env = await update(u, saved.id, shenzhen(over))
      assert.equal(env.code, 400, JSON.stringify(over))
      assert.equal(env.data, null)
    }
    assert.equal((await update(u, 'abc', shenzhen())).code, 400)
    assert.deepEqual(await rowsOf(u.userId), before)
  })

  it('answers 2999 for someone else’s address and changes nothing', async () => {
    const u = await signInUser(t.app)
    const before = await rowsOf(other.userId)
    const env = await update(u, othersAddressId, shenzhen({ name: '冒名顶替' }))
    assert.equal(env.code, 2999)
    assert.equal(env.data, null)
    // a missing id looks the same
    assert.equal((await update(u, 99_999_999, shenzhen())).code, 2999)
    assert.deepEqual(await rowsOf(other.userId), before)
  })

  it('answers the whole changed address; isDefault moves the default, and the default stays one', async () => {
    const u = await signInUser(t.app)
    const a = (await add(u, shenzhen())).data
    const b = (await add(u, shenzhen({ detail: '南山大道1号' }))).data
    const changed = await update(u, b.id, shenzhen({ name: '赵六', mobile: '13500001234', districtCode: 440304, detail: '福田路1号', isDefault: true }))
    assert.equal(changed.code, 200)
    assert.equal(changed.data.name, '赵六')
    assert.equal(changed.data.mobile, '13500001234')
    assert.equal(changed.data.regionText, '广东省 深圳市 福田区')
    assert.equal(changed.data.isDefault, true)
    assert.equal((await detail(u, a.id)).data.isDefault, false)
    // unticking the default does not leave the account without one
    const kept = await update(u, b.id, shenzhen({ isDefault: false }))
    assert.equal(kept.data.isDefault, true)
    assert.deepEqual(
      (await list(u)).data.map((x) => [x.id, x.isDefault]),
      [
        [b.id, true],
        [a.id, false],
      ],
    )
  })
})

describe('GET /dld-hospital/address/:id', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    assert.equal((await detail(undefined, othersAddressId)).code, 401)
    assert.equal((await detail(await signInWechat(t.app), othersAddressId)).code, 403)
  })

  it('refuses an id that is not a number', async () => {
    const u = await signInUser(t.app)
    const env = await detail(u, 'abc')
    assert.equal(env.code, 400)
    assert.match(env.msg, /^参数错误/)
  })

  it('answers 2999 with nothing for someone else’s or a deleted address', async () => {
    const u = await signInUser(t.app)
    const env = await detail(u, othersAddressId)
    assert.equal(env.code, 2999)
    assert.equal(env.data, null)
    const mine = (await add(u, shenzhen())).data
    await remove(u, mine.id)
    assert.equal((await detail(u, mine.id)).code, 2999)
  })

  it('answers the address whole, for the edit page', async () => {
    const u = await signInUser(t.app)
    const saved = (await add(u, shenzhen())).data
    const env = await detail(u, saved.id)
    assert.equal(env.code, 200)
    assert.deepEqual(env.data, saved)
    assert.equal(env.data.name, '张三丰')
    assert.equal(env.data.mobile, '13812345678')
  })
})

describe('DELETE /dld-hospital/address/:id', () => {
  it('answers 401 without a token and 403 before a mobile is bound', async () => {
    assert.equal((await remove(undefined, othersAddressId)).code, 401)
    assert.equal((await remove(await signInWechat(t.app), othersAddressId)).code, 403)
  })

  it('answers 2999 for someone else’s address and deletes nothing', async () => {
    const u = await signInUser(t.app)
    const env = await remove(u, othersAddressId)
    assert.equal(env.code, 2999)
    assert.equal(env.data, null)
    assert.equal((await detail(other, othersAddressId)).code, 200)
    assert.equal((await remove(u, 'x')).code, 400)
  })

  it('deleting the default makes the newest remaining one the default', async () => {
    const u = await signInUser(t.app)
    const a = (await add(u, shenzhen({ detail: '一号楼' }))).data
    const b = (await add(u, shenzhen({ detail: '二号楼' }))).data
    const c = (await add(u, shenzhen({ detail: '三号楼' }))).data
    const notDefault = await remove(u, b.id)
    assert.equal(notDefault.code, 200)
    assert.deepEqual(notDefault.data, { defaultAddressId: null })
    const env = await remove(u, a.id)
    assert.deepEqual(env.data, { defaultAddressId: c.id })
    assert.deepEqual(
      (await list(u)).data.map((x) => [x.id, x.isDefault]),
      [[c.id, true]],
    )
    // once deleted it is gone for its owner too; the row stays for the orders that name it
    assert.equal((await remove(u, a.id)).code, 2999)
    assert.equal((await rowsOf(u.userId)).length, 3)
    assert.deepEqual((await remove(u, c.id)).data, { defaultAddressId: null })
    assert.deepEqual((await list(u)).data, [])
    // the next address becomes the default again
    assert.equal((await add(u, shenzhen())).data.isDefault, true)
  })
})

describe('GET /dld-system/nation/parent/:id', () => {
  type Region = { code: number; name: string; level: number; leaf: boolean }
  const children = (id: string | number) =>
    t.app.inject({ method: 'GET', url: `/dld-system/nation/parent/${id}` }).then((r) => envelopeOf<Region[]>(r))

  it('answers the provinces for 0, sorted by code, to anyone', async () => {
    const env = await children(0)
    assert.equal(env.code, 200)
    assert.equal(env.data.length, 34)
    assert.deepEqual(env.data[0], { code: 110000, name: '北京市', level: 1, leaf: false })
    assert.ok(env.data.some((r) => r.code === 440000 && r.name === '广东省'))
    const codes = env.data.map((r) => r.code)
    assert.deepEqual(codes, [...codes].sort((x, y) => x - y))
  })

  it('answers cities, then districts as leaves', async () => {
    const cities = await children(440000)
    assert.ok(cities.data.some((r) => r.code === 440300 && r.name === '深圳市' && r.level === 2 && !r.leaf))
    const districts = await children(440300)
    assert.ok(districts.data.some((r) => r.code === 440305 && r.name === '南山区' && r.level === 3 && r.leaf))
    assert.ok(districts.data.every((r) => r.leaf))
    assert.deepEqual(await children(440305).then((e) => e.data), [])
  })

  it('answers [] for an unknown code and 400 for one that is not a code', async () => {
    assert.deepEqual((await children(999999)).data, [])
    for (const bad of ['abc', '-1', '1.5', '10000000']) {
      const env = await children(bad)
      assert.equal(env.code, 400, bad)
      assert.match(env.msg, /^参数错误/)
    }
  })
})

describe('GET /dld-system/map/getLocation', () => {
  const locate = (location: string | undefined, headers?: Record<string, string>) =>
    t.app
      .inject({ method: 'GET', url: '/dld-system/map/getLocation', query: location === undefined ? {} : { location }, headers })
      .then((r) => envelopeOf(r))

  it('answers 401 without a token; a signed-in identity without a mobile may locate', async () => {
    assert.equal((await locate('23.1291,113.2644')).code, 401)
    const s = await signInWechat(t.app)
    assert.equal((await locate('23.1291,113.2644', s.headers)).code, 200)
  })

  it('refuses coordinates that are not two numbers in range', async () => {
    const s = await signInWechat(t.app)
    for (const bad of ['', 'abc', '23.1', '23.1,', ',113', '23.1,113.2,5', '91,100', '-90.5,100', '23,181', '23,-180.01', '二十三,113', '0x17,113']) {
      const env = await locate(bad, s.headers)
      assert.equal(env.code, 400, bad)
      assert.match(env.msg, /坐标格式不正确|^参数错误/, bad)
      assert.equal(env.data, null)
    }
    assert.equal((await locate(undefined, s.headers)).code, 400)
  })

  it('answers the nearest provincial capital’s centre in the sandbox', async () => {
    const s = await signInWechat(t.app)
    const env = await locate('23.13,113.27', s.headers)
    assert.equal(env.code, 200)
    assert.deepEqual(env.data, {
      latitude: 23.13,
      longitude: 113.27,
      address: '广东省广州市越秀区（模拟定位）',
      name: '广州市中心',
      province: '广东省',
      city: '广州市',
      district: '越秀区',
      provinceCode: 440000,
      cityCode: 440100,
      districtCode: 440104,
    })
    // Foshan is nearer Guangzhou than any other capital; a municipality is named once
    assert.equal((await locate('23.02,113.12', s.headers)).data.city, '广州市')
    const beijing = await locate('39.95, 116.3', s.headers)
    assert.equal(beijing.data.address, '北京市东城区（模拟定位）')
    assert.equal(beijing.data.districtCode, 110101)
  })

  it('answers 400 outside the service area', async () => {
    const s = await signInWechat(t.app)
    for (const far of ['48.8566,2.3522', '-33.87,151.21', '0,0']) {
      const env = await locate(far, s.headers)
      assert.equal(env.code, 400, far)
      assert.equal(env.msg, '当前位置不在服务范围内')
    }
  })
})
