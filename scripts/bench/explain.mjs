#!/usr/bin/env node
// `DATABASE_URL=... node scripts/bench/explain.mjs`: EXPLAIN (ANALYZE) of the list and detail queries the patient's
// calls and the workbench's queues make, on a database seeded by `npm run seed:large`, for one typical account of that
// seed. Prints each query's time and plan nodes; a sequential scan of a table over 10,000 rows is flagged. The SQL is
// the shape each domain function builds (named beside it): its WHERE and ORDER BY, which decide the plan.
import pg from 'pg'

const BIG = 10_000
const url = process.env.DATABASE_URL
if (!url) throw new Error('explain.mjs needs DATABASE_URL (a database seeded by npm run seed:large)')
const client = new pg.Client({ connectionString: url })
await client.connect()

const one = async (sql, params = []) => (await client.query(sql, params)).rows[0]
const who = await one(`
  select u.id as user_id, p.id as patient_id,
         (select max(id) from inquiries i where i.user_id = u.id) as inquiry_id,
         (select max(id) from registrations r where r.user_id = u.id) as registration_id
    from users u join patients p on p.user_id = u.id and p.relation = '本人'
   where u.nickname like 'large:%' and exists (select 1 from inquiries i where i.user_id = u.id)
   order by u.id limit 1`)
if (!who) throw new Error('no account of the large seed here: run npm run seed:large first')
const inquiry = await one(`select inquiry_no, doctor_id, hospital_id from inquiries where id = $1`, [who.inquiry_id])
const palm = await one(`select id, code from hospitals where code = '10392'`)
const busiest = await one(`select doctor_id, hospital_id from inquiries group by 1, 2 order by count(*) desc limit 1`)
const store = await one(`select hospital_id from pharmacy_orders group by 1 order by count(*) desc limit 1`)
const me = `0_${who.user_id}`
const peer = `d_${inquiry.doctor_id}`
const pair = me < peer ? `${me}|${peer}` : `${peer}|${me}`
const hisKey = (await one(`select patient_key from his_reports r join report_refs f on f.report_no = r.report_no where f.patient_id = $1 limit 1`, [who.patient_id]))?.patient_key
const anyKey = hisKey ?? (await one(`select patient_key from his_reports order by id limit 1`)).patient_key
const report = await one(`select report_no from his_reports where hospital_code = $1 and patient_key = $2 limit 1`, [palm.code, anyKey])

const QUERIES = [
  ['patients of a user (patient.ts listPatients)', `select * from patients where user_id = $1 and unbound_at is null order by is_default desc, created_at, id`, [who.user_id]],
  ['my registrations: count (register/records.ts)', `select count(*) from registrations where user_id = $1`, [who.user_id]],
  ['my registrations: page', `select * from registrations r left join orders o on o.id = r.order_id where r.user_id = $1 order by r.created_at desc, r.id desc limit 10`, [who.user_id]],
  ['registration detail', `select * from registrations r left join orders o on o.id = r.order_id where r.id = $1`, [who.registration_id]],
  ['bill payments: count (bills/records.ts)', `select count(*) from outpatient_payments p join orders o on o.id = p.order_id where p.user_id = $1`, [who.user_id]],
  ['bill payments: page', `select * from outpatient_payments p join orders o on o.id = p.order_id where p.user_id = $1 order by p.created_at desc, p.id desc limit 10`, [who.user_id]],
  ['paid bill payments: page', `select * from outpatient_payments p join orders o on o.id = p.order_id where p.user_id = $1 and o.status in ('paid', 'refunding', 'refunded') order by p.created_at desc, p.id desc limit 10`, [who.user_id]],
  ['bills of a payment', `select * from outpatient_bills where payment_id = (select max(id) from outpatient_payments where user_id = $1)`, [who.user_id]],
  ['unpaid bills in the HIS (hisSandbox unpaid)', `select * from his_bills where hospital_code = $1 and patient_key = $2 and status = 'unpaid'`, [palm.code, anyKey]],
  ['payment order by number (/dld-pay/order)', `select * from orders where order_no = (select order_no from orders where user_id = $1 limit 1)`, [who.user_id]],
  ['unpaid orders past their time (order sweep)', `select id from orders where status in ('created', 'paying') and expires_at <= now() limit 100`, []],
  ['lab reports in the HIS (reports list)', `select * from his_reports where hospital_code = $1 and patient_key = $2 and kind = 'lab' order by reported_at desc`, [palm.code, anyKey]],
  ['report refs of a patient', `select * from report_refs where hospital_id = $1 and patient_id = $2`, [palm.id, who.patient_id]],
  ['lab report detail (hisSandbox report)', `select * from his_reports where hospital_code = $1 and report_no = $2`, [palm.code, report.report_no]],
  ['report items (lab detail)', `select * from his_report_items where report_id = (select max(id) from his_reports where hospital_code = $1 and patient_key = $2) order by sort`, [palm.code, anyKey]],
  ['consultation list: page (inquiry.ts listInquiries)', `select * from inquiries where user_id = $1 order by created_at desc, id desc limit 10`, [who.user_id]],
  ['past consultations (consultationHistory)', `select * from inquiries where user_id = $1 and paid_at is not null and status in ('finished', 'cancelled', 'closed') order by created_at desc, id desc limit 10`, [who.user_id]],
  ['my consultations tab (hospital.ts)', `select * from consultations c join hospitals h on h.id = c.hospital_id left join inquiries i on i.inquiry_no = c.order_no and i.user_id = c.user_id where c.user_id = $1 order by c.updated_at desc, c.id desc`, [who.user_id]],
  ['chat history (chat.ts history)', `select * from chat_messages where pair_key = $1 order by id desc limit 21`, [pair]],
  ['chat record of a consultation (chatRecord)', `select * from chat_messages where order_no = $1 and (from_account = $2 or to_account = $2) order by id`, [inquiry.inquiry_no, me]],
  ['chat conversations (chat.ts conversations)', `select distinct on (pair_key) * from chat_messages where from_account = $1 or to_account = $1 order by pair_key, id desc`, [me]],
  ['chat unread total', `select count(*) from chat_messages m left join chat_reads r on r.account = $1 and r.peer = m.from_account where m.to_account = $1 and m.id > coalesce(r.last_read_id, 0)`, [me]],
  ['pharmacy orders: page (pharmacy/orders.ts)', `select * from pharmacy_orders o join pharmacy_stores s on s.id = o.store_id where o.user_id = $1 order by o.created_at desc, o.id desc limit 10`, [who.user_id]],
  ['pharmacy order lines', `select * from pharmacy_order_lines where pharmacy_order_id = (select max(id) from pharmacy_orders where user_id = $1)`, [who.user_id]],
  ['prescriptions of a user', `select * from prescriptions where user_id = $1 order by created_at desc, id desc limit 10`, [who.user_id]],
  ['audit log of a patient (audit.ts)', `select * from audit_log where patient_id = $1 order by at desc, id desc limit 20`, [who.patient_id]],
  ['audit log, newest (admin search, no filter)', `select * from audit_log order by at desc, id desc limit 20`, []],
  ['audit log of an actor (admin search)', `select * from audit_log where actor_kind = 'patient' and actor_id = $1 order by at desc, id desc limit 20`, [who.user_id]],
  ['access records of an account (audit.ts accessRecords)', `select * from audit_log where actor_kind in ('staff', 'admin') and (patient_id in (select id from patients where user_id = $1) or user_id = $1) order by at desc, id desc limit 20`, [who.user_id]],
  ['workbench: doctor waiting queue (doctorDesk)', `select * from inquiries where doctor_id = $1 and paid_at is not null and status in ('waiting') order by paid_at, id limit 10`, [busiest.doctor_id]],
  ['workbench: doctor finished tab', `select * from inquiries where doctor_id = $1 and paid_at is not null and status in ('finished', 'cancelled', 'closed') order by paid_at desc, id desc limit 10`, [busiest.doctor_id]],
  ['workbench: doctor tab count', `select count(*) from inquiries where doctor_id = $1 and paid_at is not null and status in ('inProgress')`, [busiest.doctor_id]],
  ['workbench: doctor finished count', `select count(*) from inquiries where doctor_id = $1 and paid_at is not null and status in ('finished', 'cancelled', 'closed')`, [busiest.doctor_id]],
  ['workbench: assistant waiting queue', `select * from inquiries where hospital_id = $1 and paid_at is not null and status in ('waiting') order by paid_at, id limit 10`, [busiest.hospital_id]],
  ['workbench: pharmacist orders (pharmacy/console.ts)', `select id from pharmacy_orders where hospital_id = $1 order by created_at desc, id desc limit 200`, [store.hospital_id]],
  ['workbench: pharmacist orders to ship', `select id from pharmacy_orders where hospital_id = $1 and status = 'paid' order by created_at desc, id desc limit 200`, [store.hospital_id]],
  ['workbench: prescriptions to review', `select * from prescriptions where hospital_id = $1 and status = 'reviewing' order by created_at limit 50`, [busiest.hospital_id]],
]

const sizes = new Map((await client.query(`select relname, n_live_tup::int as n from pg_stat_user_tables`)).rows.map((r) => [r.relname, r.n]))
let flagged = 0
for (const [label, sql, params] of QUERIES) {
  const [{ 'QUERY PLAN': [plan] }] = (await client.query(`explain (analyze, buffers, format json) ${sql}`, params)).rows
  const nodes = []
  const walk = (n) => {
    const table = n['Relation Name']
    const seqBig = n['Node Type'] === 'Seq Scan' && (sizes.get(table) ?? 0) > BIG
    if (seqBig) flagged++
    nodes.push(`${seqBig ? '!! ' : ''}${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : table ? ` ${table}` : ''}${seqBig ? ` (${sizes.get(table)} rows)` : ''}`)
    for (const c of n.Plans ?? []) walk(c)
  }
  walk(plan.Plan)
  console.log(`${label.padEnd(52)} ${plan['Execution Time'].toFixed(2).padStart(9)} ms  ${nodes.join(' > ')}`)
}
console.log(flagged ? `\n${flagged} sequential scan(s) of a table over ${BIG} rows (!!)` : `\nno sequential scan of a table over ${BIG} rows`)
await client.end()
