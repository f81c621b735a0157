/**
 * Would the WeChat and Alipay builds load in their mini-program? Reads dist/weapp and dist/alipay as
 * `npx taro build --type weapp|alipay` left them (scripts/test.mjs builds both, with a test TARO_APP_API_BASE, first):
 * every page of src/routes.ts declared and present, the subpackages as routes.ts has them, each package and the whole
 * under the platform's size limits, no H5-only code, the Tencent IM SDK in the internet subpackage only, and an absolute
 * https API origin.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, test } from 'node:test'
import { MAIN_PAGES, SUB_PACKAGES } from '../../src/routes'

const ROOT = join(__dirname, '..', '..')
const MB = 1024 * 1024

const PLATFORMS = [
  // WeChat: https://developers.weixin.qq.com/miniprogram/dev/framework/subpackages.html
  { name: 'weapp', template: '.wxml', style: '.wxss', packageLimit: 2 * MB, totalLimit: 20 * MB },
  // Alipay: https://docs.alipay.com/mini/framework/subpackages (分包大小限制: 所有分包不超过 8MB, 单个分包或主包不超过 2MB)
  { name: 'alipay', template: '.axml', style: '.acss', packageLimit: 2 * MB, totalLimit: 8 * MB },
]

/**
 * Strings that only H5 code carries (each is in the H5 build's JS), each checked against the package it comes from
 * so that a marker an upgrade renames fails here instead of passing unnoticed.
 */
const H5_ONLY = [
  // @tarojs/router, the H5 router: the class it gives a page that has a navigation bar
  { marker: 'taro_navigation_page', source: 'node_modules/@tarojs/router/dist/index.esm.js' },
  // Stencil, the runtime of @tarojs/components' H5 web components: a component's reference to its host element
  { marker: '$hostElement$', source: 'node_modules/@stencil/core/internal/client/index.js' },
  // @tarojs/components for H5: the custom-element tag of <View>
  { marker: 'taro-view-core', source: 'node_modules/@tarojs/components/dist/components/taro-view-core.js' },
]

/**
 * tim-js-sdk (H5) and tim-wx-sdk (mini-programs) ship byte-identical code at 2.27.6, so no string tells them apart
 * in a bundle. What can be seen: a second copy of the SDK (the H5 one bundled beside the mini-program one), found by
 * this string of its start-up log; and, in the sources, an import of tim-js-sdk from a file that is not H5-only.
 */
const TIM_SDK_MARKER = { marker: 'TIM.VERSION:', source: 'node_modules/tim-wx-sdk/tim-wx.js' }
/** A string of the Tencent IM chat driver (an error message it gives). */
const TIM_DRIVER_MARKER = { marker: 'IM history failed', source: 'src/services/chat/timDriver.ts' }

/** The subpackages app.config.ts declares (it leaves an empty one out: the mini-program builds reject it). */
const SUBPACKAGES = SUB_PACKAGES.filter((p) => p.pages.length > 0)

interface AppJson {
  pages: string[]
  subPackages?: { root: string; pages: string[] }[]
  subpackages?: { root: string; pages: string[] }[]
}

/** Every file under `dir`, by path relative to it ('/'-separated) with its size in bytes. */
function filesOf(dir: string): Map<string, number> {
  const files = new Map<string, number>()
  for (const path of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const stat = statSync(join(dir, path))
    if (stat.isFile()) files.set(path.split('\\').join('/'), stat.size)
  }
  return files
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

for (const platform of PLATFORMS) {
  describe(platform.name, () => {
    const dir = resolve(ROOT, process.env.BUILD_ROOT ?? 'dist', platform.name)
    if (!existsSync(join(dir, 'app.json'))) {
      test('build output', () =>
        assert.fail(`${dir}/app.json is missing: build it first (TARO_APP_API_BASE=https://… npx taro build --type ${platform.name})`),
      )
      return
    }
    const app = JSON.parse(readFileSync(join(dir, 'app.json'), 'utf8')) as AppJson
    const declared = app.subPackages ?? app.subpackages ?? []
    const files = filesOf(dir)
    const js = [...files.keys()].filter((f) => f.endsWith('.js')).map((f) => ({ file: f, text: readFileSync(join(dir, f), 'utf8') }))
    /** The package a file of the output belongs to: a subpackage is its root folder, the main package everything else. */
    const packageOf = (file: string) => declared.find((p) => file.startsWith(`${p.root}/`))?.root ?? 'main'

    test('the project file the developer tool opens is there, for this output', () => {
      // Taro writes the WeChat one from project.config.json, the Alipay one (mini.project.json) from project.alipay.json
      if (platform.name === 'weapp') {
        const project = JSON.parse(readFileSync(join(dir, 'project.config.json'), 'utf8')) as { miniprogramRoot?: string; compileType?: string }
        assert.equal(project.compileType, 'miniprogram')
        assert.equal(JSON.parse(readFileSync(join(ROOT, 'project.config.json'), 'utf8')).miniprogramRoot, 'dist/weapp/')
      } else {
        const project = JSON.parse(readFileSync(join(dir, 'mini.project.json'), 'utf8')) as { compileType?: string; compileOptions?: { component2?: boolean } }
        assert.equal(project.compileType, 'mini')
        // Taro's Alipay output needs the component2 framework
        assert.equal(project.compileOptions?.component2, true)
      }
    })

    test('app.json declares the pages and subpackages of src/routes.ts, and nothing else', () => {
      assert.deepEqual(app.pages, MAIN_PAGES, 'main package pages')
      assert.deepEqual(
        declared.map((p) => p.root).sort(),
        SUBPACKAGES.map((p) => p.root).sort(),
        'subpackage roots',
      )
      for (const { root, pages } of SUBPACKAGES) {
        assert.deepEqual(declared.find((p) => p.root === root)?.pages, pages, `pages of subpackage ${root}`)
      }
    })

    test(`every page has its .js, .json and ${platform.template}, and no other platform's files`, () => {
      const pages = [...MAIN_PAGES, ...SUBPACKAGES.flatMap((p) => p.pages.map((page) => `${p.root}/${page}`))]
      const foreign = PLATFORMS.filter((p) => p !== platform).flatMap((p) => [p.template, p.style])
      for (const page of pages) {
        // the style file is written only for a page that imports a stylesheet
        for (const ext of ['.js', '.json', platform.template]) assert.ok(files.has(page + ext), `${page}${ext} is missing`)
        for (const ext of foreign) assert.ok(!files.has(page + ext), `${page}${ext} belongs to another platform`)
      }
    })

    test(`packages under ${platform.packageLimit / MB} MB each, ${platform.totalLimit / MB} MB in all`, () => {
      // every file of the output counts
      const sizes = new Map<string, number>([['main', 0], ...declared.map((p): [string, number] => [p.root, 0])])
      for (const [file, size] of files) sizes.set(packageOf(file), sizes.get(packageOf(file))! + size)
      const total = [...sizes.values()].reduce((a, b) => a + b, 0)
      console.info(`${platform.name} package sizes: ${[...sizes].map(([root, size]) => `${root} ${kb(size)}`).join(', ')}; total ${kb(total)}`)
      for (const [root, size] of sizes) {
        assert.ok(size < platform.packageLimit, `${root} package is ${kb(size)}, over ${platform.packageLimit / MB} MB`)
      }
      assert.ok(total < platform.totalLimit, `all packages are ${kb(total)}, over ${platform.totalLimit / MB} MB`)
    })

    test('no H5-only code in the JS, and one copy of the Tencent IM SDK at most', () => {
      for (const { marker, source } of [...H5_ONLY, TIM_SDK_MARKER]) {
        assert.ok(readFileSync(join(ROOT, source), 'utf8').includes(marker), `${source} no longer has ${marker}: find a new marker`)
      }
      for (const { marker, source } of H5_ONLY) {
        const found = js.filter(({ text }) => text.includes(marker)).map(({ file }) => file)
        assert.deepEqual(found, [], `${marker} (from ${source}) is in ${found.join(', ')}`)
      }
      const copies = js.reduce((n, { text }) => n + text.split(TIM_SDK_MARKER.marker).length - 1, 0)
      assert.ok(copies <= 1, `the Tencent IM SDK is bundled ${copies} times`)
    })

    test('the Tencent IM SDK and its driver are in the internet subpackage (its chat pages bring them), not in the main package', () => {
      for (const { marker, source } of [TIM_SDK_MARKER, TIM_DRIVER_MARKER]) {
        assert.ok(readFileSync(join(ROOT, source), 'utf8').includes(marker), `${source} no longer has ${marker}: find a new marker`)
        const found = js.filter(({ text }) => text.includes(marker)).map(({ file }) => file)
        assert.deepEqual([...new Set(found.map(packageOf))], ['internet'], `${marker} (from ${source}) is in ${found.join(', ') || 'no file'}`)
      }
    })

    test('API_BASE is an absolute https origin', () => {
      // the request layer's `${API_BASE}${url}` compiles to url:"".concat("<API_BASE>").concat(path)
      const bases = new Set(js.flatMap(({ text }) => [...text.matchAll(/url:"".concat\("([^"]*)"\)/g)].map((m) => m[1]!)))
      assert.ok(bases.size > 0, 'no request URL made from API_BASE found: has the request layer (src/services/request.ts) changed?')
      for (const base of bases) {
        assert.ok(/^https:\/\//.test(base) && new URL(base).origin === base, `the request URLs start with "${base}", not an https origin`)
      }
    })
  })
}

test('only H5 files import tim-js-sdk (the mini-programs take tim-wx-sdk)', () => {
  const offenders = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !/\.h5\.tsx?$/.test(f))
    .filter((f) => /^import (?!type )[^']*'tim-js-sdk'|(?:require|import)\('tim-js-sdk'\)/m.test(readFileSync(join(ROOT, 'src', f), 'utf8')))
  assert.deepEqual(offenders, [])
})
