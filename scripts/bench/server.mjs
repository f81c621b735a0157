import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'

export const root = join(import.meta.dirname, '..', '..')
/** The H5 build measured and served (config/index.ts puts it under BUILD_ROOT, dist by default). */
export const buildRoot = resolve(root, process.env.BUILD_ROOT ?? 'dist')

/** The seeded bench server (serve.ts) serving the H5 build; resolves with its first line (port, bench data) and the child. */
export function startServer(env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'scripts/bench/serve.ts'], { cwd: root, env: { ...process.env, H5_DIR: join(buildRoot, 'h5'), ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    const read = (chunk) => {
      out += chunk
      const end = out.indexOf('\n')
      if (end < 0) return
      child.stdout.off('data', read)
      resolve({ child, ...JSON.parse(out.slice(0, end)) })
    }
    child.stdout.on('data', read)
    child.once('exit', (code) => reject(new Error(`bench server exited ${code}`)))
  })
}

/** Stops the bench server (it drops its own database on the way out). */
export function stopServer(server) {
  return new Promise((resolve) => {
    server.child.once('exit', resolve)
    server.child.kill()
  })
}
