#!/usr/bin/env node
// The H5 first load: the JS and CSS the browser fetches to show the home page of /h5/, gzip bytes, and the largest
// packages and files in it. `npm run bench` prints it first; `node scripts/bench/firstLoad.mjs` prints it alone
// (against BUILD_ROOT, dist by default, after an H5 production build). Prints figures, asserts nothing.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { buildRoot, startServer, stopServer } from './lib.mjs'

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

export async function firstLoad(port) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } })
  const assets = new Set()
  const images = new Set()
  page.on('request', (r) => {
    const { pathname: path, protocol } = new URL(r.url())
    if (/\.(js|css)$/.test(path)) assets.add(path)
    else if (protocol === 'http:' && /\.(svg|png|jpe?g|webp|gif)$/.test(path)) images.add(path)
  })
  await page.goto(`http://127.0.0.1:${port}/h5/?hospitalCode=10392`)
  await page.waitForURL(/\/pages\/sys\/merge\/index/, { timeout: 60_000 })
  await page.getByText('预约挂号', { exact: true }).waitFor({ timeout: 60_000 })
  // the icons are drawn from files of their own (config/iconFiles.mjs) once the page is on screen
  await page.waitForLoadState('networkidle')
  await browser.close()
  let js = 0
  let css = 0
  for (const path of assets) {
    const bytes = gzipSync(readFileSync(join(buildRoot, path)), { level: 9 }).length
    if (path.endsWith('.js')) js += bytes
    else css += bytes
  }
  // the pictures the home shows (its icons; the banners' pictures are the hospital's), not part of the figure
  // above: they come after the scripts have run and block nothing
  let imageBytes = 0
  for (const path of images) if (existsSync(join(buildRoot, path))) imageBytes += gzipSync(readFileSync(join(buildRoot, path)), { level: 9 }).length
  return { files: assets.size, js, css, images: images.size, imageBytes, largest: largestModules([...assets]) }
}

/**
 * The packages and project files the first load's scripts are made of, largest first, with their sizes before
 * minification (config/bundleStats.ts writes them at each H5 production build).
 */
function largestModules(assets, count = 15) {
  const statsFile = join(buildRoot, 'h5-bundle-stats.json')
  if (!existsSync(statsFile)) return []
  const stats = JSON.parse(readFileSync(statsFile, 'utf8'))
  const sizes = new Map()
  for (const path of assets) {
    for (const [name, size] of Object.entries(stats[path.replace(/^\/h5\//, '')] ?? {})) sizes.set(name, (sizes.get(name) ?? 0) + size)
  }
  return [...sizes].sort((a, b) => b[1] - a[1]).slice(0, count)
}

export const kb = (n) => `${(n / 1024).toFixed(1)} KB`

export function printFirstLoad(fl) {
  console.log(`H5 first load of /h5/ (home of 10392): ${fl.files} files, JS ${kb(fl.js)} + CSS ${kb(fl.css)} = ${kb(fl.js + fl.css)} gzip`)
  console.log(`  then ${fl.images} pictures of the build (icons), ${kb(fl.imageBytes)} gzip`)
  if (fl.largest.length) console.log(`  largest in it (before minification): ${fl.largest.map(([name, size]) => `${name} ${kb(size)}`).join(', ')}`)
}

if (import.meta.main ?? process.argv[1] === import.meta.filename) {
  // the home page needs only the demo hospitals: the other benchmarks' accounts are left small
  const server = await startServer({ BENCH_BOOKERS: '1', BENCH_CHAT_CLIENTS: '2' })
  try {
    printFirstLoad(await firstLoad(server.port))
  } finally {
    await stopServer(server)
  }
}
