// The doctors' workbench: sign in, the consultation lists, one consultation with its chat and medical record.
// Plain browser JavaScript, no build step. Calls /dld-doctor/api (envelope {code, msg, data}) and chats over our own
// chat WebSocket /dld-im/ws?sig= exactly like the patients' app (frames: types/api/chat.ts).
'use strict'

const API = '/dld-doctor/api'
const TOKEN_KEY = 'workbench.token'
const LIST_REFRESH_MS = 30000
const RELOGIN_ATTEMPTS = 5
const STATUS_TEXT = { waiting: '待接诊', inProgress: '问诊中', finished: '已结束', cancelled: '已取消', closed: '已关闭', unpaid: '待支付' }
const SEX_TEXT = { 1: '男', 2: '女' }
const MARKS = { start: '医生已接诊', return: '医生已退诊', doctorBusy: '医生忙碌', orderFinished: '问诊已结束' }

const state = {
  token: sessionStorage.getItem(TOKEN_KEY) || '',
  me: null,
  tab: 'waiting',
  current: null, // the open consultation (DeskInquiryDetail)
  messages: new Map(), // id -> ChatMessage of the open conversation
  cursor: null,
  fields: [],
  chosen: new Map(), // code -> DiseaseCode
  socket: null,
  pending: new Map(), // request id -> resolve
  seq: 0,
  relogins: 0,
  refreshTimer: null,
}

const $ = (id) => document.getElementById(id)

/** An element with attributes and children (text is always set as text, never parsed as HTML). */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue
    if (k === 'class') el.className = v
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v)
    else el.setAttribute(k, v === true ? '' : String(v))
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c))
  return el
}

let toastTimer = null
function toast(text) {
  const el = $('status')
  el.textContent = text
  el.hidden = false
  clearTimeout(toastTimer)
  toastTimer = setTimeout(() => (el.hidden = true), 3000)
}

const time = (iso) => (iso ? new Date(iso).toLocaleString('zh-CN', { hour12: false }) : '')
const clientId = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('')

// ---- the API ---------------------------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(code, msg) {
    super(msg)
    this.code = code
  }
}

async function api(method, path, body) {
  const headers = {}
  if (state.token) headers.authorization = `Bearer ${state.token}`
  let payload
  if (body instanceof FormData) payload = body
  else if (body !== undefined) {
    headers['content-type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  let res
  try {
    res = await fetch(API + path, { method, headers, body: payload })
  } catch {
    throw new ApiError(0, '未连接到服务器')
  }
  const env = await res.json().catch(() => null)
  if (!env) throw new ApiError(res.status, res.status === 404 ? '请求的资源不存在' : `服务器错误（${res.status}）`)
  if (env.code === 401 && path !== '/login') {
    signedOut('登录已失效，请重新登录')
    throw new ApiError(401, env.msg)
  }
  if (env.code !== 200) throw new ApiError(env.code, env.code === 2999 ? '暂无权限' : env.msg)
  return env.data
}

/** Runs an action of a button: disabled while it runs, its refusal shown. */
async function act(button, fn) {
  if (button) button.disabled = true
  try {
    return await fn()
  } catch (err) {
    if (err.code !== 401) toast(err.message || '操作失败')
  } finally {
    if (button) button.disabled = false
    if (state.current) renderActions()
  }
}

// ---- signing in and out ----------------------------------------------------------------------------------------

function show(view) {
  $('login-view').hidden = view !== 'login'
  $('desk-view').hidden = view !== 'desk'
}

function signedOut(message) {
  state.token = ''
  state.me = null
  state.current = null
  sessionStorage.removeItem(TOKEN_KEY)
  $('his-open').hidden = true
  $('his').hidden = true
  $('ward-open').hidden = true
  $('ward').hidden = true
  $('medtech-open').hidden = true
  $('medtech').hidden = true
  leavePharmacy()
  pres.templates = null // a doctor's own templates are theirs
  clearInterval(state.refreshTimer)
  closeSocket()
  $('login-error').textContent = message || ''
  show('login')
}

$('login-form').addEventListener('submit', async (e) => {
  e.preventDefault()
  const login = $('login-name').value.trim()
  const password = $('login-password').value
  if (!login || !password) return ($('login-error').textContent = '请输入账号和密码')
  $('login-error').textContent = ''
  const button = e.submitter || $('login-form').querySelector('button')
  button.disabled = true
  try {
    const session = await api('POST', '/login', { login, password })
    state.token = session.token
    sessionStorage.setItem(TOKEN_KEY, session.token)
    $('login-password').value = ''
    await enter(session.staff)
  } catch (err) {
    $('login-error').textContent = err.message
  } finally {
    button.disabled = false
  }
})

$('logout').addEventListener('click', async () => {
  await api('POST', '/logout').catch(() => undefined)
  signedOut('已退出登录')
})

async function enter(me) {
  state.me = me
  $('me-name').textContent = `${me.name}${me.kind === 'assistant' ? '（医生助理）' : me.kind === 'pharmacist' ? '' : '医生'}`
  $('me-where').textContent = [me.hospitalName, me.deptName].filter(Boolean).join(' · ')
  show('desk')
  if (me.kind === 'pharmacist') return enterPharmacy()
  state.fields = await api('GET', '/medicalRecordFields')
  renderRecordFields()
  await refreshLists()
  clearInterval(state.refreshTimer)
  state.refreshTimer = setInterval(() => {
    refreshLists().catch(() => undefined)
    loadPrescriptions().catch(() => undefined)
  }, LIST_REFRESH_MS)
  connect().catch(() => undefined)
  detectHis()
}

// ---- the lists -------------------------------------------------------------------------------------------------

for (const tab of document.querySelectorAll('[role="tab"]')) {
  tab.addEventListener('click', () => {
    state.tab = tab.dataset.tab
    for (const t of document.querySelectorAll('[role="tab"]')) t.setAttribute('aria-selected', String(t === tab))
    refreshLists().catch((err) => toast(err.message))
  })
}

async function refreshLists() {
  const tabs = ['waiting', 'inProgress', 'finished']
  const pages = await Promise.all(tabs.map((s) => api('GET', `/inquiries?status=${s}&size=50`)))
  tabs.forEach((s, i) => (document.querySelector(`[data-count="${s}"]`).textContent = pages[i].total ? String(pages[i].total) : ''))
  renderList(pages[tabs.indexOf(state.tab)].records)
}

function renderList(records) {
  // drawn again only when it changed: items replaced under a doctor's click (on load, a tab, the timer) lose the click
  const key = JSON.stringify([state.current ? state.current.id : null, records.map((r) => [r.id, r.statusText, r.patientName, r.sex, r.age, r.description, r.paidAt])])
  if (key === state.listKey) return
  state.listKey = key
  const list = $('inquiry-list')
  list.replaceChildren(
    ...records.map((r) =>
      h(
        'li',
        null,
        // links, not buttons: the actions (接诊 ...) stay the only buttons of those names
        h(
          'a',
          {
            href: `#inquiry-${r.id}`,
            class: `item${state.current && state.current.id === r.id ? ' active' : ''}`,
            onclick: (e) => {
              e.preventDefault()
              openInquiry(r.id).catch((err) => toast(err.message))
            },
          },
          h('span', { class: 'item-head' }, h('strong', null, r.patientName), ` ${SEX_TEXT[r.sex] || ''} ${r.age}岁`, h('span', { class: 'badge' }, r.statusText)),
          h('span', { class: 'item-text' }, r.description),
          h('span', { class: 'muted item-time' }, time(r.paidAt)),
        ),
      ),
    ),
  )
  $('list-empty').hidden = records.length > 0
}

// ---- one consultation ------------------------------------------------------------------------------------------

$('back').addEventListener('click', () => {
  state.current = null
  document.body.classList.remove('has-detail')
  $('detail').hidden = true
})

async function openInquiry(id) {
  const detail = await api('GET', `/inquiries/${id}`)
  const switching = !state.current || state.current.id !== id
  state.current = detail
  renderDetail()
  document.body.classList.add('has-detail')
  for (const b of document.querySelectorAll('.item')) b.classList.remove('active')
  if (switching) {
    state.messages.clear()
    state.cursor = null
    $('messages').replaceChildren()
    closeDraft()
    loadPrescriptions().catch((err) => toast(err.message))
    await loadHistory().catch((err) => toast(err.message))
  }
}

function renderDetail() {
  const d = state.current
  $('his').hidden = true
  $('ward').hidden = true
  $('detail').hidden = false
  $('detail-title').textContent = `${d.patientName} ${SEX_TEXT[d.sex] || ''} ${d.age}岁`
  $('detail-status').textContent = d.statusText || STATUS_TEXT[d.status]
  $('detail-meta').textContent = [`问诊单号 ${d.inquiryNo}`, d.paidAt && `提交 ${time(d.paidAt)}`, d.acceptedAt && `接诊 ${time(d.acceptedAt)}`, d.finishedAt && `结束 ${time(d.finishedAt)}`]
    .filter(Boolean)
    .join('　')
  $('detail-description').textContent = d.description
  $('detail-pictures').replaceChildren(
    ...d.pictures.map((url, i) => h('a', { href: url, target: '_blank', rel: 'noopener' }, h('img', { src: url, alt: `病情图片${i + 1}`, loading: 'lazy' }))),
  )
  renderIntake(d.intake)
  $('return-form').hidden = true
  renderActions()
  renderRecord()
  renderPrescribe()
}

/** The patient's 问诊单, when they filled it in. */
function renderIntake(intake) {
  $('detail-intake').hidden = !intake
  if (!intake) return $('intake-fields').replaceChildren()
  const rows = [
    ['线下是否就诊', intake.visitedOffline ? '是' : '否'],
    ...(intake.visitedOffline ? [['线下诊断', intake.offlineDiagnosis]] : []),
    ['既往史', intake.pastHistory],
    ['过敏史', intake.allergyHistory],
    ['正在使用的药物', intake.currentMedication],
  ]
  $('intake-fields').replaceChildren(...rows.flatMap(([label, value]) => [h('dt', null, label), h('dd', null, value || '无')]))
}

function renderActions() {
  const d = state.current
  const doctor = state.me && state.me.kind === 'doctor'
  const open = d.status === 'waiting' || d.status === 'inProgress'
  $('act-accept').hidden = !doctor || d.status !== 'waiting'
  $('act-busy').hidden = !open
  $('act-return').hidden = !doctor || !open
  $('act-finish').hidden = !doctor || d.status !== 'inProgress'
  $('send-form').hidden = !open
}

function afterChange(detail, message) {
  state.current = detail
  renderDetail()
  toast(message)
  refreshLists().catch(() => undefined)
}

$('act-accept').addEventListener('click', (e) =>
  act(e.currentTarget, async () => afterChange(await api('POST', `/inquiries/${state.current.id}/accept`), '已接诊')),
)
$('act-busy').addEventListener('click', (e) => act(e.currentTarget, async () => afterChange(await api('POST', `/inquiries/${state.current.id}/busy`), '已告知患者')))
$('act-finish').addEventListener('click', (e) =>
  act(e.currentTarget, async () => afterChange(await api('POST', `/inquiries/${state.current.id}/finish`), '问诊已结束')),
)
$('act-return').addEventListener('click', () => {
  $('return-form').hidden = false
  $('return-reason').focus()
})
$('return-cancel').addEventListener('click', () => ($('return-form').hidden = true))
$('return-form').addEventListener('submit', (e) => {
  e.preventDefault()
  const reason = $('return-reason').value.trim()
  if (!reason) return toast('请填写退诊原因')
  act(e.submitter, async () => {
    const detail = await api('POST', `/inquiries/${state.current.id}/return`, { reason })
    $('return-reason').value = ''
    afterChange(detail, '已退诊，费用将原路退回')
  })
})

// ---- the medical record ----------------------------------------------------------------------------------------

function renderRecordFields() {
  $('record-fields').replaceChildren(
    ...state.fields.map((f) =>
      h(
        'div',
        { class: 'field' },
        h('label', { for: `record-${f.key}` }, f.label, f.required ? h('span', { class: 'required', 'aria-hidden': 'true' }, ' *') : null),
        h('textarea', { id: `record-${f.key}`, name: f.key, rows: f.maxLength > 200 ? 3 : 1, maxlength: f.maxLength, placeholder: `请输入${f.label}`, required: f.required }),
      ),
    ),
  )
}

function renderRecord() {
  const d = state.current
  const record = d.record
  for (const f of state.fields) {
    const el = $(`record-${f.key}`)
    el.value = record ? record.fields[f.key] || '' : ''
    el.disabled = !d.recordEditable
  }
  state.chosen = new Map((record ? record.diseases : []).map((x) => [x.code, x]))
  renderChosen()
  $('disease-results').replaceChildren()
  $('disease-search').value = ''
  $('disease-search').disabled = !d.recordEditable
  $('save-record').hidden = !d.recordEditable
  $('record-hint').textContent = d.recordEditable
    ? record
      ? `上次保存 ${time(record.updatedAt)}`
      : ''
    : record
      ? `病历已保存（${time(record.updatedAt)}）`
      : state.me.kind === 'doctor'
        ? '接诊后可书写病历，问诊结束24小时内可修改'
        : '病历由医生书写'
}

function renderChosen() {
  const editable = state.current && state.current.recordEditable
  $('disease-chosen').replaceChildren(
    ...[...state.chosen.values()].map((x) =>
      h(
        'li',
        { class: 'chip' },
        `${x.name}（${x.code}）`,
        editable ? h('button', { type: 'button', class: 'link', 'aria-label': `移除${x.name}`, onclick: () => (state.chosen.delete(x.code), renderChosen()) }, '×') : null,
      ),
    ),
  )
}

/** A search of the disease list as one types (the record's 疾病编码, the prescription's 诊断); `pick` takes a DiseaseCode. */
function diseaseSearch(input, results, pick) {
  let timer = null
  input.addEventListener('input', () => {
    clearTimeout(timer)
    timer = setTimeout(async () => {
      const keyword = input.value.trim()
      if (!keyword) return results.replaceChildren()
      const found = await api('GET', `/diseases?keyword=${encodeURIComponent(keyword)}`).catch(() => [])
      if (input.value.trim() !== keyword) return // a later keyword is on its way
      results.replaceChildren(...found.map((x) => h('li', null, h('button', { type: 'button', class: 'link', onclick: () => pick(x) }, `${x.name}（${x.deptName}）`))))
    }, 300)
  })
}
diseaseSearch($('disease-search'), $('disease-results'), (x) => (state.chosen.set(x.code, x), renderChosen()))

$('record-form').addEventListener('submit', (e) => {
  e.preventDefault()
  const body = { diseaseCodes: [...state.chosen.keys()] }
  for (const f of state.fields) body[f.key] = $(`record-${f.key}`).value
  const missing = state.fields.find((f) => f.required && !body[f.key].trim())
  if (missing) return toast(`请填写${missing.label}`)
  act($('save-record'), async () => afterChange(await api('PUT', `/inquiries/${state.current.id}/record`, body), '病历已保存'))
})

// ---- the chat --------------------------------------------------------------------------------------------------

function closeSocket() {
  const ws = state.socket
  state.socket = null
  if (ws) ws.close()
  for (const resolve of state.pending.values()) resolve({ ok: false, error: '连接已断开' })
  state.pending.clear()
}

/** Connects with a fresh signature; dropped or kicked out, it connects again (fewer than 5 times in a row, spec §9). */
async function connect() {
  closeSocket()
  const sig = await api('GET', '/im/user-sig')
  if (sig.driver !== 'local') {
    $('chat-state').textContent = '聊天使用腾讯云 IM，本工作台暂不支持'
    return
  }
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/dld-im/ws?sig=${encodeURIComponent(sig.userSig)}`
  const ws = new WebSocket(url)
  state.socket = ws
  $('chat-state').textContent = '聊天连接中…'
  ws.addEventListener('open', () => {
    state.relogins = 0
    $('chat-state').textContent = '聊天已连接'
  })
  ws.addEventListener('message', (e) => {
    let f
    try {
      f = JSON.parse(e.data)
    } catch {
      return
    }
    if (f.op === 'reply') {
      const resolve = state.pending.get(f.id)
      state.pending.delete(f.id)
      if (resolve) resolve(f)
    } else if (f.op === 'message') received(f.message)
    else if (f.op === 'kicked') $('chat-state').textContent = '聊天签名已过期，正在重新连接'
  })
  ws.addEventListener('close', () => {
    if (state.socket !== ws) return
    state.socket = null
    $('chat-state').textContent = '聊天已断开'
    if (state.token && state.relogins < RELOGIN_ATTEMPTS - 1) {
      state.relogins += 1
      setTimeout(() => connect().catch(() => undefined), 1000 * state.relogins)
    }
  })
  await new Promise((resolve) => {
    ws.addEventListener('open', resolve, { once: true })
    ws.addEventListener('close', resolve, { once: true })
  })
}

function request(frame) {
  const ws = state.socket
  if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.reject(new Error('聊天未连接，请稍后重试'))
  const id = `w${++state.seq}`
  return new Promise((resolve, reject) => {
    state.pending.set(id, (f) => (f.ok ? resolve(f.data) : reject(new Error(f.error))))
    ws.send(JSON.stringify({ ...frame, id }))
  })
}

const peer = () => state.current && state.current.patientImAccount

async function loadHistory(older) {
  if (!peer()) return
  if (!state.socket || state.socket.readyState !== WebSocket.OPEN) await connect()
  const page = await request({ op: 'history', peer: peer(), limit: 50, ...(older && state.cursor ? { before: state.cursor } : {}) })
  for (const m of page.messages) state.messages.set(m.id, m)
  state.cursor = page.nextCursor
  $('older').hidden = !page.nextCursor
  renderMessages(!older)
  request({ op: 'read', peer: peer() }).catch(() => undefined)
}
$('older').addEventListener('click', () => loadHistory(true).catch((err) => toast(err.message)))

function received(message) {
  const p = peer()
  if (p && (message.from === p || message.to === p)) {
    state.messages.set(message.id, message)
    renderMessages(true)
    if (message.from === p) request({ op: 'read', peer: p }).catch(() => undefined)
    // a turn of the order changes what the buttons offer
    if (message.description && state.current) api('GET', `/inquiries/${state.current.id}`).then((d) => ((state.current = d), renderDetail())).catch(() => undefined)
    // a pharmacist approved one of its prescriptions: the card went to the patient
    if (message.type === 'prescription') loadPrescriptions().catch(() => undefined)
  } else if (message.from !== (state.me && state.me.imAccount)) toast('收到新的患者消息')
  refreshLists().catch(() => undefined)
}

function renderMessages(toBottom) {
  const mine = state.me.imAccount
  const list = $('messages')
  const sorted = [...state.messages.values()].sort((a, b) => a.time - b.time || Number(a.id) - Number(b.id))
  list.replaceChildren(
    ...sorted.map((m) => {
      const side = m.from === mine ? 'mine' : m.from === peer() ? 'theirs' : 'other'
      const body =
        m.type === 'image'
          ? h('a', { href: m.payload, target: '_blank', rel: 'noopener' }, h('img', { src: m.payload, alt: '图片消息' }))
          : h('span', null, m.type === 'prescription' ? prescriptionCardText(m.payload) : m.payload)
      return h(
        'li',
        { class: `msg ${side}${m.description ? ' mark' : ''}${m.status === 'sendFail' ? ' failed' : ''}` },
        m.description ? h('span', { class: 'mark-label' }, MARKS[m.description] || '') : null,
        body,
        h('time', { class: 'muted' }, new Date(m.time).toLocaleTimeString('zh-CN', { hour12: false })),
      )
    }),
  )
  if (toBottom) list.scrollTop = list.scrollHeight
}

async function send(type, payload) {
  const d = state.current
  const message = { clientId: clientId(), to: d.patientImAccount, type, payload, orderNo: d.inquiryNo }
  try {
    const stored = await request({ op: 'send', message })
    state.messages.set(stored.id, stored)
  } catch (err) {
    state.messages.set(`f${message.clientId}`, { id: `f${message.clientId}`, from: state.me.imAccount, to: d.patientImAccount, type, payload, description: '', time: Date.now(), status: 'sendFail' })
    toast(`发送失败：${err.message}`)
  }
  renderMessages(true)
}

$('send-form').addEventListener('submit', (e) => {
  e.preventDefault()
  const text = $('reply-text').value.trim()
  if (!text) return toast('发送内容不能为空')
  act(e.submitter, async () => {
    await send('text', text)
    $('reply-text').value = ''
  })
})
$('reply-text').addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) $('send-form').requestSubmit()
})

$('pick-picture').addEventListener('click', () => $('picture-file').click())
$('picture-file').addEventListener('change', () => {
  const file = $('picture-file').files[0]
  if (!file) return
  act($('pick-picture'), async () => {
    const form = new FormData()
    form.append('file', file)
    const uploaded = await api('POST', '/files-upload', form)
    await send('image', uploaded.url)
  }).finally(() => ($('picture-file').value = ''))
})

// ---- the sandbox HIS's console (demo servers: /dld-doctor/api/his answers only while the HIS is the sandbox) --------

const his = { visit: null, order: new Map(), searchTimer: null } // order: code -> { item, quantity }
const yuan = (fen) => `¥${(fen / 100).toFixed(2)}`

/** The console's button shows only where the sandbox HIS is. */
function detectHis() {
  api('GET', '/his/queues')
    .then(() => ($('his-open').hidden = $('ward-open').hidden = $('medtech-open').hidden = false))
    .catch(() => ($('his-open').hidden = $('ward-open').hidden = $('medtech-open').hidden = true))
}

$('his-open').addEventListener('click', () => {
  state.current = null
  $('detail').hidden = true
  $('ward').hidden = true
  $('his').hidden = false
  document.body.classList.add('has-detail')
  Promise.all([loadVisits(''), loadQueues(), loadReportTemplates()]).catch((err) => toast(err.message))
})
$('his-back').addEventListener('click', () => {
  $('his').hidden = true
  document.body.classList.remove('has-detail')
})

async function loadVisits(regNo) {
  const visits = await api('GET', `/his/visits?regNo=${encodeURIComponent(regNo)}`)
  if (his.visit && !visits.some((v) => v.registrationId === his.visit.registrationId)) his.visit = null
  $('his-visits').replaceChildren(
    ...visits.map((v) =>
      h(
        'li',
        { class: his.visit?.registrationId === v.registrationId ? 'active' : '' },
        h('span', {}, `${v.patientName} · ${v.deptName} · ${v.doctorName} · ${v.visitDate} ${v.segmentText}`, h('br'), h('small', { class: 'muted' }, v.regNo)),
        h('button', { type: 'button', 'aria-pressed': String(his.visit?.registrationId === v.registrationId), onclick: () => ((his.visit = v), loadVisits($('his-regno').value.trim()).catch((err) => toast(err.message))) }, '选择'),
      ),
    ),
  )
  if (!visits.length) $('his-visits').append(h('li', { class: 'muted' }, '近一周暂无已预约的就诊'))
  renderOrder()
}

$('his-visit-form').addEventListener('submit', (e) => {
  e.preventDefault()
  loadVisits($('his-regno').value.trim()).catch((err) => toast(err.message))
})

$('his-item-search').addEventListener('input', () => {
  clearTimeout(his.searchTimer)
  his.searchTimer = setTimeout(async () => {
    const keyword = $('his-item-search').value.trim()
    if (!keyword) return $('his-items').replaceChildren()
    try {
      const page = await api('GET', `/his/catalogue?keyword=${encodeURIComponent(keyword)}&size=20`)
      $('his-items').replaceChildren(
        ...page.records.map((item) =>
          h(
            'li',
            {},
            h('span', {}, `${item.name} ${item.spec} · ${yuan(item.priceFen)}/${item.unit} `, h('small', { class: 'muted' }, item.categoryName)),
            h('button', { type: 'button', onclick: () => addItem(item) }, '添加'),
          ),
        ),
      )
    } catch (err) {
      toast(err.message)
    }
  }, 300)
})

function addItem(item) {
  const line = his.order.get(item.code)
  his.order.set(item.code, { item, quantity: Math.min(999, (line?.quantity || 0) + 1) })
  renderOrder()
}

function renderOrder() {
  const lines = [...his.order.values()]
  $('his-order').replaceChildren(
    ...lines.map((line) =>
      h(
        'li',
        {},
        h('span', {}, `${line.item.name} ${line.item.spec}`),
        h('input', {
          type: 'number',
          min: 1,
          max: 999,
          value: line.quantity,
          'aria-label': `${line.item.name}数量`,
          onchange: (e) => {
            line.quantity = Math.max(1, Math.min(999, Math.floor(Number(e.target.value)) || 1))
            renderOrder()
          },
        }),
        h('button', { type: 'button', class: 'link', onclick: () => (his.order.delete(line.item.code), renderOrder()) }, '移除'),
      ),
    ),
  )
  const total = lines.reduce((sum, l) => sum + l.item.priceFen * l.quantity, 0)
  $('his-order-hint').textContent = [his.visit ? `就诊：${his.visit.patientName} ${his.visit.deptName}` : '请先选择就诊', lines.length ? `合计 ${yuan(total)}` : '']
    .filter(Boolean)
    .join('　')
}

$('his-issue').addEventListener('click', (e) =>
  act(e.currentTarget, async () => {
    if (!his.visit) return toast('请先选择就诊')
    if (!his.order.size) return toast('请添加收费项目')
    const items = [...his.order.values()].map((l) => ({ code: l.item.code, quantity: l.quantity }))
    const issued = await api('POST', '/his/orders', { registrationId: his.visit.registrationId, items })
    his.order.clear()
    renderOrder()
    toast(`已开单：${issued.bills.map((b) => `${b.title} ${yuan(b.amountFen)}`).join('，')}`)
  }),
)

// the sandbox HIS's report desk: a lab panel, an examination or a biopsy released for the chosen visit
async function loadReportTemplates() {
  if ($('his-report-template').options.length) return
  const templates = await api('GET', '/his/report-templates')
  $('his-report-template').replaceChildren(...templates.map((t) => h('option', { value: t.key }, `${t.deptName} · ${t.title}`)))
}

$('his-report-release').addEventListener('click', (e) =>
  act(e.currentTarget, async () => {
    if (!his.visit) return toast('请先选择就诊')
    const released = await api('POST', '/his/reports', {
      registrationId: his.visit.registrationId,
      template: $('his-report-template').value,
      abnormal: $('his-report-abnormal').checked,
    })
    toast(`已发布报告：${released.title}（${released.reportNo}）${released.abnormalCount ? `，异常 ${released.abnormalCount} 项` : ''}`)
  }),
)

async function loadQueues() {
  const queues = await api('GET', '/his/queues')
  $('his-queues').replaceChildren(
    ...queues.map((q) =>
      h(
        'li',
        {},
        h('span', {}, `${q.place} ${q.window}`, h('br'), h('small', { class: 'muted' }, `候诊 ${q.waiting} 人 · 当前 ${q.current || '—'}`)),
        h(
          'button',
          {
            type: 'button',
            onclick: (e) =>
              act(e.currentTarget, async () => {
                const answer = await api('POST', `/his/queues/${q.id}/call`)
                toast(answer.called ? `请 ${answer.called.ticketNo} 号 ${answer.called.patientName} 到${q.place}${q.window}` : '暂无候诊患者')
                await loadQueues()
              }),
          },
          '叫号',
        ),
      ),
    ),
  )
}

$('his-refresh').addEventListener('click', () => loadQueues().catch((err) => toast(err.message)))

// ---- the sandbox HIS's stays in hospital: admit, a day's charges, the discharge settlement ------------------------

const ward = { visit: null, stay: null, lines: new Map(), searchTimer: null } // lines: code -> { item, quantity }
const hospitalDay = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date())

$('ward-open').addEventListener('click', () => {
  state.current = null
  $('detail').hidden = true
  $('his').hidden = true
  $('ward').hidden = false
  document.body.classList.add('has-detail')
  if (!$('ward-date').value) $('ward-date').value = hospitalDay()
  Promise.all([loadWardVisits(''), loadStays()]).catch((err) => toast(err.message))
})
$('ward-back').addEventListener('click', () => {
  $('ward').hidden = true
  document.body.classList.remove('has-detail')
})

async function loadWardVisits(regNo) {
  const visits = await api('GET', `/his/visits?regNo=${encodeURIComponent(regNo)}`)
  if (ward.visit && !visits.some((v) => v.registrationId === ward.visit.registrationId)) ward.visit = null
  $('ward-visits').replaceChildren(
    ...visits.map((v) =>
      h(
        'li',
        { class: ward.visit?.registrationId === v.registrationId ? 'active' : '' },
        h('span', {}, `${v.patientName} · ${v.deptName} · ${v.visitDate} ${v.segmentText}`, h('br'), h('small', { class: 'muted' }, v.regNo)),
        h('button', { type: 'button', 'aria-pressed': String(ward.visit?.registrationId === v.registrationId), onclick: () => ((ward.visit = v), loadWardVisits($('ward-regno').value.trim()).catch((err) => toast(err.message))) }, '选择'),
      ),
    ),
  )
  if (!visits.length) $('ward-visits').append(h('li', { class: 'muted' }, '近一周暂无已预约的就诊'))
}

$('ward-visit-form').addEventListener('submit', (e) => {
  e.preventDefault()
  loadWardVisits($('ward-regno').value.trim()).catch((err) => toast(err.message))
})

$('ward-admit-form').addEventListener('submit', (e) => {
  e.preventDefault()
  act(e.submitter, async () => {
    if (!ward.visit) return toast('请先选择就诊')
    const stay = await api('POST', '/his/admissions', { registrationId: ward.visit.registrationId, ward: $('ward-name').value.trim(), bed: $('ward-bed').value.trim() })
    ward.visit = null
    ward.stay = stay
    $('ward-bed').value = ''
    toast(`${stay.patientName} 已入院：${stay.ward} ${stay.bed}，住院号 ${stay.admissionNo}`)
    await Promise.all([loadWardVisits($('ward-regno').value.trim()), loadStays()])
  })
})

const balanceText = (a) =>
  a.settlement
    ? a.settlement.owedFen > 0
      ? `出院结算：需补缴 ${yuan(a.settlement.owedFen)}`
      : `出院结算：退还 ${yuan(a.settlement.returnedFen)}`
    : `预交金 ${yuan(a.depositFen)} · 费用 ${yuan(a.costFen)} · 余额 ${yuan(a.balanceFen)}`

async function loadStays() {
  const stays = await api('GET', '/his/admissions')
  if (ward.stay) ward.stay = stays.find((a) => a.admissionNo === ward.stay.admissionNo && a.status === 'in') || null
  $('ward-stays').replaceChildren(
    ...stays.map((a) =>
      h(
        'li',
        { class: ward.stay?.admissionNo === a.admissionNo ? 'active' : '' },
        h(
          'span',
          {},
          `${a.patientName} · ${a.ward} ${a.bed} · ${a.status === 'in' ? '在院' : '已出院'}`,
          h('br'),
          h('small', { class: a.status === 'in' && a.balanceFen < 0 ? 'error' : 'muted' }, `${a.admissionNo} · 入院 ${time(a.admittedAt)} · ${balanceText(a)}`),
        ),
        a.status === 'in'
          ? h(
              'span',
              {},
              h('button', { type: 'button', 'aria-pressed': String(ward.stay?.admissionNo === a.admissionNo), onclick: () => ((ward.stay = a), renderLines(), loadStays().catch((err) => toast(err.message))) }, '记账'),
              h(
                'button',
                {
                  type: 'button',
                  class: 'danger',
                  onclick: (e) => {
                    if (!confirm(`为 ${a.patientName}（${a.ward} ${a.bed}）办理出院结算？`)) return
                    act(e.currentTarget, async () => {
                      const out = await api('POST', `/his/admissions/${encodeURIComponent(a.admissionNo)}/discharge`)
                      toast(`${out.patientName} 已出院。${balanceText(out)}`)
                      await loadStays()
                    })
                  },
                },
                '出院结算',
              ),
            )
          : null,
      ),
    ),
  )
  if (!stays.length) $('ward-stays').append(h('li', { class: 'muted' }, '暂无住院患者'))
  renderLines()
}

$('ward-refresh').addEventListener('click', () => loadStays().catch((err) => toast(err.message)))

$('ward-item-search').addEventListener('input', () => {
  clearTimeout(ward.searchTimer)
  ward.searchTimer = setTimeout(async () => {
    const keyword = $('ward-item-search').value.trim()
    if (!keyword) return $('ward-items').replaceChildren()
    try {
      const page = await api('GET', `/his/catalogue?keyword=${encodeURIComponent(keyword)}&size=20`)
      $('ward-items').replaceChildren(
        ...page.records.map((item) =>
          h(
            'li',
            {},
            h('span', {}, `${item.name} ${item.spec} · ${yuan(item.priceFen)}/${item.unit} `, h('small', { class: 'muted' }, item.categoryName)),
            h(
              'button',
              {
                type: 'button',
                onclick: () => {
                  const line = ward.lines.get(item.code)
                  ward.lines.set(item.code, { item, quantity: Math.min(999, (line?.quantity || 0) + 1) })
                  renderLines()
                },
              },
              '添加',
            ),
          ),
        ),
      )
    } catch (err) {
      toast(err.message)
    }
  }, 300)
})

function renderLines() {
  const lines = [...ward.lines.values()]
  $('ward-lines').replaceChildren(
    ...lines.map((line) =>
      h(
        'li',
        {},
        h('span', {}, `${line.item.name} ${line.item.spec}`),
        h('input', {
          type: 'number',
          min: 1,
          max: 999,
          value: line.quantity,
          'aria-label': `${line.item.name}数量`,
          onchange: (e) => {
            line.quantity = Math.max(1, Math.min(999, Math.floor(Number(e.target.value)) || 1))
            renderLines()
          },
        }),
        h('button', { type: 'button', class: 'link', onclick: () => (ward.lines.delete(line.item.code), renderLines()) }, '移除'),
      ),
    ),
  )
  const total = lines.reduce((sum, l) => sum + l.item.priceFen * l.quantity, 0)
  $('ward-stay-hint').textContent = ward.stay ? `${ward.stay.patientName} · ${ward.stay.ward} ${ward.stay.bed} · ${balanceText(ward.stay)}` : '请在右侧选择在院患者'
  $('ward-lines-hint').textContent = lines.length ? `合计 ${yuan(total)}` : ''
}

$('ward-post').addEventListener('click', (e) =>
  act(e.currentTarget, async () => {
    if (!ward.stay) return toast('请先选择在院患者')
    if (!ward.lines.size) return toast('请添加收费项目')
    const items = [...ward.lines.values()].map((l) => ({ code: l.item.code, quantity: l.quantity }))
    const stay = await api('POST', `/his/admissions/${encodeURIComponent(ward.stay.admissionNo)}/charges`, { date: $('ward-date').value, items })
    ward.lines.clear()
    ward.stay = stay
    toast(`已记账：${stay.patientName} ${$('ward-date').value}，${balanceText(stay)}`)
    await loadStays()
  }),
)

// ---- start -----------------------------------------------------------------------------------------------------

async function start() {
  if (!state.token) return show('login')
  try {
    await enter(await api('GET', '/me'))
  } catch (err) {
    if (err.code !== 401) signedOut(err.message)
  }
}
start()

// ---- one panel at a time: a top-bar button hides every panel (capture phase) before its own handler shows its own --

document.querySelector('.topbar-right').addEventListener(
  'click',
  (e) => {
    if (e.target.closest('button[id$="-open"]')) for (const panel of document.querySelectorAll('section.detail')) panel.hidden = true
  },
  true,
)

// ---- 满意度: the hospital's surveys, counts per option, the stars' mean, the newest words ----------------------------

const surveyPanel = { current: null }
const KIND_TEXT = { single: '单选', multiple: '多选', rating: '评分', text: '填空' }

function hideSurvey() {
  $('survey').hidden = true
}
// the other panels open over this one
for (const id of ['his-open', 'ward-open', 'feedback-open']) $(id).addEventListener('click', hideSurvey)
$('inquiry-list').addEventListener('click', hideSurvey, true)

$('survey-open').addEventListener('click', () => {
  state.current = null
  $('detail').hidden = true
  $('his').hidden = true
  $('ward').hidden = true
  $('survey').hidden = false
  document.body.classList.add('has-detail')
  loadSurveys().catch((err) => toast(err.message))
})
$('survey-back').addEventListener('click', () => {
  hideSurvey()
  document.body.classList.remove('has-detail')
})
$('survey-refresh').addEventListener('click', () => loadSurveys().catch((err) => toast(err.message)))

async function loadSurveys() {
  const surveys = await api('GET', '/surveys')
  $('survey-list').replaceChildren(
    ...(surveys.length === 0
      ? [h('li', { class: 'muted' }, '本院暂无满意度调查')]
      : surveys.map((s) =>
          h(
            'li',
            {},
            h('span', {}, s.title, h('br'), h('small', { class: 'muted' }, `${s.questionCount} 题 · ${s.answerCount} 人回答`)),
            h('button', { type: 'button', onclick: (e) => act(e.currentTarget, () => openSurveyResults(s.id)) }, '查看结果'),
          ),
        )),
  )
  if (surveyPanel.current) await openSurveyResults(surveyPanel.current)
}

/** One bar: its label, a width in proportion to the largest count (plain CSS, no chart library), the count. */
function bar(label, count, max) {
  const fill = h('span', { class: 'survey-bar__fill' })
  // set through the style object: the page's content security policy allows no inline style attribute
  fill.style.width = `${max > 0 ? Math.round((count * 100) / max) : 0}%`
  return h(
    'div',
    { class: 'survey-bar' },
    h('span', { class: 'survey-bar__label' }, label),
    h('span', { class: 'survey-bar__track', 'aria-hidden': 'true' }, fill),
    h('span', { class: 'survey-bar__count' }, `${count} 人`),
  )
}

async function openSurveyResults(id) {
  const r = await api('GET', `/surveys/${id}`)
  surveyPanel.current = id
  $('survey-title').textContent = `${r.title}（${r.answerCount} 人回答）`
  $('survey-results').replaceChildren(
    ...r.questions.map((q, i) => {
      const head = h('h4', {}, `第${i + 1}题 ${q.title}`, ' ', h('small', { class: 'muted' }, `${KIND_TEXT[q.kind]} · ${q.answered} 人作答`))
      if (q.kind === 'text') {
        return h(
          'div',
          { class: 'survey-question' },
          head,
          q.latest.length === 0
            ? h('p', { class: 'muted' }, '暂无意见')
            : h('ul', { class: 'survey-words' }, ...q.latest.map((w) => h('li', {}, w.text, h('br'), h('small', { class: 'muted' }, `${w.author} · ${time(w.answeredAt)}`)))),
        )
      }
      const max = Math.max(0, ...q.options.map((o) => o.count))
      return h(
        'div',
        { class: 'survey-question' },
        head,
        q.kind === 'rating' ? h('p', {}, `平均 ${q.average === null ? '—' : `${q.average} 星`}`) : null,
        ...q.options.map((o) => bar(o.text, o.count, max)),
      )
    }),
  )
}

// ---- 投诉建议: the hospital's complaints, suggestions and praise, answered once ---------------------------------------

const FEEDBACK_KIND = { complaint: '投诉', suggestion: '建议', praise: '表扬' }

function hideFeedback() {
  $('feedback').hidden = true
}
for (const id of ['his-open', 'ward-open', 'survey-open']) $(id).addEventListener('click', hideFeedback)
$('inquiry-list').addEventListener('click', hideFeedback, true)

$('feedback-open').addEventListener('click', () => {
  state.current = null
  for (const id of ['detail', 'his', 'ward', 'survey']) $(id).hidden = true
  $('feedback').hidden = false
  document.body.classList.add('has-detail')
  loadFeedback().catch((err) => toast(err.message))
})
$('feedback-back').addEventListener('click', () => {
  hideFeedback()
  document.body.classList.remove('has-detail')
})
$('feedback-refresh').addEventListener('click', () => loadFeedback().catch((err) => toast(err.message)))

async function loadFeedback() {
  const items = await api('GET', '/suggestions')
  $('feedback-list').replaceChildren(...(items.length === 0 ? [h('li', { class: 'muted' }, '暂无投诉建议')] : items.map(feedbackItem)))
}

function feedbackItem(s) {
  const head = h('p', {}, h('strong', {}, FEEDBACK_KIND[s.kind]), ' ', h('small', { class: 'muted' }, `${s.mobile} · ${time(s.createdAt)}`))
  const pictures = s.pictures.length
    ? h('p', {}, ...s.pictures.map((url, i) => h('a', { href: url, target: '_blank', rel: 'noopener' }, `图片${i + 1} `)))
    : null
  if (s.status === 'answered') {
    return h('li', {}, head, h('p', {}, s.content), pictures, h('p', { class: 'feedback-answer' }, `已回复：${s.answer}`, h('br'), h('small', { class: 'muted' }, time(s.answeredAt))))
  }
  const box = h('textarea', { rows: '2', maxlength: '500', 'aria-label': '回复内容', placeholder: '回复内容（患者在消息中心收到）' })
  const send = h('button', { type: 'button', onclick: (e) => act(e.currentTarget, async () => {
    await api('POST', `/suggestions/${s.id}/answer`, { answer: box.value })
    toast('已回复')
    await loadFeedback()
  }) }, '回复')
  return h('li', {}, head, h('p', {}, s.content), pictures, box, send)
}
// ---- the sandbox HIS's physical-exam centre: the day's exams, check-in, finishing (which releases the report) ------

const PHYSICAL_STATUS = { paid: '待到检', checkedIn: '体检中', finished: '已完成' }

function hidePhysical() {
  $('physical').hidden = true
}
for (const id of ['his-open', 'ward-open', 'survey-open']) $(id).addEventListener('click', hidePhysical)
$('inquiry-list').addEventListener('click', hidePhysical, true)

/** The centre's button shows only where the sandbox HIS is, for staff signed in. */
function detectPhysical() {
  api('GET', '/his/physical')
    .then(() => ($('physical-open').hidden = false))
    .catch(() => ($('physical-open').hidden = true))
}
const physicalWatch = new MutationObserver(() => {
  if ($('desk-view').hidden) $('physical-open').hidden = $('physical').hidden = true
  else detectPhysical()
})
physicalWatch.observe($('desk-view'), { attributes: true, attributeFilter: ['hidden'] })
if (!$('desk-view').hidden) detectPhysical()

async function loadPhysicalDay() {
  const date = $('physical-date').value
  const rows = await api('GET', `/his/physical${date ? `?date=${encodeURIComponent(date)}` : ''}`)
  $('physical-list').replaceChildren(
    ...rows.map((r) =>
      h(
        'li',
        {},
        h('span', {}, `${r.patientName} · ${r.packageName} · ${PHYSICAL_STATUS[r.status] || r.status}`, h('br'), h('small', { class: 'muted' }, `体检编号 ${r.examNo} · ${r.examDate}`)),
        r.status === 'paid'
          ? h('button', { type: 'button', onclick: (e) => act(e.currentTarget, async () => (await api('POST', `/his/physical/${encodeURIComponent(r.examNo)}/check-in`), toast(`${r.patientName} 已登记到检`), await loadPhysicalDay())) }, '登记到检')
          : r.status === 'checkedIn'
            ? h(
                'button',
                {
                  type: 'button',
                  class: 'primary',
                  onclick: (e) => {
                    if (!confirm(`${r.patientName} 的体检已全部完成？完成后报告将发布给患者。`)) return
                    act(e.currentTarget, async () => (await api('POST', `/his/physical/${encodeURIComponent(r.examNo)}/finish`), toast(`${r.patientName} 的体检报告已发布`), await loadPhysicalDay()))
                  },
                },
                '完成体检',
              )
            : null,
      ),
    ),
  )
  if (!rows.length) $('physical-list').append(h('li', { class: 'muted' }, '当日暂无已缴费的体检预约'))
}

$('physical-open').addEventListener('click', () => {
  state.current = null
  $('detail').hidden = true
  $('his').hidden = true
  $('ward').hidden = true
  hideSurvey()
  $('physical').hidden = false
  document.body.classList.add('has-detail')
  if (!$('physical-date').value) $('physical-date').value = hospitalDay()
  loadPhysicalDay().catch((err) => toast(err.message))
})
$('physical-back').addEventListener('click', () => {
  hidePhysical()
  document.body.classList.remove('has-detail')
})
$('physical-day-form').addEventListener('submit', (e) => {
  e.preventDefault()
  loadPhysicalDay().catch((err) => toast(err.message))
})
// ---- 医技·核酸: a device's appointments of a day; nucleic tests sampled and their results released ---------------------

const NUCLEIC_STATUS = { registered: '待采样', sampled: '已采样', reported: '已出报告', cancelled: '已取消', unpaid: '待缴费' }

function hideMedTech() {
  $('medtech').hidden = true
}
for (const id of ['his-open', 'ward-open', 'survey-open']) $(id).addEventListener('click', hideMedTech)
$('inquiry-list').addEventListener('click', hideMedTech, true)

$('medtech-open').addEventListener('click', () => {
  state.current = null
  for (const id of ['detail', 'his', 'ward', 'survey']) $(id).hidden = true
  $('medtech').hidden = false
  document.body.classList.add('has-detail')
  if (!$('medtech-date').value) $('medtech-date').value = hospitalDay()
  Promise.all([loadDevices(), loadNucleicTests()]).catch((err) => toast(err.message))
})
$('medtech-back').addEventListener('click', () => {
  hideMedTech()
  document.body.classList.remove('has-detail')
})
$('medtech-form').addEventListener('submit', (e) => {
  e.preventDefault()
  loadBookings().catch((err) => toast(err.message))
})
$('nucleic-refresh').addEventListener('click', () => loadNucleicTests().catch((err) => toast(err.message)))

async function loadDevices() {
  const devices = await api('GET', '/his/exam/devices')
  const chosen = $('medtech-device').value
  $('medtech-device').replaceChildren(...devices.map((d) => h('option', { value: String(d.deviceId) }, `${d.place} · ${d.deviceName}`)))
  if (chosen) $('medtech-device').value = chosen
  await loadBookings()
}

async function loadBookings() {
  const deviceId = $('medtech-device').value
  if (!deviceId) return
  const bookings = await api('GET', `/his/exam/devices/${deviceId}/bookings?date=${encodeURIComponent($('medtech-date').value)}`)
  $('medtech-bookings').replaceChildren(
    ...bookings.map((b) => h('li', {}, h('span', {}, `${b.startTime}-${b.endTime} · ${b.patientName} · ${b.title}`, h('br'), h('small', { class: 'muted' }, `${b.appointmentNo} · 缴费单 ${b.billNo}`)))),
  )
  if (!bookings.length) $('medtech-bookings').append(h('li', { class: 'muted' }, '该设备当日暂无预约'))
}

async function loadNucleicTests() {
  const tests = await api('GET', '/his/nucleic/tests')
  $('nucleic-tests').replaceChildren(
    ...tests.map((t) => {
      const path = `/his/nucleic/tests/${encodeURIComponent(t.sampleNo)}`
      const after = (msg) => async () => {
        toast(msg)
        await loadNucleicTests()
      }
      return h(
        'li',
        {},
        h('span', {}, `${t.patientName} · ${t.kindName} · ${t.result ? t.result : NUCLEIC_STATUS[t.status]}`, h('br'), h('small', { class: 'muted' }, `${t.sampleNo} · 缴费 ${time(t.registeredAt)}${t.sampledAt ? ` · 采样 ${time(t.sampledAt)}` : ''}`)),
        t.status === 'registered'
          ? h('button', { type: 'button', onclick: (e) => act(e.currentTarget, async () => (await api('POST', `${path}/sample`), after(`${t.patientName} 已采样`)())) }, '采样')
          : null,
        t.status === 'sampled'
          ? h(
              'span',
              {},
              h('button', { type: 'button', onclick: (e) => act(e.currentTarget, async () => (await api('POST', `${path}/release`, { result: '阴性' }), after(`${t.patientName} 结果已发布：阴性`)())) }, '发布阴性'),
              h(
                'button',
                {
                  type: 'button',
                  class: 'danger',
                  onclick: (e) => {
                    if (!confirm(`发布 ${t.patientName} 的结果为阳性？`)) return
                    act(e.currentTarget, async () => (await api('POST', `${path}/release`, { result: '阳性' }), after(`${t.patientName} 结果已发布：阳性`)()))
                  },
                },
                '发布阳性',
              ),
            )
          : null,
      )
    }),
  )
  if (!tests.length) $('nucleic-tests').append(h('li', { class: 'muted' }, '近14天暂无核酸检测'))
}

// ---- 开处方: the treating doctor writes a prescription in an open consultation; a pharmacist reviews it ----------------

const CATEGORY_TEXT = { western: '西药', patent: '中成药', chinese: '中药饮片' }
const PRES_DAYS = 3
// the draft: diagnoses code -> {code, name}; lines drugId -> { drug, dose, frequency, days, quantity }; one key per draft
const pres = { key: '', diagnoses: new Map(), lines: new Map(), drugs: new Map(), templates: null, searchTimer: null }

const isDoctor = () => Boolean(state.me && state.me.kind === 'doctor')
/** One drug line of a written prescription. */
const drugLineText = (l) => `${l.drugName} ${l.drugSpec} · ${l.dose} ${l.frequency} ${l.days}天 · 共${l.totalCount}${l.unit} · ${yuan(l.amountFen)}`
const diagnosesText = (p) => `诊断：${p.diagnoses.map((x) => x.name).join('、')}`

/** The prescription card the patient got in the chat (payload: PrescriptionCard as JSON), as one line. */
function prescriptionCardText(payload) {
  try {
    const card = JSON.parse(payload)
    return `处方笺 ${card.presNo}（审核通过，已发送给患者）\n诊断：${card.diagnoses.join('、')}\n药品：${card.drugNames.join('、')}\n合计 ${yuan(card.totalFen)}`
  } catch {
    return '处方笺'
  }
}

/** The consultation's prescriptions are the treating doctor's; a new one only while the consultation is open. */
function renderPrescribe() {
  const canWrite = isDoctor() && state.current.status === 'inProgress'
  $('prescribe').hidden = !isDoctor()
  if (!canWrite) $('pres-form').hidden = true
  $('pres-new').hidden = !canWrite || !$('pres-form').hidden
}

async function loadPrescriptions() {
  if (!isDoctor() || !state.current) return
  const id = state.current.id
  const list = await api('GET', `/inquiries/${id}/prescriptions`)
  if (!state.current || state.current.id !== id) return
  $('pres-list').replaceChildren(...(list.length ? list.map(prescriptionItem) : [h('li', { class: 'muted' }, '本次问诊暂无处方')]))
}
$('pres-refresh').addEventListener('click', () => loadPrescriptions().catch((err) => toast(err.message)))

function prescriptionItem(p) {
  const revocable = (p.status === 'reviewing' || p.status === 'approved') && p.orderId === null
  return h(
    'li',
    {},
    h('p', {}, h('strong', {}, `${CATEGORY_TEXT[p.category]}处方 ${p.presNo}`), h('span', { class: `badge pres-${p.status}` }, p.statusText), ' ', h('small', { class: 'muted' }, time(p.createdAt))),
    h('p', {}, diagnosesText(p)),
    h('ul', { class: 'pres-drugs' }, ...p.lines.map((l) => h('li', {}, drugLineText(l)))),
    h('p', { class: 'muted' }, `合计 ${yuan(p.totalFen)}${p.renewable ? ' · 可续方' : ''}${p.pharmacistName ? ` · 审方药师 ${p.pharmacistName}` : ''}`),
    p.status === 'rejected' ? h('p', { class: 'error' }, `未通过原因：${p.rejectReason}`) : null,
    revocable
      ? h(
          'button',
          {
            type: 'button',
            class: 'danger',
            onclick: (e) => {
              if (!confirm(`撤回处方 ${p.presNo}？撤回后患者不能再凭此处方购药。`)) return
              act(e.currentTarget, async () => {
                await api('POST', `/prescriptions/${p.id}/revoke`)
                toast(`处方 ${p.presNo} 已撤回`)
                await loadPrescriptions()
              })
            },
          },
          '撤回',
        )
      : null,
  )
}

$('pres-new').addEventListener('click', () => {
  pres.key = clientId()
  pres.diagnoses = new Map((state.current.record ? state.current.record.diseases : []).map((x) => [x.code, { code: x.code, name: x.name }]))
  pres.lines.clear()
  $('pres-category').value = 'western'
  $('pres-template').value = ''
  closeTemplateBoxes()
  $('pres-advice').value = ''
  $('pres-renewable').checked = false
  for (const id of ['pres-disease-search', 'pres-drug-search']) $(id).value = ''
  for (const id of ['pres-disease-results', 'pres-drug-results']) $(id).replaceChildren()
  renderDraft()
  $('pres-form').hidden = false
  renderPrescribe()
  $('pres-category').focus()
  loadTemplates().catch((err) => toast(err.message))
})

function closeDraft() {
  $('pres-form').hidden = true
  closeTemplateBoxes()
  pres.lines.clear()
  pres.diagnoses.clear()
  if (state.current) renderPrescribe()
}
$('pres-cancel').addEventListener('click', () => {
  closeDraft()
  $('pres-new').focus()
})

/** The templates (the doctor's own first), read once a sign-in or again after the doctor changed one. */
async function loadTemplates(again = false) {
  if (!pres.templates || again) pres.templates = await api('GET', '/diagnosisTemplates')
  const chosen = $('pres-template').value
  const option = (t) => h('option', { value: String(t.id) }, `${t.name}${t.own ? '' : '（全院）'}`)
  const own = pres.templates.filter((t) => t.own)
  const shared = pres.templates.filter((t) => !t.own)
  $('pres-template').replaceChildren(
    h('option', { value: '' }, '不使用模板'),
    own.length ? h('optgroup', { label: '我的模板' }, ...own.map(option)) : null,
    shared.length ? h('optgroup', { label: '医院模板' }, ...shared.map(option)) : null,
  )
  $('pres-template').value = pres.templates.some((t) => String(t.id) === chosen) ? chosen : ''
  $('tpl-list').replaceChildren(...(own.length ? own.map(templateItem) : [h('li', { class: 'muted' }, '暂无我的模板，可在开处方时“保存为模板”')]))
}

/** A template fills the category, the diagnoses and the lines. */
$('pres-template').addEventListener('change', () =>
  act(null, async () => {
    const t = (pres.templates || []).find((x) => String(x.id) === $('pres-template').value)
    if (!t) return
    if (t.lines.some((l) => !pres.drugs.has(l.drugId))) for (const d of await api('GET', '/formulary')) pres.drugs.set(d.id, d)
    $('pres-category').value = t.category
    pres.diagnoses = new Map(t.diagnoses.map((x) => [x.code, x]))
    pres.lines = new Map(t.lines.filter((l) => pres.drugs.has(l.drugId)).map((l) => [l.drugId, { drug: pres.drugs.get(l.drugId), dose: l.dose, frequency: l.frequency, days: l.days, quantity: l.quantity }]))
    renderDraft()
  }),
)

/** What a prescription and a template share: the category, the diagnoses and the lines of the draft. */
const draftContent = () => ({
  category: $('pres-category').value,
  diagnoses: [...pres.diagnoses.values()].map(({ code, name }) => ({ code, name })),
  lines: [...pres.lines.values()].map((l) => ({ drugId: l.drug.id, dose: l.dose, frequency: l.frequency, days: l.days, quantity: l.quantity })),
})

/** What the draft still lacks to be submitted or kept as a template ('' when nothing). */
function draftMissing() {
  const lines = [...pres.lines.values()]
  if (!pres.diagnoses.size) return '请选择诊断'
  if (!lines.length) return '请添加药品'
  const unfinished = lines.find((l) => !l.dose || !l.frequency)
  return unfinished ? `请填写${unfinished.drug.name}的单次用量和频次` : ''
}

function closeTemplateBoxes() {
  $('tpl-save').hidden = true
  $('tpl-manage').hidden = true
  $('tpl-manage-open').setAttribute('aria-expanded', 'false')
}

// 保存为模板: the draft's category, diagnoses and lines under a name of the doctor's
$('tpl-save-open').addEventListener('click', () => {
  const missing = draftMissing()
  if (missing) return toast(missing)
  $('tpl-save').hidden = false
  $('tpl-name').value = ''
  $('tpl-name').focus()
})
$('tpl-save-cancel').addEventListener('click', () => {
  $('tpl-save').hidden = true
  $('tpl-save-open').focus()
})
// Enter in the name saves the template, never submits the prescription
$('tpl-name').addEventListener('keydown', (e) => {
  if (e.key !== 'Enter') return
  e.preventDefault()
  $('tpl-save-confirm').click()
})
$('tpl-save-confirm').addEventListener('click', (e) => {
  const name = $('tpl-name').value.trim()
  if (!name) return toast('请填写模板名称')
  act(e.currentTarget, async () => {
    const saved = await api('POST', '/diagnosisTemplates', { name, ...draftContent() })
    $('tpl-save').hidden = true
    await loadTemplates(true)
    $('pres-template').value = String(saved.id)
    toast(`已保存为模板“${saved.name}”`)
    $('tpl-save-open').focus()
  })
})

// 管理模板: the doctor's own templates, renamed or deleted here (the hospital's are read-only)
$('tpl-manage-open').addEventListener('click', () => {
  const open = $('tpl-manage').hidden
  $('tpl-manage').hidden = !open
  $('tpl-manage-open').setAttribute('aria-expanded', String(open))
})

function templateItem(t) {
  const item = h(
    'li',
    {},
    h('span', {}, t.name, ' ', h('small', { class: 'muted' }, `${CATEGORY_TEXT[t.category]} · ${t.diagnoses.map((x) => x.name).join('、')} · ${t.lines.length}种药品`)),
    h('span', {}, h('button', { type: 'button', class: 'link', 'aria-label': `重命名模板${t.name}`, onclick: () => renameTemplate(item, t) }, '重命名'), h('button', { type: 'button', class: 'link', 'aria-label': `删除模板${t.name}`, onclick: (e) => deleteTemplate(e.currentTarget, t) }, '删除')),
  )
  return item
}

function renameTemplate(item, t) {
  const input = h('input', { maxlength: 30, value: t.name, 'aria-label': `模板${t.name}的新名称`, autocomplete: 'off' })
  const save = h('button', { type: 'button', class: 'primary' }, '保存')
  const rename = () => {
    const name = input.value.trim()
    if (!name) return toast('请填写模板名称')
    act(save, async () => {
      await api('PUT', `/diagnosisTemplates/${t.id}`, { name, category: t.category, diagnoses: t.diagnoses, lines: t.lines })
      toast(`模板已重命名为“${name}”`)
      await loadTemplates(true)
    })
  }
  save.addEventListener('click', rename)
  input.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return
    e.preventDefault()
    rename()
  })
  item.replaceChildren(input, h('span', {}, h('button', { type: 'button', onclick: () => item.replaceWith(templateItem(t)) }, '取消'), ' ', save))
  input.focus()
}

function deleteTemplate(button, t) {
  if (!confirm(`删除模板“${t.name}”？删除后不能恢复。`)) return
  act(button, async () => {
    await api('DELETE', `/diagnosisTemplates/${t.id}`)
    toast(`模板“${t.name}”已删除`)
    await loadTemplates(true)
    $('tpl-manage-open').focus()
  })
}

$('pres-category').addEventListener('change', () => {
  // one category a prescription: the lines of another go
  if (pres.lines.size) toast(`已切换为${CATEGORY_TEXT[$('pres-category').value]}处方，已清空药品`)
  pres.lines.clear()
  $('pres-drug-results').replaceChildren()
  renderDraft()
  if ($('pres-drug-search').value.trim()) searchDrugs().catch((err) => toast(err.message))
})

diseaseSearch($('pres-disease-search'), $('pres-disease-results'), (x) => {
  pres.diagnoses.set(x.code, { code: x.code, name: x.name })
  renderDraft()
})

$('pres-drug-search').addEventListener('input', () => {
  clearTimeout(pres.searchTimer)
  pres.searchTimer = setTimeout(() => searchDrugs().catch((err) => toast(err.message)), 300)
})

async function searchDrugs() {
  const keyword = $('pres-drug-search').value.trim()
  const category = $('pres-category').value
  if (!keyword) return $('pres-drug-results').replaceChildren()
  const found = await api('GET', `/formulary?keyword=${encodeURIComponent(keyword)}&category=${category}`)
  if ($('pres-drug-search').value.trim() !== keyword || $('pres-category').value !== category) return // a later search is on its way
  for (const d of found) pres.drugs.set(d.id, d)
  $('pres-drug-results').replaceChildren(
    ...(found.length
      ? found.map((d) =>
          h(
            'li',
            {},
            h('span', {}, `${d.name} ${d.drugSpec} · ${yuan(d.priceFen)}/${d.unit}${d.rx ? ' · 处方药' : ''} `, h('br'), h('small', { class: 'muted' }, `${d.manufacturer} · ${d.defaultUsage}`)),
            h('button', { type: 'button', 'aria-label': `添加${d.name}`, onclick: () => addDrug(d) }, '添加'),
          ),
        )
      : [h('li', { class: 'muted' }, `处方集中没有这种${CATEGORY_TEXT[category]}`)]),
  )
}

/** A new line takes the drug's usual usage ("每次0.5g，每日3次"); 中药饮片 are counted in g for all the days. */
function addDrug(d) {
  if (pres.lines.has(d.id)) return toast(`${d.name}已在处方中`)
  const [first = '', second = ''] = d.defaultUsage.split(/[，,]/)
  const dose = (/^(?:每次|每剂)(.+)$/.exec(first) || [])[1] || ''
  const frequency = dose ? second : second || first
  const perDay = Number.parseFloat(dose)
  const quantity = d.category === 'chinese' && perDay > 0 ? Math.ceil(perDay * PRES_DAYS) : 1
  pres.lines.set(d.id, { drug: d, dose, frequency, days: PRES_DAYS, quantity })
  renderDraft()
}

const clampInt = (value, min, max) => Math.max(min, Math.min(max, Math.floor(Number(value)) || min))

function lineEditor(line) {
  const d = line.drug
  const field = (key, label, attrs) =>
    h(
      'label',
      { class: 'pres-field' },
      label,
      h('input', {
        ...attrs,
        value: line[key],
        'aria-label': `${d.name}${label}`,
        oninput: (e) => {
          line[key] = attrs.type === 'number' ? clampInt(e.target.value, attrs.min, attrs.max) : e.target.value.trim()
          renderTotal()
        },
        onchange: (e) => (e.target.value = line[key]),
      }),
    )
  return h(
    'li',
    {},
    h('p', {}, h('strong', {}, d.name), ` ${d.drugSpec} · ${yuan(d.priceFen)}/${d.unit || 'g'}`),
    h(
      'div',
      { class: 'pres-line' },
      field('dose', '单次用量', { type: 'text', maxlength: 20, placeholder: '如 0.5g' }),
      field('frequency', '频次', { type: 'text', maxlength: 20, list: 'frequencies', placeholder: '如 每日3次' }),
      field('days', '天数', { type: 'number', min: 1, max: 90 }),
      field('quantity', `数量（${d.unit || 'g'}）`, { type: 'number', min: 1, max: 9999 }),
      h('button', { type: 'button', class: 'link', 'aria-label': `移除${d.name}`, onclick: () => (pres.lines.delete(d.id), renderDraft()) }, '移除'),
    ),
  )
}

function renderTotal() {
  const total = [...pres.lines.values()].reduce((sum, l) => sum + l.drug.priceFen * l.quantity, 0)
  $('pres-total').textContent = pres.lines.size ? `药品 ${pres.lines.size} 种，药费合计 ${yuan(total)}` : '请搜索并添加药品'
}

function renderDraft() {
  $('pres-diagnoses').replaceChildren(
    ...[...pres.diagnoses.values()].map((x) =>
      h('li', { class: 'chip' }, `${x.name}（${x.code}）`, h('button', { type: 'button', class: 'link', 'aria-label': `移除诊断${x.name}`, onclick: () => (pres.diagnoses.delete(x.code), renderDraft()) }, '×')),
    ),
  )
  $('pres-lines').replaceChildren(...[...pres.lines.values()].map(lineEditor))
  renderTotal()
}

$('pres-form').addEventListener('submit', (e) => {
  e.preventDefault()
  const missing = draftMissing()
  if (missing) return toast(missing)
  act($('pres-submit'), async () => {
    const written = await api('POST', `/inquiries/${state.current.id}/prescriptions`, {
      ...draftContent(),
      advice: $('pres-advice').value.trim(),
      renewable: $('pres-renewable').checked,
      idempotencyKey: pres.key,
    })
    closeDraft()
    $('pres-new').focus()
    toast(`处方 ${written.presNo} 已提交审方`)
    await loadPrescriptions()
  })
})

// ---- the pharmacist's desk: 审方 and 药房订单 instead of the consultations ------------------------------------------

const PHARMACIST_HIDES = ['survey-open', 'feedback-open']

function enterPharmacy() {
  document.body.classList.add('pharmacist', 'has-detail')
  for (const id of PHARMACIST_HIDES) $(id).hidden = true
  $('review-open').hidden = $('pharmacy-open').hidden = false
  $('review-open').click()
}

function leavePharmacy() {
  document.body.classList.remove('pharmacist', 'has-detail')
  for (const id of PHARMACIST_HIDES) $(id).hidden = false
  for (const id of ['review-open', 'pharmacy-open', 'review', 'pharmacy']) $(id).hidden = true
}

/** The open panel's button is pressed. */
function pressPanel(id) {
  for (const b of ['review-open', 'pharmacy-open']) $(b).setAttribute('aria-pressed', String(b === id))
}

$('review-open').addEventListener('click', () => {
  $('review').hidden = false
  pressPanel('review-open')
  loadReview().catch((err) => toast(err.message))
})
$('review-form').addEventListener('submit', (e) => {
  e.preventDefault()
  loadReview().catch((err) => toast(err.message))
})
$('review-status').addEventListener('change', () => loadReview().catch((err) => toast(err.message)))

async function loadReview() {
  const status = $('review-status').value
  const list = await api('GET', `/review/prescriptions?status=${status}`)
  if ($('review-status').value !== status) return
  $('review-list').replaceChildren(...(list.length ? list.map(reviewItem) : [h('li', { class: 'muted' }, status === 'reviewing' ? '暂无待审核的处方' : '暂无处方')]))
}

function reviewItem(p) {
  const reason = h('textarea', { rows: '2', maxlength: '200', 'aria-label': '驳回原因', placeholder: '请填写驳回原因（医生可见）' })
  const decide = (e, path, body, done) =>
    act(e.currentTarget, async () => {
      await api('POST', `/review/prescriptions/${p.id}/${path}`, body)
      toast(`处方 ${p.presNo} ${done}`)
      await loadReview()
    })
  const rejectForm = h(
    'div',
    { class: 'reject-form', hidden: true },
    reason,
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', onclick: () => (rejectForm.hidden = true) }, '取消'),
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          onclick: (e) => {
            const text = reason.value.trim()
            if (!text) {
              toast('请填写驳回原因')
              return reason.focus()
            }
            decide(e, 'reject', { reason: text }, '已驳回')
          },
        },
        '确认驳回',
      ),
    ),
  )
  return h(
    'li',
    {},
    h('p', {}, h('strong', {}, `${p.patientName} ${SEX_TEXT[p.sex] || ''} ${p.age}岁`), h('span', { class: `badge pres-${p.status}` }, p.statusText)),
    h('p', { class: 'muted' }, `${CATEGORY_TEXT[p.category]}处方 ${p.presNo} · ${p.deptName} ${p.doctorName}医生 · ${time(p.createdAt)}`),
    h('p', {}, diagnosesText(p)),
    h('ul', { class: 'pres-drugs' }, ...p.lines.map((l) => h('li', {}, drugLineText(l)))),
    p.advice ? h('p', {}, `医嘱：${p.advice}`) : null,
    h('p', { class: 'muted' }, `药费 ${yuan(p.drugFeeFen)}${p.renewable ? ' · 可续方' : ''}${p.pharmacistName ? ` · 审方药师 ${p.pharmacistName} ${time(p.reviewedAt)}` : ''}`),
    p.status === 'rejected' ? h('p', { class: 'error' }, `驳回原因：${p.rejectReason}`) : null,
    p.status === 'reviewing'
      ? h(
          'div',
          { class: 'actions' },
          h('button', { type: 'button', class: 'primary', onclick: (e) => decide(e, 'approve', undefined, '审核通过，已发送给患者') }, '通过'),
          h('button', { type: 'button', class: 'danger', onclick: () => ((rejectForm.hidden = false), reason.focus()) }, '驳回'),
        )
      : null,
    p.status === 'reviewing' ? rejectForm : null,
  )
}

const DELIVERY_TEXT = { express: '快递配送', pickup: '到店自提' }

$('pharmacy-open').addEventListener('click', () => {
  $('pharmacy').hidden = false
  pressPanel('pharmacy-open')
  loadOrders().catch((err) => toast(err.message))
})
$('pharmacy-form').addEventListener('submit', (e) => {
  e.preventDefault()
  loadOrders().catch((err) => toast(err.message))
})
$('pharmacy-status').addEventListener('change', () => loadOrders().catch((err) => toast(err.message)))

async function loadOrders() {
  const status = $('pharmacy-status').value
  const orders = await api('GET', `/pharmacy/orders${status ? `?status=${status}` : ''}`)
  if ($('pharmacy-status').value !== status) return
  $('pharmacy-list').replaceChildren(...(orders.length ? orders.map(orderItem) : [h('li', { class: 'muted' }, '暂无订单')]))
}

function orderItem(o) {
  const move = (e, path, body, done) =>
    act(e.currentTarget, async () => {
      await api('POST', `/pharmacy/orders/${o.id}/${path}`, body)
      toast(`订单 ${o.orderCode} ${done}`)
      await loadOrders()
    })
  const confirmed = (question, path, done) => (e) => {
    if (confirm(question)) move(e, path, undefined, done)
  }
  let actions = null
  if (o.status === 'paid' && o.delivery === 'express') {
    const carrier = h('input', { list: 'carriers', maxlength: '32', 'aria-label': '快递公司', placeholder: '快递公司' })
    const trackingNo = h('input', { maxlength: '40', 'aria-label': '快递单号', placeholder: '快递单号', autocomplete: 'off' })
    actions = h(
      'div',
      { class: 'search-row' },
      carrier,
      trackingNo,
      h(
        'button',
        {
          type: 'button',
          class: 'primary',
          onclick: (e) => {
            const missing = [carrier, trackingNo].find((input) => !input.value.trim())
            if (missing) {
              toast(`请填写${missing.getAttribute('aria-label')}`)
              return missing.focus()
            }
            move(e, 'ship', { carrier: carrier.value.trim(), trackingNo: trackingNo.value.trim() }, '已发货')
          },
        },
        '发货',
      ),
    )
  } else if (o.status === 'paid') {
    actions = h('button', { type: 'button', class: 'primary', onclick: (e) => move(e, 'ready', undefined, '备药完成，已通知患者取药') }, '备药完成')
  } else if (o.status === 'shipped' || o.status === 'ready') {
    actions = h('button', { type: 'button', onclick: confirmed(`订单 ${o.orderCode} 患者已${o.status === 'ready' ? '取药' : '收货'}？`, 'complete', '已完成') }, '完成')
  } else if (o.status === 'refundRequested') {
    actions = h('button', { type: 'button', class: 'danger', onclick: confirmed(`同意订单 ${o.orderCode} 的退款？费用将原路退回。`, 'refund', '已退款') }, '同意退款')
  }
  return h(
    'li',
    {},
    h('p', {}, h('strong', {}, `${o.patientName || '商城订单'} · ${DELIVERY_TEXT[o.delivery]}`), h('span', { class: 'badge' }, o.statusText)),
    h('p', { class: 'muted' }, `订单号 ${o.orderCode} · ${o.storeName} · ${time(o.createdAt)}`),
    h('p', {}, o.address ? `收货：${o.address.name} ${o.address.mobile} ${o.address.regionText} ${o.address.detail}` : `自提：${o.store.name} ${o.store.address}`),
    h('ul', { class: 'pres-drugs' }, ...o.lines.map((l) => h('li', {}, `${l.drugName} ${l.drugSpec} × ${l.quantity}${l.unit} · ${yuan(l.amountFen)}`))),
    h('p', { class: 'muted' }, `药费 ${yuan(o.drugFeeFen)}${o.diagnosisFeeFen ? ` · 诊金 ${yuan(o.diagnosisFeeFen)}` : ''} · 配送费 ${yuan(o.expressFeeFen)} · 合计 ${yuan(o.totalFen)}`),
    o.carrier ? h('p', {}, `快递：${o.carrier} ${o.trackingNo}`) : null,
    o.refundReason ? h('p', { class: 'error' }, `退款原因：${o.refundReason}`) : null,
    actions,
  )
}
