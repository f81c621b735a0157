#!/usr/bin/env node
// `npm start`: builds the H5 app when it is missing or older than its sources, then starts the server
// (embedded PGlite in ./data with demo data unless DATABASE_URL is set).
import { spawnSync, spawn } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const built = join(root, 'dist', 'h5', 'index.html')

function newest(dir) {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return latest
}

const sourcesChanged = () => Math.max(newest(join(root, 'src')), newest(join(root, 'config')), statSync(join(root, 'babel.config.js')).mtimeMs)

if (!existsSync(built) || statSync(built).mtimeMs < sourcesChanged()) {
  console.log('Building the H5 app (about half a minute)...')
  const r = spawnSync('npx', ['taro', 'build', '--type', 'h5'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], { cwd: root, stdio: 'inherit' })
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig))
server.on('exit', (code) => process.exit(code ?? 0))
