#!/usr/bin/env node
// `npm test`: everything CI runs, in order — type checks, the lint, unit and page tests (jest), server tests (node:test,
// on PGlite and, when TEST_DATABASE_URL is set, on that PostgreSQL server), the WeChat, Alipay and H5 builds (side by
// side), the mini-programs' check and the browser tests (Playwright + Debian Chromium at 390x844).
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const totals = { passed: 0, failed: 0 }
const started = Date.now()

/**
 * Chromium for the browser tests, and the Chinese font (WenQuanYi Micro Hei) that both the screenshots and the
 * sandbox physical-exam centre's PDF reports use (REPORT_FONT_FILE's default).
 */
const FONT_FILE = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc'

function ensureBrowser() {
  if (existsSync('/usr/bin/chromium') && existsSync(FONT_FILE)) return
  if (process.getuid?.() !== 0) {
    console.error('Browser tests and the PDF reports need Debian Chromium and a Chinese font: sudo apt-get update && sudo apt-get install -y chromium fonts-wqy-microhei')
    process.exit(1)
  }
  console.log('Installing Chromium and a Chinese font from Debian packages...')
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium', 'fonts-wqy-microhei']]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
    if (r.status !== 0) process.exit(r.status ?? 1)
  }
}

/** Runs a step, echoing its output; counts node:test's `# pass N` / `# fail N` lines. */
function run(title, cmd, args, env = {}) {
  return new Promise((resolve) => {
    const t0 = Date.now()
    console.log(`\n=== ${title}`)
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
    let buffer = ''
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk)
      buffer += chunk
    })
    child.on('exit', (code) => {
      for (const [, kind, n] of buffer.matchAll(/^# (pass|fail) (\d+)$/gm)) totals[kind === 'pass' ? 'passed' : 'failed'] += Number(n)
      console.log(`=== ${title}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
      if (code !== 0) {
        console.log(`${totals.passed} passed, ${Math.max(totals.failed, 1)} failed`)
        process.exit(code ?? 1)
      }
      resolve()
    })
  })
}

async function jest() {
  const out = join(mkdtempSync(join(tmpdir(), 'jest-')), 'result.json')
  await run('unit, page and runtime tests (jest)', 'npx', ['jest', '--json', `--outputFile=${out}`])
  const result = JSON.parse(readFileSync(out, 'utf8'))
  totals.passed += result.numPassedTests
  totals.failed += result.numFailedTests
}

const serverTests = readdirSync(join(root, 'test/server')).filter((f) => f.endsWith('.test.ts')).map((f) => `test/server/${f}`)
/** Tests that need a PostgreSQL server (several server processes on one database, its named statements), which PGlite cannot run. */
const postgresOnlyTests = ['test/server/processes.test.ts', 'test/server/namedStatements.test.ts']
const e2eTests = readdirSync(join(root, 'test/e2e')).filter((f) => f.endsWith('.test.ts')).map((f) => `test/e2e/${f}`)
const nodeTest = (files, extra = []) => ['--import', 'tsx', '--test', '--test-reporter=tap', ...extra, ...files]

ensureBrowser()
// the two type checks at once: each is one core's work
await Promise.all([
  run('type check', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']),
  run('type check (server, server and browser tests)', 'npx', ['tsc', '--noEmit', '-p', 'server/tsconfig.json']),
])
await run('lint (eslint.config.mjs, no warnings)', 'npx', ['eslint', '--max-warnings', '0', '.'])
await jest()
// each server test file starts its apps on a database of its own (test/server/harness.ts), so two files run at once:
// node:test would otherwise run one at a time on a 2-core machine (its default is the core count less one)
const pgliteTests = serverTests.filter((f) => !postgresOnlyTests.includes(f))
await run('server tests on PGlite', process.execPath, nodeTest(pgliteTests, ['--test-concurrency=2']), { TEST_DATABASE_URL: '' })
if (process.env.TEST_DATABASE_URL) await run('server tests on PostgreSQL', process.execPath, nodeTest(serverTests, ['--test-concurrency=2']))
// a mini-program build refuses to go on without the server's https origin (config/index.ts): a test one stands in
const miniEnv = { TARO_APP_API_BASE: 'https://api.hospital.example' }
// the three builds at once, each into its own folder: one after another they left 10-30 % of the 2 cores idle, and
// together they took 126 s against 185 s
await Promise.all([
  run('WeChat mini-program build', 'npx', ['taro', 'build', '--type', 'weapp'], miniEnv),
  run('Alipay mini-program build', 'npx', ['taro', 'build', '--type', 'alipay'], miniEnv),
  run('H5 build', 'npx', ['taro', 'build', '--type', 'h5']),
])
await run('mini-program build check', process.execPath, nodeTest(['test/build/mini.test.ts']))
await run('mini-program builds load, scan and share (harness)', process.execPath, nodeTest(['test/build/load.test.ts', 'test/build/share.test.ts']))
// each browser test file has its own server and data directory, a copy of a seeded one (test/e2e/support.ts); two
// files at once keep the 2 cores busy (idle 1-16 % of the time, sampled every 10 s in a CI run)
await run('browser tests (Chromium 390x844)', process.execPath, nodeTest(e2eTests, ['--test-concurrency=2']))
console.log(`\nAll steps passed in ${((Date.now() - started) / 60000).toFixed(1)} min.`)
console.log(`${totals.passed} passed, ${totals.failed} failed`)
