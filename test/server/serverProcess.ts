import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'

/**
 * The real server as a child process (`node --import tsx server/src/server.ts`), for tests that must see what only a
 * process shows: a SIGKILL in the middle of its work, a restart on the same database and data folder.
 */

const root = join(__dirname, '..', '..')
/** The last characters of its output kept, to show why it would not start or what it said before dying. */
const OUTPUT_KEPT = 20_000

/** A port nobody listens on right now, on the loopback address. */
export async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

export interface ServerProcess {
  /** http://127.0.0.1:<port> */
  origin: string
  child: ChildProcess
  /** What it wrote to stdout and stderr (the last part). */
  output(): string
  /** Kills it with `signal` and resolves once it has exited. */
  kill(signal: NodeJS.Signals): Promise<void>
}

/**
 * Starts the server with `env` on top of this process's environment (minus the test runner's own variables) on
 * 127.0.0.1:`port`, and resolves once `probe` (a path) answers the envelope with code 200: it is listening and
 * reaches its database. Rejects, with its output, when it exits first or does not answer within `timeoutMs`.
 */
export async function startServerProcess(opts: { env: Record<string, string>; port: number; probe: string; timeoutMs: number }): Promise<ServerProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...opts.env, HOST: '127.0.0.1', PORT: String(opts.port) }
  delete env.NODE_TEST_CONTEXT // set by node --test for its own children; the server is not one
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT)
  }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const alive = () => child.exitCode === null && child.signalCode === null
  const server: ServerProcess = {
    origin: `http://127.0.0.1:${opts.port}`,
    child,
    output: () => output,
    async kill(signal) {
      if (alive()) child.kill(signal)
      await exited
    },
  }

  const deadline = Date.now() + opts.timeoutMs
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before answering:\n${output}`)
    try {
      const res = await fetch(`${server.origin}${opts.probe}`, { signal: AbortSignal.timeout(2_000) })
      if (res.ok && ((await res.json()) as { code?: number }).code === 200) return server
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await server.kill('SIGKILL')
  throw new Error(`the server did not answer ${opts.probe} within ${opts.timeoutMs} ms:\n${output}`)
}
