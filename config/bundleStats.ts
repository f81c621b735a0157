import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/** The parts of webpack's module and compilation objects this plugin reads. */
interface Module {
  size(): number
  nameForCondition(): string | null
  identifier(): string
  /** A ConcatenatedModule's parts. */
  modules?: Module[]
}
interface Chunk {
  files: Set<string>
}
interface Compilation {
  chunks: Set<Chunk>
  chunkGraph: { getChunkModules(chunk: Chunk): Module[] }
}
interface Compiler {
  hooks: { done: { tap(name: string, fn: (stats: { compilation: Compilation }) => void): void } }
}

/** Who a module belongs to, as a reader knows it: its package for what is in node_modules, else its project path. */
function owner(m: Module): string {
  const path = m.nameForCondition() ?? m.identifier()
  if (/^data:/.test(path)) return '(inline data: fonts, images)'
  const pkg = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)
  if (pkg) return pkg[1]!
  const src = path.match(/\/(src\/.*)$/)
  return src ? src[1]! : path
}

/**
 * Writes, after an H5 production build, which source modules make up each emitted script (by package, or by project
 * file), with their sizes before minification: `npm run bench` joins it with the scripts the home page fetches to
 * list what the first load carries. The file goes beside the served folder, never into it.
 */
export class BundleStatsPlugin {
  constructor(private readonly file: string) {}

  apply(compiler: Compiler) {
    compiler.hooks.done.tap('BundleStatsPlugin', ({ compilation }) => {
      const files: Record<string, Record<string, number>> = {}
      for (const chunk of compilation.chunks) {
        const sizes: Record<string, number> = {}
        const add = (m: Module) => {
          if (m.modules?.length) return m.modules.forEach(add)
          const key = owner(m)
          sizes[key] = (sizes[key] ?? 0) + m.size()
        }
        compilation.chunkGraph.getChunkModules(chunk).forEach(add)
        for (const f of chunk.files) if (f.endsWith('.js')) files[f] = sizes
      }
      mkdirSync(dirname(this.file), { recursive: true })
      writeFileSync(this.file, JSON.stringify(files))
    })
  }
}
