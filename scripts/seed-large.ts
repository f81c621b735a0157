// `npm run seed:large [-- --force] [-- --scale 0.1]`: a large hospital for benchmarks, into the PostgreSQL database of
// DATABASE_URL, on top of the demo seed: 100,000 patients of 60,000 accounts, 1,000,000 orders (registrations,
// outpatient bill payments, pharmacy orders, online consultations) and 1,000,000 chat messages over two years, with
// the sandbox HIS's bills and reports of the same patients. Rows are made in the database (INSERT ... SELECT
// generate_series, in batches); encrypted columns hold real ciphertexts of the server's DATA_KEY, a small pool reused
// except where the server looks a value up (identity numbers: their blind indexes must be each patient's own).
//
// It is for benchmarks only: it refuses a database that holds anything but the demo seed (anyone ever signed in, or a
// large seed already) unless --force.
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { loadConfig } from '../server/src/config'
import { FieldCipher } from '../server/src/crypto'
import { openDatabase } from '../server/src/db'
import { seedIfEmpty, DEMO } from '../server/src/seed'
import { idCardCheckChar } from '../src/utils/idCard'

export interface LargeSize {
  users: number
  patients: number
  registrations: number
  billPayments: number
  pharmacyOrders: number
  consultations: number
  /** Chat messages per consultation. */
  messagesPerConsultation: number
  /** Sandbox HIS reports (not orders: what 报告查询 lists). */
  reports: number
  /** Rows of the audit log: the patients' reads of their records. */
  audits: number
}

/** The hospital of issue 21: 1,000,000 orders and 1,000,000 messages. `scale` shrinks every count alike. */
export function largeSize(scale = 1): LargeSize {
  const n = (v: number) => Math.max(1, Math.round(v * scale))
  return {
    users: n(60_000),
    patients: n(100_000),
    registrations: n(350_000),
    billPayments: n(250_000),
    pharmacyOrders: n(200_000),
    consultations: n(200_000),
    messagesPerConsultation: 5,
    reports: n(300_000),
    audits: n(1_000_000),
  }
}

const BATCH = 50_000
const DAYS = 730

/** A made-up, checksum-valid identity number, distinct per n: a birthday of 1940-2008 by n, then the area and sequence. */
export function largeIdCard(n: number): string {
  const birthday = new Date(Date.UTC(1940, 0, 1) + (n % 25_000) * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '')
  const area = 110101 + (Math.floor(n / 25_000) % 99)
  const seq = String(Math.floor(n / (25_000 * 99)) % 1000).padStart(3, '0')
  const body = `${area}${birthday}${seq}`
  return body + idCardCheckChar(body)
}

/** The mobile of the large seed's account n (147 and eight digits). */
export const largeMobile = (n: number) => `147${String(n).padStart(8, '0')}`

/** How a large seed's patient n is known: to the app (its account's patients) and to the sandbox HIS. */
export const largePatient = (cipher: FieldCipher, n: number) => {
  const idCard = largeIdCard(n)
  return { idCard, personIndex: cipher.blindIndex(idCard), hisKey: cipher.blindIndex(`his:id:${idCard}`) }
}

async function refuseUnlessEmpty(client: pg.Client, force: boolean) {
  if (force) return
  const { rows } = await client.query<{ signedIn: boolean; large: boolean }>(
    `select exists(select 1 from sessions) as "signedIn", exists(select 1 from users where nickname like 'large:%') as large`,
  )
  if (rows[0]!.signedIn) throw new Error('the database holds more than the demo seed (someone has signed in); seed:large is for benchmark databases only (--force to seed it anyway)')
  if (rows[0]!.large) throw new Error('the database holds a large seed already (--force to add another)')
}

/**
 * Seeds the large hospital into the database of `url` (the demo seed must be there). `log` hears each step with its
 * time. Answers the seconds it took.
 */
export async function seedLarge(url: string, cipher: FieldCipher, opts: { scale?: number; force?: boolean; log?: (line: string) => void } = {}): Promise<number> {
  const size = largeSize(opts.scale)
  const log = opts.log ?? (() => {})
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const started = Date.now()
  let stepStarted = started
  const step = (what: string) => {
    log(`  ${what}: ${((Date.now() - stepStarted) / 1000).toFixed(1)} s`)
    stepStarted = Date.now()
  }
  // a prefix of the run: --force may add a second large seed beside the first, every number stays unique
  const tag = randomBytes(3).toString('hex')
  try {
    await refuseUnlessEmpty(client, opts.force ?? false)
    // bulk load: nothing here waits for a flush to disk per statement
    await client.query('set synchronous_commit = off')
    // every row made here refers to rows that exist: a superuser skips the foreign-key triggers, which are most of the
    // time of a batch; anyone else has them checked
    await client.query('set session_replication_role = replica').catch(() => undefined)
    const pool = (values: string[]) => values.map((v) => cipher.encrypt(v))
    const names = pool(['王芳', '李娜', '张伟', '刘洋', '陈静', '杨磊', '赵敏', '黄勇', '周杰', '吴霞', '徐强', '孙丽', '马超', '朱琳', '胡军', '郭敏'])
    const texts = pool(['咳嗽三天，有痰', '头痛伴低热', '血压偏高，想咨询用药', '胃部不适，饭后胀气', '复查结果想请医生看看', '好的，谢谢医生'])
    const items = pool([JSON.stringify([{ name: '阿莫西林胶囊', spec: '0.25g*24粒', unit: '盒', quantity: 1, unitPriceFen: 1850, amountFen: 1850 }])])

    const { rows: hs } = await client.query<{ id: number; code: string }>(`select id, code from hospitals where code = any($1)`, [[DEMO.both.code, DEMO.internet.code]])
    const palm = hs.find((h) => h.code === DEMO.both.code)
    if (!palm) throw new Error('the demo seed is missing: seed:large goes on top of it')
    const { rows: docs } = await client.query<{ id: number; dept: number }>(`select id, dept_id as dept from doctors where hospital_id = $1 order by id`, [palm.id])
    const { rows: sched } = await client.query<{ id: number }>(`select id from schedules where hospital_id = $1 order by id limit 1`, [palm.id])
    const { rows: online } = await client.query<{ id: number; hospital: number; name: string }>(
      `select d.id, o.hospital_id as hospital, d.name from online_doctors o join doctors d on d.id = o.doctor_id order by d.id`,
    )
    const { rows: shelf } = await client.query<{ store: number; hospital: number; drug: number; name: string; spec: string; unit: string; price: number }>(
      `select s.id as store, s.hospital_id as hospital, d.id as drug, d.name, d.spec, d.unit, d.price_fen as price
         from pharmacy_stores s join drugs d on d.hospital_id = s.hospital_id and d.on_shelf and not d.rx order by s.id, d.id limit 1`,
    )
    if (!docs.length || !sched.length || !online.length || !shelf.length) throw new Error('the demo seed is incomplete: no doctors, schedules, online doctors or shop medicines')

    // -- accounts and patients ------------------------------------------------------------------------------------
    // each account its own mobile (147 and its number), found by the blind index like any other; the nickname marks
    // the accounts of this seed. The account holder (本人) has the account's mobile, so their reports need no code.
    await client.query('create temp table lu (n int primary key, id int not null)')
    for (let from = 0; from < size.users; from += 10_000) {
      const ns = Array.from({ length: Math.min(size.users, from + 10_000) - from }, (_, i) => from + i)
      const phones = ns.map(largeMobile)
      await client.query(
        `with src as (select * from unnest($1::int[], $2::text[], $3::text[]) as s(n, mobile_enc, mobile_index)),
              ins as (
                insert into users (nickname, mobile_enc, mobile_index, source_type, created_at)
                select 'large:${tag}:' || n, mobile_enc, mobile_index, 0, now() - ((n * 7919) % ${DAYS}) * interval '1 day' from src
                returning id, nickname)
         insert into lu select split_part(nickname, ':', 3)::int, id from ins`,
        [ns, phones.map((m) => cipher.encrypt(m)), phones.map((m) => cipher.blindIndex(m))],
      )
    }
    step(`${size.users} accounts`)
    // patient n belongs to account n mod users: the first patient of each account is its holder (本人)
    await client.query('create temp table lp (n int primary key, id int not null, user_id int not null, his_key text not null)')
    for (let from = 0; from < size.patients; from += 10_000) {
      const to = Math.min(size.patients, from + 10_000)
      const ns = Array.from({ length: to - from }, (_, i) => from + i)
      const people = ns.map((n) => largePatient(cipher, n))
      // a relative has a mobile of their own (its number after every account's)
      const mobileEncs = ns.map((n) => cipher.encrypt(largeMobile(n < size.users ? n : size.users + n)))
      await client.query(
        `with src as (select * from unnest($1::int[], $2::text[], $3::text[], $4::text[], $8::text[]) as s(n, person_index, id_card_enc, his_key, mobile_enc)),
              ins as (
                insert into patients (user_id, hospital_id, name_enc, id_card_enc, person_index, mobile_enc, sex, birthday, relation, source, is_default, created_at)
                select lu.id, $5, ($6::text[])[1 + src.n % 16], src.id_card_enc, src.person_index, src.mobile_enc, 1 + src.n % 2,
                       (1940 + src.n % 70) || '-' || lpad((1 + src.n % 12)::text, 2, '0') || '-' || lpad((1 + src.n % 28)::text, 2, '0'),
                       case when src.n < $7 then '本人' else '子女' end, 'idCard', src.n < $7, now() - ((src.n * 7919) % ${DAYS}) * interval '1 day'
                  from src join lu on lu.n = src.n % $7
                returning id, user_id, person_index)
         insert into lp select src.n, ins.id, ins.user_id, src.his_key from ins join src on src.person_index = ins.person_index`,
        [ns, people.map((p) => p.personIndex), people.map((p) => cipher.encrypt(p.idCard)), people.map((p) => p.hisKey), palm.id, names, size.users, mobileEncs],
      )
    }
    step(`${size.patients} patients`)

    // each kind of order: rows g of [0, count), patient (g * 7919) mod patients, a moment in the last two years
    const batches = async (count: number, run: (from: number, to: number) => Promise<unknown>) => {
      for (let from = 0; from < count; from += BATCH) await run(from, Math.min(count, from + BATCH))
    }
    const src = (extra = '') => `
      select g, p.id as patient_id, p.user_id, p.his_key,
             now() - (((g::bigint * 104729) % (${DAYS} * 86400)) * interval '1 second') as at ${extra}
        from generate_series($1::int, $2::int - 1) g join lp p on p.n = (g::bigint * 7919) % ${size.patients}`

    // -- registrations (预约挂号), paid; one in ten cancelled ---------------------------------------------------------
    await batches(size.registrations, (from, to) =>
      client.query(
        `with s as materialized (
           select x.*, nextval('orders_id_seq') as oid, nextval('registrations_id_seq') as rid,
                  ($3::int[])[1 + g % cardinality($3::int[])] as doctor_id, ($4::int[])[1 + g % cardinality($4::int[])] as dept_id
             from (${src()}) x),
         o as (
           insert into orders (id, order_no, user_id, hospital_id, business, business_id, subject, amount_fen, status, channel, trade_no, expires_at, paid_at, idempotency_key, created_at)
           select oid, 'LR${tag}' || g, user_id, $5, 'register', rid, '挂号费', 1000, case when g % 10 = 0 then 'refunded' else 'paid' end, 'sandbox', 'T' || g, at + interval '15 minutes', at, 'large-r-' || g, at from s)
         insert into registrations (id, reg_no, user_id, patient_id, hospital_id, dept_id, doctor_id, schedule_id, slot_id, visit_date, segment, seq, time_range,
                                    register_type, fee_fen, status, order_id, cancelled_at, idempotency_key, created_at)
         select rid, 'GR${tag}' || g, user_id, patient_id, $5, dept_id, doctor_id, $6, 0, to_char((at + interval '3 days') at time zone 'Asia/Shanghai', 'YYYY-MM-DD'),
                case when g % 2 = 0 then 'am' else 'pm' end, 1 + g % 30, '08:00-08:30', '专家号', 1000,
                case when g % 10 = 0 then 'cancelled' else 'booked' end, oid, case when g % 10 = 0 then at + interval '1 hour' end, 'large-r-' || g, at
           from s`,
        [from, to, docs.map((d) => d.id), docs.map((d) => d.dept), palm.id, sched[0]!.id],
      ),
    )
    step(`${size.registrations} registrations and their orders`)

    // -- outpatient bill payments (门诊缴费): the sandbox HIS's bill, the payment, the bill as paid, the order ----------
    await batches(size.billPayments, (from, to) =>
      client.query(
        `with s as materialized (select x.*, nextval('orders_id_seq') as oid, nextval('outpatient_payments_id_seq') as pid from (${src()}) x),
         h as (
           insert into his_bills (hospital_code, bill_no, patient_key, patient_name_enc, visit_no, visit_date, dept_name, doctor_name, title, category, place,
                                  amount_fen, status, order_no, paid_at, performed_at, ordered_at)
           select $3, 'LB${tag}' || g, his_key, $4, 'MZL${tag}' || g, to_char(at at time zone 'Asia/Shanghai', 'YYYY-MM-DD'), '呼吸内科', '门诊医生', '西药费', 'drug', '门诊西药房',
                  1850, 'paid', 'LO${tag}' || g, at, at + interval '1 hour', at - interval '1 hour' from s),
         o as (
           insert into orders (id, order_no, user_id, hospital_id, business, business_id, subject, amount_fen, status, channel, trade_no, expires_at, paid_at, idempotency_key, created_at)
           select oid, 'LO${tag}' || g, user_id, $5, 'outpatient', pid, '门诊缴费', 1850, 'paid', 'sandbox', 'T' || g, at + interval '15 minutes', at, 'large-o-' || g, at from s),
         p as (
           insert into outpatient_payments (id, user_id, patient_id, hospital_id, order_id, his_kind, amount_fen, idempotency_key, created_at)
           select pid, user_id, patient_id, $5, oid, 'sandbox', 1850, 'large-o-' || g, at from s)
         insert into outpatient_bills (payment_id, hospital_id, bill_no, visit_no, visit_date, dept_name, doctor_name, title, category, place, amount_fen, items_enc, ordered_at, status, created_at)
         select pid, $5, 'LB${tag}' || g, 'MZL${tag}' || g, to_char(at at time zone 'Asia/Shanghai', 'YYYY-MM-DD'), '呼吸内科', '门诊医生', '西药费', 'drug', '门诊西药房', 1850, $6,
                at - interval '1 hour', 'paid', at from s`,
        [from, to, palm.code, names[0], palm.id, items[0]],
      ),
    )
    step(`${size.billPayments} outpatient bill payments and their orders`)

    // -- pharmacy orders (药品订单): shop orders for pickup, completed ------------------------------------------------
    const item = shelf[0]!
    await batches(size.pharmacyOrders, (from, to) =>
      client.query(
        `with s as materialized (select x.*, nextval('orders_id_seq') as oid, nextval('pharmacy_orders_id_seq') as qid from (${src()}) x),
         o as (
           insert into orders (id, order_no, user_id, hospital_id, business, business_id, subject, amount_fen, status, channel, trade_no, expires_at, paid_at, idempotency_key, created_at)
           select oid, 'LQ${tag}' || g, user_id, $3, 'pharmacy', qid, '药品订单', $5, 'paid', 'sandbox', 'T' || g, at + interval '15 minutes', at, 'large-q-' || g, at from s),
         q as (
           insert into pharmacy_orders (id, order_code, user_id, hospital_id, patient_id, source, store_id, delivery, drug_fee_fen, total_fen, status, order_id,
                                        pickup_code, paid_at, completed_at, idempotency_key, created_at)
           select qid, 'LQ${tag}' || g, user_id, $3, patient_id, 'shop', $4, 'pickup', $5, $5, 'completed', oid, lpad((g % 1000000)::text, 6, '0'), at, at + interval '1 day',
                  'large-q-' || g, at from s)
         insert into pharmacy_order_lines (pharmacy_order_id, drug_id, drug_name, spec, unit, quantity, price_fen)
         select qid, $6, $7, $8, $9, 1, $5 from s`,
        [from, to, item.hospital, item.store, item.price, item.drug, item.name, item.spec, item.unit],
      ),
    )
    step(`${size.pharmacyOrders} pharmacy orders and their orders`)

    // -- online consultations (图文问诊), finished, each with its conversation -------------------------------------
    await batches(size.consultations, (from, to) =>
      client.query(
        `with s as materialized (
           select x.*, nextval('orders_id_seq') as oid, nextval('inquiries_id_seq') as iid,
                  ($3::int[])[1 + g % cardinality($3::int[])] as doctor_id, ($4::int[])[1 + g % cardinality($4::int[])] as hospital_id,
                  ($5::text[])[1 + g % cardinality($5::text[])] as doctor_name
             from (${src()}) x),
         o as (
           insert into orders (id, order_no, user_id, hospital_id, business, business_id, subject, amount_fen, status, channel, trade_no, expires_at, paid_at, idempotency_key, created_at)
           select oid, 'LI${tag}' || g, user_id, hospital_id, 'inquiry', iid, '图文问诊', 3000, 'paid', 'sandbox', 'T' || g, at + interval '15 minutes', at, 'large-i-' || g, at from s),
         i as (
           insert into inquiries (id, inquiry_no, user_id, patient_id, hospital_id, doctor_id, service_type, description_enc, price_fen, status, order_id, idempotency_key,
                                  paid_at, accepted_at, service_ends_at, finished_at, created_at)
           select iid, 'LI${tag}' || g, user_id, patient_id, hospital_id, doctor_id, 'text', ($6::text[])[1 + g % 5], 3000, 'finished', oid, 'large-i-' || g,
                  at, at + interval '10 minutes', at + interval '1 day', at + interval '1 hour', at from s),
         c as (
           insert into consultations (user_id, hospital_id, order_no, doctor_name, status, peer, last_message, updated_at)
           select user_id, hospital_id, 'LI${tag}' || g, doctor_name, 'finished', 'd_' || doctor_id, '好的，谢谢医生', at + interval '1 hour' from s)
         insert into chat_messages (from_account, to_account, pair_key, order_no, type, payload_enc, client_id, created_at)
         select case when k % 2 = 0 then pa else da end, case when k % 2 = 0 then da else pa end, least(pa, da) || '|' || greatest(pa, da), 'LI${tag}' || g, 'text',
                ($6::text[])[1 + (g + k) % 6], 'L${tag}' || g || '-' || k, at + k * interval '1 minute'
           from (select s.*, '0_' || user_id as pa, 'd_' || doctor_id as da from s) s2, generate_series(0, $7::int - 1) k
          order by g, k`,
        [from, to, online.map((d) => d.id), online.map((d) => d.hospital), online.map((d) => d.name), texts, size.messagesPerConsultation],
      ),
    )
    step(`${size.consultations} consultations, their orders and ${size.consultations * size.messagesPerConsultation} chat messages`)

    // -- the sandbox HIS's reports: lab (with three items) and imaging ------------------------------------------------
    await batches(size.reports, (from, to) =>
      client.query(
        `with s as materialized (select x.*, nextval('his_reports_id_seq') as rid from (${src()}) x),
         r as (
           insert into his_reports (id, hospital_code, report_no, patient_key, patient_name_enc, kind, title, dept_name, doctor_name, reporter_name, checker_name,
                                    specimen, modality, exam_part, findings, impression, requested_at, reported_at)
           select rid, $3, 'LH${tag}' || g, his_key, $4, case when g % 10 < 7 then 'lab' else 'imaging' end,
                  case when g % 10 < 7 then '血常规' else '胸部CT平扫' end, '呼吸内科', '门诊医生', '检验医师', '审核医师',
                  case when g % 10 < 7 then '静脉血' else '' end, case when g % 10 < 7 then '' else 'CT' end, case when g % 10 < 7 then '' else '胸部' end,
                  case when g % 10 < 7 then '' else '双肺纹理清晰，未见明显实质性病变。' end, case when g % 10 < 7 then '' else '胸部CT平扫未见明显异常。' end,
                  at - interval '2 hours', at from s)
         insert into his_report_items (report_id, code, name, value, unit, range, low, high, flag, sort)
         select rid, code, name, value, unit, range, low, high, 'N', sort
           from s, (values ('WBC', '白细胞计数', '6.2', '10^9/L', '3.5-9.5', 3.5, 9.5, 0), ('RBC', '红细胞计数', '4.8', '10^12/L', '4.3-5.8', 4.3, 5.8, 1),
                           ('HGB', '血红蛋白', '145', 'g/L', '130-175', 130, 175, 2)) v(code, name, value, unit, range, low, high, sort)
          where g % 10 < 7`,
        [from, to, palm.code, names[0]],
      ),
    )
    step(`${size.reports} HIS reports`)

    // -- the audit log: each account reading its patients' records ---------------------------------------------------
    await batches(size.audits, (from, to) =>
      client.query(
        `insert into audit_log (at, actor_kind, actor_id, action, subject, route, patient_id, address, request_id)
         select at, 'patient', user_id, 'read', 'registration', 'GET /dld-palm/api/register/list', patient_id, '10.0.0.1', 'large-${tag}-' || g from (${src()}) x`,
        [from, to],
      ),
    )
    step(`${size.audits} audit log rows`)
    await client.query('analyze')
    step('analyze')
    return (Date.now() - started) / 1000
  } finally {
    await client.end()
  }
}

async function main() {
  const args = process.argv.slice(2)
  const url = process.env.DATABASE_URL
  if (!url) throw new Error('seed:large needs DATABASE_URL: a PostgreSQL database for benchmarks (it never seeds the embedded one)')
  const scaleAt = args.indexOf('--scale')
  const scale = scaleAt >= 0 ? Number(args[scaleAt + 1]) : 1
  if (!(scale > 0)) throw new Error('--scale takes a positive number, e.g. --scale 0.1')
  // the server's own key (DATA_KEY, or the one generated into DATA_DIR): it must decrypt what is written here
  const config = loadConfig({ ...process.env, NODE_ENV: 'production', DEMO: '1', LOG_LEVEL: 'warn' })
  const cipher = new FieldCipher(config.dataKey)
  const database = await openDatabase({ url, dataDir: config.dataDir, ...config.database })
  try {
    await seedIfEmpty(database.db, cipher)
  } finally {
    await database.close()
  }
  const seconds = await seedLarge(url, cipher, { scale, force: args.includes('--force'), log: (line) => console.log(line) })
  const size = largeSize(scale)
  const orders = size.registrations + size.billPayments + size.pharmacyOrders + size.consultations
  console.log(`seeded ${size.patients} patients of ${size.users} accounts, ${orders} orders, ${size.consultations * size.messagesPerConsultation} chat messages, ${size.reports} reports and ${size.audits} audit log rows in ${seconds.toFixed(1)} s`)
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err)
    process.exit(1)
  })
}
