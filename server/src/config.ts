import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** Every setting the server reads from the environment, documented in the README. */
export interface Config {
  mode: 'production' | 'development' | 'test'
  /**
   * A demo or training server: sandboxes stand in for missing providers, the demo hospitals are seeded and the app
   * shows 演示环境. Always outside production; in production only with DEMO=1 (productionCheck.ts).
   */
  demo: boolean
  host: string
  port: number
  /** Where the public pages live, e.g. https://hospital.example.com; used to build redirect URLs. */
  publicUrl: string | null
  dataDir: string
  databaseUrl: string | null
  /** Secret for signing local chat signatures and sandbox notifications (generated into dataDir when unset). */
  secret: string
  /** AES-256 key (base64) for sensitive fields at rest (generated into dataDir when unset). */
  dataKey: string
  h5Dir: string
  uploadDir: string
  uploadMaxBytes: number
  /**
   * SMS codes one client address may ask for per minute (each mobile also waits 60 s between codes). A hospital whose
   * patients share one address (its Wi-Fi behind NAT) raises it.
   */
  smsPerAddressPerMinute: number
  /**
   * The reverse proxies whose X-Forwarded-For is believed (TRUST_PROXY: addresses or CIDR ranges, comma-separated);
   * none by default. Trusting any other peer lets a client name its own address and escape the per-address limits.
   */
  trustProxy: string[]
  defaultAppId: string
  wechat: Record<string, string> // appId -> appSecret for the real OAuth and JS-SDK
  /** The WeChat mini-programs' secrets (appId -> appSecret) for code2session. */
  wechatMini: Record<string, string>
  /** Alipay web authorisation (sign-in); the same kind of settings as payment, possibly another Alipay app. */
  alipay: AlipaySettings | null
  /** The Alipay mini-program (its own app on the open platform) for its sign-in. */
  alipayMini: AlipaySettings | null
  tim: { sdkAppId: number; secretKey: string } | null
  sms: { provider: 'sandbox' } | { provider: 'http'; url: string; token: string }
  /** Tencent Cloud OCR for identity-card photos; the sandbox reads the demo cards the seed ships. */
  ocr: { secretId: string; secretKey: string; region: string } | null
  /** Tencent electronic health card (电子健康卡) open platform; the sandbox serves its own authorisation page. */
  healthCard: { appId: string; appSecret: string; hospitalIds: Record<string, string> } | null
  /** Tencent Location Service web API key for reverse geocoding; the sandbox knows city centres. */
  map: { key: string } | null
  /** WeChat Pay API v3 (JSAPI) merchant; patients signed in with WeChat under `appId` pay with it. */
  wechatPay: WechatPaySettings | null
  /** Alipay (wap pay); patients signed in with Alipay pay with it. */
  alipayPay: AlipaySettings | null
  /**
   * The sandbox payment provider (a cashier page on this server). On by default only on a demo server while no real
   * channel is configured, so a production server never lets anyone "pay" with it; PAY_SANDBOX=1 keeps it on beside
   * them (refused in production without DEMO=1).
   */
  paySandbox: boolean
  /**
   * The hospital's health-insurance gateway (医保前置机, see providers/insurance.ts); the sandbox platform serves its own
   * authorisation page and splits bills by one rule per insurance type.
   */
  insurance: InsuranceConfig | null
  /**
   * The hospital information system (HIS: bills, queues, the price catalogue; later admissions and registration),
   * reached over the HTTP contract in providers/his.ts; without it a demo server runs the sandbox HIS in its own
   * database (with a staff console on the workbench), and any other server has no outpatient payment.
   */
  his: HisConfig | null
  /**
   * The cloud film viewer (云影像) a report's images open in: a URL with {studyUid}, {reportNo}, {expires} (unix
   * seconds) and {sign} (hex HMAC-SHA256 of `studyUid:expires` with the app secret, for a viewer that checks it).
   * Null: this server's sandbox viewer on a demo server, no cloud film elsewhere.
   */
  pacsViewerUrl: string | null
  /**
   * An OpenAI-compatible chat endpoint for the doctor AI agent (智能导诊); without it the built-in rules answer.
   * `baseUrl` is the part before `/chat/completions`; `apiKey` may be empty for an endpoint that needs none.
   */
  ai: { baseUrl: string; apiKey: string; model: string } | null
  /** How often unpaid orders past their time are closed and stuck refunds asked again (0: never; tests call it). */
  orderSweepMs: number
  /**
   * The password the demo seed gives the doctors' and assistants' workbench accounts it creates (`/workbench/`);
   * null (no accounts seeded) in production unless STAFF_DEMO_PASSWORD is set.
   */
  staffDemoPassword: string | null
  /** How long a SIGTERM drain may take (requests in flight, chat sockets, the database) before the process exits anyway. */
  shutdownGraceMs: number
  /** How many server processes `server.ts` runs on the port (node:cluster); more than one needs DATABASE_URL. */
  workers: number
  /** PostgreSQL's connection pool and the embedded database's turns (DB_*), for openDatabase. */
  database: DatabaseSettings
  /** The bearer token that opens `GET /metrics` (Prometheus); without it there are no metrics to read. */
  metricsToken: string | null
  logLevel: string
}

export interface InsuranceConfig {
  url: string
  appId: string
  secret: string
  /** hospitalCode -> the hospital's code at the insurance platform (定点医药机构编码). */
  orgCodes: Record<string, string>
  /** The channels' authorisation pages, with {orgCode} and {redirect} to fill in. */
  authorizePages: Partial<Record<'wechat' | 'alipay', string>>
}

/** The HIS adapter's settings (HIS): its base URL, and the app id and secret every request is signed with. */
export interface HisConfig {
  url: string
  appId: string
  secret: string
}

export interface WechatPaySettings {
  mchId: string
  appId: string
  /** Serial number of the merchant API certificate. */
  serialNo: string
  /** Merchant API private key (PEM). */
  privateKey: string
  apiV3Key: string
  /** WeChat Pay platform public key (PEM) that signs notifications and answers. */
  platformPublicKey: string
}

/** An app on the Alipay open platform (providers/alipay.ts): sign-in (ALIPAY) and payment (ALIPAY_PAY). */
export interface AlipaySettings {
  appId: string
  /** Application private key (PEM, or the bare base64 PKCS#8 body Alipay's tool gives). */
  privateKey: string
  /** Alipay public key (PEM or bare base64). */
  alipayPublicKey: string
  /** Defaults to the production gateway. */
  gateway?: string
}

function requireFields<T extends object>(name: string, value: T | null, fields: (keyof T)[]): T | null {
  if (!value) return null
  const missing = fields.filter((f) => typeof value[f] !== 'string' || !(value[f] as string))
  if (missing.length) throw new Error(`${name} is missing ${missing.join(', ')}`)
  return value
}

function insuranceConfig(value: InsuranceConfig | null): InsuranceConfig | null {
  const cfg = requireFields<InsuranceConfig>('INSURANCE', value, ['url', 'appId', 'secret'])
  if (cfg && (typeof cfg.orgCodes !== 'object' || typeof cfg.authorizePages !== 'object')) throw new Error('INSURANCE is missing orgCodes or authorizePages')
  return cfg
}

function aiConfig(env: NodeJS.ProcessEnv): Config['ai'] {
  if (!env.AI_BASE_URL) return null
  if (!env.AI_MODEL) throw new Error('AI_MODEL is required with AI_BASE_URL')
  return { baseUrl: env.AI_BASE_URL, apiKey: env.AI_API_KEY ?? '', model: env.AI_MODEL }
}

/** The demo workbench password when STAFF_DEMO_PASSWORD is unset (README, demo people). */
export const DEMO_STAFF_PASSWORD = 'demo1234'

/** STAFF_DEMO_PASSWORD, else the demo default outside production (a production server gets no known password). */
export function staffDemoPasswordOf(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.STAFF_DEMO_PASSWORD) return env.STAFF_DEMO_PASSWORD
  return env.NODE_ENV === 'production' ? null : DEMO_STAFF_PASSWORD
}

function keyFile(dir: string, name: string, bytes: number): string {
  const file = join(dir, name)
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(dir, { recursive: true })
  const value = randomBytes(bytes).toString('base64')
  writeFileSync(file, value + '\n', { mode: 0o600 })
  return value
}

function parseJson<T>(name: string, raw: string | undefined): T | null {
  if (!raw) return null
  try {
    return JSON.parse(raw) as T
  } catch {
    throw new Error(`${name} is not valid JSON`)
  }
}

/**
 * A setting that is a whole number from `min` (WORKERS, the embedded database's DB_* bounds), `fallback` when unset;
 * anything else is a mistake worth refusing to start on (a NaN bound would refuse or admit every request).
 */
function wholeNumberSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const value = env[name]
  if (!value) return fallback
  const n = Number(value)
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`${name} must be a whole number from ${min}, not ${JSON.stringify(value)}`)
  return n
}

/** How the server uses its database (db/index.ts openDatabase). */
export interface DatabaseSettings {
  /** PostgreSQL: connections in each process's pool (DB_POOL_SIZE). */
  poolSize: number
  /**
   * PostgreSQL: the statement texts each connection keeps parsed and planned (DB_NAMED_STATEMENTS, db/index.ts
   * namingClient); 0 sends every statement unnamed, as a pooler in transaction mode that does not support the
   * protocol's prepared statements (PgBouncer before 1.21) requires.
   */
  namedStatements: number
  /** PGlite: requests at work on it at once (DB_ACTIVE_REQUESTS; the others wait their turn, first come first served). */
  activeRequests: number
  /** PGlite: requests waiting their turn beyond which a new request is answered busy at once (DB_QUEUE_MAX). */
  queueMax: number
  /** PGlite: how long a request waits for its turn before it is answered busy, having done nothing (DB_QUEUE_WAIT_MS). */
  queueWaitMs: number
}

export const DATABASE_DEFAULTS: DatabaseSettings = { poolSize: 10, namedStatements: 500, activeRequests: 8, queueMax: 1000, queueWaitMs: 1000 }

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const mode = (env.NODE_ENV === 'production' || env.NODE_ENV === 'test' ? env.NODE_ENV : 'development') as Config['mode']
  const dataDir = resolve(env.DATA_DIR ?? 'data')
  const timId = env.TIM_SDK_APP_ID ? Number(env.TIM_SDK_APP_ID) : 0
  const demo = mode !== 'production' || env.DEMO === '1' || env.DEMO === 'true'
  const base: Config = {
    mode,
    demo,
    host: env.HOST ?? '0.0.0.0',
    port: Number(env.PORT ?? 8080),
    publicUrl: env.PUBLIC_URL ?? null,
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    secret: env.APP_SECRET ?? (overrides.secret ? '' : keyFile(dataDir, 'app-secret.key', 32)),
    dataKey: env.DATA_KEY ?? (overrides.dataKey ? '' : keyFile(dataDir, 'data.key', 32)),
    h5Dir: resolve(env.H5_DIR ?? 'dist/h5'),
    uploadDir: resolve(env.UPLOAD_DIR ?? join(dataDir, 'uploads')),
    uploadMaxBytes: Number(env.UPLOAD_MAX_BYTES ?? 10 * 1024 * 1024),
    smsPerAddressPerMinute: Number(env.SMS_PER_ADDRESS_PER_MINUTE ?? 5),
    trustProxy: (env.TRUST_PROXY ?? '').split(',').map((a) => a.trim()).filter(Boolean),
    defaultAppId: env.DEFAULT_APP_ID ?? 'wxdemo0000000000',
    wechat: parseJson<Record<string, string>>('WECHAT_APPS', env.WECHAT_APPS) ?? {},
    wechatMini: parseJson<Record<string, string>>('WECHAT_MINI_APPS', env.WECHAT_MINI_APPS) ?? {},
    alipay: requireFields<AlipaySettings>('ALIPAY', parseJson('ALIPAY', env.ALIPAY), ['appId', 'privateKey', 'alipayPublicKey']),
    alipayMini: requireFields<AlipaySettings>('ALIPAY_MINI', parseJson('ALIPAY_MINI', env.ALIPAY_MINI), ['appId', 'privateKey', 'alipayPublicKey']),
    tim: timId && env.TIM_SECRET_KEY ? { sdkAppId: timId, secretKey: env.TIM_SECRET_KEY } : null,
    sms: env.SMS_URL ? { provider: 'http', url: env.SMS_URL, token: env.SMS_TOKEN ?? '' } : { provider: 'sandbox' },
    ocr: env.OCR_SECRET_ID && env.OCR_SECRET_KEY ? { secretId: env.OCR_SECRET_ID, secretKey: env.OCR_SECRET_KEY, region: env.OCR_REGION ?? 'ap-guangzhou' } : null,
    healthCard: parseJson('HEALTH_CARD', env.HEALTH_CARD),
    map: env.MAP_KEY ? { key: env.MAP_KEY } : null,
    wechatPay: requireFields<WechatPaySettings>('WECHAT_PAY', parseJson('WECHAT_PAY', env.WECHAT_PAY), [
      'mchId',
      'appId',
      'serialNo',
      'privateKey',
      'apiV3Key',
      'platformPublicKey',
    ]),
    alipayPay: requireFields<AlipaySettings>('ALIPAY_PAY', parseJson('ALIPAY_PAY', env.ALIPAY_PAY), ['appId', 'privateKey', 'alipayPublicKey']),
    insurance: insuranceConfig(parseJson('INSURANCE', env.INSURANCE)),
    his: requireFields<HisConfig>('HIS', parseJson('HIS', env.HIS), ['url', 'appId', 'secret']),
    pacsViewerUrl: env.PACS_VIEWER_URL || null,
    ai: aiConfig(env),
    paySandbox: env.PAY_SANDBOX ? env.PAY_SANDBOX === '1' || env.PAY_SANDBOX === 'true' : demo && !env.WECHAT_PAY && !env.ALIPAY_PAY,
    orderSweepMs: env.ORDER_SWEEP_SECONDS ? Math.max(0, Number(env.ORDER_SWEEP_SECONDS) || 0) * 1000 : mode === 'test' ? 0 : 30_000,
    logLevel: env.LOG_LEVEL ?? (mode === 'test' ? 'silent' : 'info'),
    staffDemoPassword: staffDemoPasswordOf(env),
    shutdownGraceMs: (Number(env.SHUTDOWN_GRACE_SECONDS) > 0 ? Number(env.SHUTDOWN_GRACE_SECONDS) : 10) * 1000,
    workers: wholeNumberSetting(env, 'WORKERS', 1),
    database: {
      poolSize: wholeNumberSetting(env, 'DB_POOL_SIZE', DATABASE_DEFAULTS.poolSize),
      namedStatements: wholeNumberSetting(env, 'DB_NAMED_STATEMENTS', DATABASE_DEFAULTS.namedStatements, 0),
      activeRequests: wholeNumberSetting(env, 'DB_ACTIVE_REQUESTS', DATABASE_DEFAULTS.activeRequests),
      queueMax: wholeNumberSetting(env, 'DB_QUEUE_MAX', DATABASE_DEFAULTS.queueMax, 0),
      queueWaitMs: wholeNumberSetting(env, 'DB_QUEUE_WAIT_MS', DATABASE_DEFAULTS.queueWaitMs),
    },
    metricsToken: env.METRICS_TOKEN || null,
  }
  return { ...base, ...overrides }
}
