import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Tx } from '../../server/src/db'
import { hmacHex } from '../../server/src/crypto'
import { AppError } from '../../server/src/errors'
import { httpHis, type HisAdmission } from '../../server/src/plugins/providers/his'

const H = '10392'
/** The adapter calls a remote HIS from inside the app's transaction, never through it. */
const NO_TX = {} as Tx

/**
 * A small HIS speaking the documented account and admission contract on 127.0.0.1: it checks the app id and the
 * signature of every body, keeps one account and two stays in memory, credits once per orderNo, and records what it
 * was asked. With `malformed` set it answers every call without its fields.
 */
function standInHis(appId: string, secret: string) {
  const calls: { path: string; body: Record<string, unknown> }[] = []
  const state = { malformed: false, balanceFen: 5000, credited: new Set<string>() }
  const stay = (admissionNo: string, status: 'in' | 'discharged', depositFen: number): HisAdmission => ({
    admissionNo,
    deptName: '心血管内科',
    ward: '心内科一病区',
    bed: '12床',
    doctorName: '姚秀英',
    admittedAt: '2026-11-20T02:00:00.000Z',
    status,
    dischargedAt: status === 'discharged' ? '2026-11-22T02:00:00.000Z' : null,
    depositFen,
    costFen: 120000,
    balanceFen: depositFen - 120000,
    days: [
      { date: '2026-11-20', amountFen: 80000 },
      { date: '2026-11-21', amountFen: 40000 },
    ],
    settlement: status === 'discharged' ? { returnedFen: 0, owedFen: 120000 - depositFen } : null,
  })
  const stays = new Map([
    ['ZY0001', stay('ZY0001', 'in', 100000)],
    ['ZY0000', stay('ZY0000', 'discharged', 0)],
  ])
  const ok = (data: unknown) => ({ code: 0, data })
  const answer = (path: string, body: Record<string, unknown>): unknown => {
    if (state.malformed) return ok({ accountNo: 7, admissions: [{ admissionNo: 'ZY0001' }], admission: null, items: [{ code: 1 }] })
    const patient = body.patient as { cardNo: string | null; idCard: string | null; name: string } | undefined
    switch (path) {
      case '/account/query':
        if (!patient?.name || !(patient.idCard || patient.cardNo)) return { code: 3000, msg: '患者信息不全' }
        return ok({ accountNo: 'A000000000123', balanceFen: state.balanceFen })
      case '/account/credit':
        if (body.accountNo !== 'A000000000123') return { code: 3001, msg: '就诊卡账户不存在' }
        if (!state.credited.has(body.orderNo as string)) {
          state.credited.add(body.orderNo as string)
          state.balanceFen += body.amountFen as number
        }
        return ok({ accountNo: 'A000000000123', balanceFen: state.balanceFen })
      case '/admissions/query':
        return ok({ admissions: [...stays.values()] })
      case '/admissions/daily':
        if (body.admissionNo !== 'ZY0001') return { code: 4001, msg: '住院记录不存在' }
        return ok({ items: [{ code: 'JY0001', name: '血常规（五分类）', spec: '项', unit: '项', category: 'lab', quantity: 1, unitPriceFen: 2200, amountFen: 2200 }] })
      case '/admissions/deposit': {
        const a = stays.get(body.accountNo as string)
        if (!a) return { code: 4001, msg: '住院记录不存在' }
        if (a.status !== 'in') return { code: 4002, msg: '该患者已出院结算，不能再缴纳住院预交金' }
        if (!state.credited.has(body.orderNo as string)) {
          state.credited.add(body.orderNo as string)
          a.depositFen += body.amountFen as number
          a.balanceFen += body.amountFen as number
        }
        return ok({ admission: a })
      }
      case '/admissions/settlement': {
        const a = stays.get(body.admissionNo as string)
        if (!a) return { code: 4001, msg: '住院记录不存在' }
        if (a.status !== 'discharged') return ok({ settlement: null })
        return ok({
          settlement: {
            admissionNo: a.admissionNo,
            dischargedAt: a.dischargedAt,
            costFen: a.costFen,
            depositFen: a.depositFen,
            returnedFen: 0,
            owedFen: a.costFen - a.depositFen,
            returns: [],
            categories: [
              { category: 'lab', amountFen: 80000 },
              { category: 'drug', amountFen: 40000 },
            ],
          },
        })
      }
      default:
        return null
    }
  }
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (raw += chunk))
    req.on('end', () => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(body))
      }
      if (req.method !== 'POST' || req.headers['content-type'] !== 'application/json') return reply(405, {})
      if (req.headers['x-app-id'] !== appId || req.headers['x-signature'] !== hmacHex(secret, raw)) return reply(401, { code: 401, msg: 'bad signature' })
      const body = JSON.parse(raw) as Record<string, unknown>
      const path = (req.url ?? '').replace(/^\/his/, '')
      calls.push({ path, body })
      const data = answer(path, body)
      return data === null ? reply(404, {}) : reply(200, data)
    })
  })
  return {
    calls,
    state,
    stays,
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/his`
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

describe('the HIS adapter (httpHis): accounts and admissions against a stand-in of the documented contract', () => {
  const cfg = { appId: 'app-h5', secret: 'his-secret-0123456789' }
  const standIn = standInHis(cfg.appId, cfg.secret)
  const patient = { cardNo: '10392000123', idCard: '310104198511030034', name: '王小明' }
  const paidAt = new Date('2026-11-23T03:00:00Z')
  let url = ''

  before(async () => {
    url = await standIn.start()
  })
  after(() => standIn.close())

  it('reads and credits the outpatient account with signed, documented bodies, once per order', async () => {
    const adapter = httpHis({ url, ...cfg })
    assert.deepEqual(await adapter.account({ hospitalCode: H, patient }), { accountNo: 'A000000000123', balanceFen: 5000 })
    assert.deepEqual(standIn.calls.at(-1), { path: '/account/query', body: { hospitalCode: H, patient } })
    const credit = { hospitalCode: H, accountNo: 'A000000000123', orderNo: 'P20261123000000000011', amountFen: 20000, paidAt, channel: 'sandbox' as const, tradeNo: 'T11' }
    assert.deepEqual(await adapter.creditAccount(NO_TX, credit), { accountNo: 'A000000000123', balanceFen: 25000 })
    assert.deepEqual(standIn.calls.at(-1), { path: '/account/credit', body: { ...credit, paidAt: paidAt.toISOString() } })
    // the same order again: answered, not credited twice
    assert.deepEqual(await adapter.creditAccount(NO_TX, credit), { accountNo: 'A000000000123', balanceFen: 25000 })
  })

  it('reads stays and a day’s charges, and pays a deposit once per order', async () => {
    const adapter = httpHis({ url, ...cfg })
    const stays = await adapter.admissions({ hospitalCode: H, patient })
    assert.deepEqual(stays.map((a) => [a.admissionNo, a.status, a.balanceFen]), [['ZY0001', 'in', -20000], ['ZY0000', 'discharged', -120000]])
    assert.deepEqual(stays[1]!.settlement, { returnedFen: 0, owedFen: 120000 })
    assert.deepEqual(standIn.calls.at(-1), { path: '/admissions/query', body: { hospitalCode: H, patient } })
    const items = await adapter.dailyCharges({ hospitalCode: H, patient, admissionNo: 'ZY0001', date: '2026-11-20' })
    assert.deepEqual(items!.map((i) => [i.code, i.quantity, i.amountFen]), [['JY0001', 1, 2200]])
    assert.deepEqual(standIn.calls.at(-1), { path: '/admissions/daily', body: { hospitalCode: H, patient, admissionNo: 'ZY0001', date: '2026-11-20' } })
    // someone else's stay: the HIS refuses, the caller answers 2999 and says nothing more
    assert.equal(await adapter.dailyCharges({ hospitalCode: H, patient, admissionNo: 'ZY9999', date: '2026-11-20' }), null)
    const deposit = { hospitalCode: H, accountNo: 'ZY0001', orderNo: 'P20261123000000000012', amountFen: 300000, paidAt, channel: 'sandbox' as const, tradeNo: 'T12' }
    const paid = await adapter.deposit(NO_TX, deposit)
    assert.deepEqual([paid.admissionNo, paid.depositFen, paid.balanceFen], ['ZY0001', 400000, 280000])
    assert.deepEqual(standIn.calls.at(-1), { path: '/admissions/deposit', body: { ...deposit, paidAt: paidAt.toISOString() } })
    assert.equal((await adapter.deposit(NO_TX, deposit)).depositFen, 400000)
  })

  it('reads the discharge settlement of a stay: null while in hospital, null for someone else’s (the HIS refuses it)', async () => {
    const adapter = httpHis({ url, ...cfg })
    const settled = await adapter.dischargeSettlement({ hospitalCode: H, patient, admissionNo: 'ZY0000' })
    assert.deepEqual(standIn.calls.at(-1), { path: '/admissions/settlement', body: { hospitalCode: H, patient, admissionNo: 'ZY0000' } })
    assert.equal(settled!.settled!.owedFen, 120000)
    assert.deepEqual(settled!.settled!.categories, [
      { category: 'lab', amountFen: 80000 },
      { category: 'drug', amountFen: 40000 },
    ])
    assert.deepEqual(await adapter.dischargeSettlement({ hospitalCode: H, patient, admissionNo: 'ZY0001' }), { settled: null })
    assert.equal(await adapter.dischargeSettlement({ hospitalCode: H, patient, admissionNo: 'ZY9999' }), null)
  })

  it('turns a refusal into a 400 with the HIS’s message, and a bad answer into an error that is no refusal', async () => {
    const adapter = httpHis({ url, ...cfg })
    const refused = (msg: string) => (err: unknown) => err instanceof AppError && err.code === 400 && err.message === msg
    const late = { hospitalCode: H, accountNo: 'ZY0000', orderNo: 'P20261123000000000013', amountFen: 100000, paidAt, channel: 'sandbox' as const, tradeNo: 'T13' }
    await assert.rejects(adapter.deposit(NO_TX, late), refused('该患者已出院结算，不能再缴纳住院预交金'))
    await assert.rejects(adapter.creditAccount(NO_TX, { ...late, accountNo: 'A-NOT-MINE' }), refused('就诊卡账户不存在'))
    await assert.rejects(adapter.account({ hospitalCode: H, patient: { cardNo: null, idCard: null, name: '王小明' } }), refused('患者信息不全'))
    assert.equal(standIn.stays.get('ZY0000')!.depositFen, 0)
    // a wrong secret: the HIS answers 401, which is nothing the patient can act on
    const unsigned = httpHis({ url, appId: cfg.appId, secret: 'wrong' })
    await assert.rejects(unsigned.admissions({ hospitalCode: H, patient }), (err: unknown) => err instanceof Error && !(err instanceof AppError))
    // answers without their fields: plain errors (the payment is told again later), never read as an answer
    standIn.state.malformed = true
    try {
      const before = standIn.state.balanceFen
      const notRefusal = (err: unknown) => err instanceof Error && !(err instanceof AppError) && /without its fields/.test(err.message)
      await assert.rejects(adapter.account({ hospitalCode: H, patient }), notRefusal)
      await assert.rejects(adapter.creditAccount(NO_TX, { ...late, accountNo: 'A000000000123', orderNo: 'P20261123000000000014' }), notRefusal)
      await assert.rejects(adapter.admissions({ hospitalCode: H, patient }), notRefusal)
      await assert.rejects(adapter.dailyCharges({ hospitalCode: H, patient, admissionNo: 'ZY0001', date: '2026-11-20' }), notRefusal)
      await assert.rejects(adapter.deposit(NO_TX, { ...late, accountNo: 'ZY0001', orderNo: 'P20261123000000000015' }), notRefusal)
      await assert.rejects(adapter.dischargeSettlement({ hospitalCode: H, patient, admissionNo: 'ZY0000' }), notRefusal)
      assert.equal(standIn.state.balanceFen, before)
    } finally {
      standIn.state.malformed = false
    }
  })
})
