#!/usr/bin/env node
// Lighthouse (mobile preset: a mid-range phone on a slow 4G link, simulated) on a few H5 pages, each the median of 3
// runs by performance score: the score, Largest Contentful Paint and Total Blocking Time; then, measured in a throttled
// Chromium, the home's largest paint (throttledHomePaint) and how soon a visitor with no mobile bound who opens the
// department list sees the bind page (throttledBindPage). `npm run bench` prints them after the first load;
// `node scripts/bench/lighthouse.mjs` prints them alone (against BUILD_ROOT after an H5 production build). Beside
// them, the same figures of a bare Taro 4 + NutUI + MobX app of one page (bareApp.mjs): the floor this stack starts
// from. It drives the Debian Chromium; nothing is downloaded. Prints figures, asserts nothing.
import lighthouse from 'lighthouse'
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS } from './firstLoad.mjs'
import { buildBareApp } from './bareApp.mjs'
import { percentiles, startServer, stopServer } from './lib.mjs'

/** The pages measured, as a visitor opens them (not signed in: a page behind the sign-in shows the bind page). */
export const LIGHTHOUSE_PAGES = [
  ['home', '/h5/?hospitalCode=10392'],
  ['department list', '/h5/palm/register/deptList/index?hospitalCode=10392'],
  ['my consultations', '/h5/pages/sys/conversation/index?hospitalCode=10392'],
]
const RUNS = 3
const DEBUG_PORT = 9333

export async function lighthouseFigures(port, pages = LIGHTHOUSE_PAGES) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS, `--remote-debugging-port=${DEBUG_PORT}`] })
  const figures = []
  try {
    for (const [name, path] of pages) {
      const runs = []
      // a run that could not compute a metric (Lighthouse's NO_LCP now and then) has no score: it is run again, up to
      // RUNS failed runs, and counted, rather than entering the median as 0
      let failed = 0
      while (runs.length < RUNS && failed < RUNS) {
        const { lhr } = await lighthouse(`http://127.0.0.1:${port}${path}`, { port: DEBUG_PORT, output: 'json', logLevel: 'error', onlyCategories: ['performance'] })
        const run = {
          score: Math.round((lhr.categories.performance.score ?? NaN) * 100),
          lcp: lhr.audits['largest-contentful-paint'].numericValue ?? NaN,
          tbt: lhr.audits['total-blocking-time'].numericValue ?? NaN,
        }
        if (Object.values(run).every(Number.isFinite)) runs.push(run)
        else failed++
      }
      runs.sort((a, b) => a.score - b.score)
      figures.push({ name, path, failed, ...(runs[Math.floor(runs.length / 2)] ?? { score: NaN, lcp: NaN, tbt: NaN }) })
    }
  } finally {
    await browser.close()
  }
  return figures
}

/** The bare app's figures (bareApp.mjs), built now and served by a bench server of its own as the app is. */
export async function bareAppFigures() {
  const bare = buildBareApp()
  try {
    const server = await startServer({ H5_DIR: bare.h5Dir, BENCH_FIXTURES: '0' })
    try {
      const [figures] = await lighthouseFigures(server.port, [['bare Taro app', '/h5/']])
      return figures
    } finally {
      await stopServer(server)
    }
  } finally {
    bare.remove()
  }
}

/** The visits of `throttledHomePaint` and `throttledBindPage`, each a new visitor's. */
const VISITS = 9

/** A page of its own in `browser`, a phone's, throttled as DevTools does: 150 ms round trips, 1.6 Mbit/s down, the CPU 4x slower. */
async function throttledPage(browser) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true })
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 })
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
  return { context, page, cdp }
}

/**
 * The home's largest paint as Chromium measures it on a throttled page (throttledPage), the median of VISITS visits
 * of a new visitor (the sandbox's silent sign-in included). Lighthouse's figure is simulated from one fast load and
 * swings by several points between runs; this one is taken, and moves less, so a change to the home's loading shows
 * in it.
 */
export async function throttledHomePaint(port) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })
  const paints = []
  try {
    for (let i = 0; i < VISITS; i++) {
      const { context, page } = await throttledPage(browser)
      await page.goto(`http://127.0.0.1:${port}${LIGHTHOUSE_PAGES[0][1]}`)
      await page.locator('.home__banner').first().waitFor({ state: 'visible', timeout: 60_000 })
      paints.push(
        await page.evaluate(
          () =>
            new Promise((resolve) =>
              new PerformanceObserver((list) => resolve(list.getEntries().at(-1).startTime)).observe({ type: 'largest-contentful-paint', buffered: true }),
            ),
        ),
      )
      await context.close()
    }
  } finally {
    await browser.close()
  }
  return percentiles(paints).p50
}

/**
 * A visitor with no mobile bound who opens the department list binds first: the time from opening its address to
 * the bind page's agreement line showing, on a throttled page (throttledPage), median of VISITS visitors. Each
 * visitor comes twice: new (the sandbox's silent sign-in, then the bind page), and again with the sign-in kept and
 * the browser's cache emptied (as in Lighthouse's later runs).
 */
export async function throttledBindPage(port) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })
  const times = { newVisitor: [], again: [] }
  try {
    for (let i = 0; i < VISITS; i++) {
      const { context, page, cdp } = await throttledPage(browser)
      for (const visit of ['newVisitor', 'again']) {
        if (visit === 'again') await cdp.send('Network.clearBrowserCache')
        const start = Date.now()
        await page.goto(`http://127.0.0.1:${port}${LIGHTHOUSE_PAGES[1][1]}`)
        await page.locator('.agree-check__words').first().waitFor({ state: 'visible', timeout: 60_000 })
        times[visit].push(Date.now() - start)
      }
      await context.close()
    }
  } finally {
    await browser.close()
  }
  return { newVisitor: percentiles(times.newVisitor).p50, again: percentiles(times.again).p50 }
}

export function printLighthouse(figures, homePaint, bindPage, bare) {
  console.log(`Lighthouse mobile, median of ${RUNS} runs (simulated slow 4G and a mid-range phone's CPU):`)
  const row = (f, what) =>
    `  ${f.name.padEnd(18)} performance ${String(f.score).padStart(3)}   LCP ${(f.lcp / 1000).toFixed(1)} s   TBT ${Math.round(f.tbt)} ms   (${what})` +
    (f.failed ? `; ${f.failed} run${f.failed > 1 ? 's' : ''} without a score, run again` : '')
  for (const f of figures) console.log(row(f, f.path))
  if (bare) console.log(row(bare, 'a Taro 4 + NutUI + MobX app of one page, no calls: the floor of this stack'))
  if (homePaint !== undefined) console.log(`  home in Chromium throttled alike (150 ms round trips, 1.6 Mbit/s, CPU 4x slower), median of ${VISITS} visits: LCP ${(homePaint / 1000).toFixed(2)} s`)
  if (bindPage)
    console.log(
      `  department list of a visitor with no mobile bound, to the bind page shown, in Chromium throttled alike, median of ${VISITS}: ` +
        `${(bindPage.newVisitor / 1000).toFixed(2)} s new, ${(bindPage.again / 1000).toFixed(2)} s again with an empty cache`,
    )
}

if (process.argv[1] === import.meta.filename) {
  const server = await startServer({ BENCH_BOOKERS: '1', BENCH_CHAT_CLIENTS: '2' })
  try {
    printLighthouse(await lighthouseFigures(server.port), await throttledHomePaint(server.port), await throttledBindPage(server.port), await bareAppFigures())
  } finally {
    await stopServer(server)
  }
}
