// The floor of this stack for Lighthouse: a bare Taro 4 + NutUI + MobX H5 app of one page (bareApp/: a banner and a
// button, no calls), built with the app's own configuration (config/, Babel, package.json) and served by the bench
// server as the app is. `npm run bench` prints its Lighthouse figures beside the app's, as the server section prints
// a bare Fastify app beside ours. Prints figures, asserts nothing.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { root } from './lib.mjs'

/**
 * Builds the bare app for H5 in a temporary project beside this one (its src/ from bareApp/, the rest the app's) and
 * answers its H5 folder and a function that removes the project.
 */
export function buildBareApp() {
  const project = mkdtempSync(join(tmpdir(), 'bare-taro-'))
  for (const name of ['node_modules', 'package.json', 'tsconfig.json']) symlinkSync(join(root, name), join(project, name))
  // copied, not linked: Taro compiles the configuration only inside the project it builds
  for (const name of ['config', 'babel.config.js']) cpSync(join(root, name), join(project, name), { recursive: true })
  mkdirSync(join(project, 'src'))
  cpSync(join(import.meta.dirname, 'bareApp'), join(project, 'src'), { recursive: true })
  // the app's page template (the text-size script, the loading placeholder) and the site icon the build copies
  for (const name of ['index.html', 'favicon.svg']) cpSync(join(root, 'src', name), join(project, 'src', name))
  const out = join(project, 'out')
  const remove = () => rmSync(project, { recursive: true, force: true })
  try {
    execFileSync(process.execPath, [join(root, 'node_modules', '@tarojs', 'cli', 'bin', 'taro'), 'build', '--type', 'h5'], {
      cwd: project,
      env: { ...process.env, BUILD_ROOT: out, TARO_ENV: 'h5', NODE_ENV: 'production' },
      stdio: 'pipe',
    })
  } catch (err) {
    remove()
    // Taro writes its errors to the standard output
    throw new Error(`The bare app did not build:\n${err.stdout ?? ''}${err.stderr ?? ''}`)
  }
  return { h5Dir: join(out, 'h5'), remove }
}
