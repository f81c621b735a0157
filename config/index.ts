import { defineConfig, type UserConfigExport } from '@tarojs/cli'
import path from 'node:path'
import devConfig from './dev'
import prodConfig from './prod'
import { BundleStatsPlugin } from './bundleStats'
import framework from './framework.cjs'

/**
 * The server's origin that the app's calls go to. H5 leaves it empty (the page's own origin); a mini-program has no
 * origin of its own, and WeChat and Alipay only call whitelisted https domains, so their builds refuse to go on
 * without one (`TARO_APP_API_BASE=https://api.hospital.example npx taro build --type weapp`).
 */
function apiBase(): string {
  const base = process.env.TARO_APP_API_BASE ?? ''
  const env = process.env.TARO_ENV
  if ((env === 'weapp' || env === 'alipay') && !isHttpsOrigin(base)) {
    throw new Error(
      `The ${env} build needs TARO_APP_API_BASE, the server's absolute https origin without a path or a trailing slash ` +
        `(e.g. https://api.hospital.example); it is ${base ? `"${base}"` : 'not set'}.`,
    )
  }
  return base
}

/**
 * Other sites a mini-program may open in its web-view besides the server (the hospital's cloud film viewer of
 * PACS_VIEWER_URL, say): `TARO_APP_WEBVIEW_ORIGINS`, comma-separated https origins, each also whitelisted as a
 * web-view business domain in the WeChat and Alipay consoles.
 */
function webViewOrigins(): string[] {
  const list = (process.env.TARO_APP_WEBVIEW_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)
  const bad = list.filter((o) => !isHttpsOrigin(o))
  if (bad.length) throw new Error(`TARO_APP_WEBVIEW_ORIGINS takes https origins without a path or a trailing slash; not ${bad.join(', ')}`)
  return list
}

function isHttpsOrigin(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'https:' && url.origin === value
  } catch {
    return false
  }
}

/** Where builds go: dist/<platform>, or BUILD_ROOT/<platform> so that two builds can run side by side (the tests read it too). */
const buildRoot = process.env.BUILD_ROOT ?? 'dist'

export default defineConfig<'webpack5'>(async (merge) => {
  const baseConfig: UserConfigExport<'webpack5'> = {
    projectName: 'hospital-h5',
    date: '2026-11-22',
    designWidth: 750,
    deviceRatio: { 640: 2.34 / 2, 750: 1, 375: 2, 828: 1.81 / 2 },
    sourceRoot: 'src',
    outputRoot: `${buildRoot}/${process.env.TARO_ENV}`,
    plugins: [],
    defineConstants: {
      API_BASE: JSON.stringify(apiBase()),
      WEBVIEW_ORIGINS: JSON.stringify(webViewOrigins()),
      DEFAULT_APP_ID: JSON.stringify(process.env.TARO_APP_DEFAULT_APP_ID ?? 'wxdemo0000000000'),
    },
    // the site icon the browser asks for (the server answers /favicon.ico with it)
    copy: { patterns: process.env.TARO_ENV === 'h5' ? [{ from: 'src/favicon.svg', to: `${buildRoot}/h5/favicon.svg` }] : [], options: {} },
    // Taro's own alias resolution keeps the per-platform files (index.h5.ts, index.weapp.ts) working
    alias: { '@': path.resolve(__dirname, '..', 'src') },
    // H5 Preact, the mini-programs React (config/framework.cjs)
    framework: framework(),
    compiler: 'webpack5',
    cache: { enable: false },
    mini: {
      postcss: {
        pxtransform: { enable: true, config: { selectorBlackList: ['nut-'] } },
        cssModules: { enable: false, config: { namingPattern: 'module', generateScopedName: '[name]__[local]___[hash:base64:5]' } },
      },
      miniCssExtractPluginOption: { ignoreOrder: true },
    },
    h5: {
      // Taro's React components (@tarojs/components-react: View a div, Button a div, Input an input) for the ones it
      // has, instead of the Stencil web components: the first load 201.7 -> 187.6 KB gzip without Stencil's runtime,
      // and the home's blocking time in Lighthouse 1.5 s -> 0.9 s. The rest (Textarea, Switch, ...) stay web components.
      // Image takes its <img>'s attributes (alt) as imgProps, Input its name (aria-label) as it is: see
      // src/components/FormField/fieldName.ts. The page tests of test/runtime use the same components (jest.config.js).
      useHtmlComponents: true,
      publicPath: '/h5/',
      staticDirectory: 'static',
      router: {
        mode: 'browser',
        basename: '/h5',
        // spec §2 system pages: the location pages answer at /h5/choose-location and /h5/open-location
        customRoutes: { '/pages/chooseLocation/index': '/choose-location', '/pages/openLocation/index': '/open-location' },
      },
      output: { filename: 'js/[name].[contenthash:8].js', chunkFilename: 'js/[name].[contenthash:8].js' },
      miniCssExtractPluginOption: {
        ignoreOrder: true,
        filename: 'css/[name].[contenthash:8].css',
        chunkFilename: 'css/[name].[contenthash:8].css',
      },
      postcss: {
        autoprefixer: { enable: true, config: {} },
        pxtransform: { enable: true, config: { selectorBlackList: ['nut-'] } },
        cssModules: { enable: false, config: { namingPattern: 'module', generateScopedName: '[name]__[local]___[hash:base64:5]' } },
      },
      webpackChain(chain) {
        // stack notes: 'initial' copies mobx/NutUI into every lazy page chunk. Taro's minSize 0 made a shared chunk
        // of every few hundred bytes two pages share: the home came in 33 files, six at a time over HTTP/1.1, a round
        // trip each wave. From 10 KB on (before minification) a shared part is a chunk of its own, and smaller ones go
        // with the pages that use them: 18 files, and all the scripts of the build 12 % larger in sum (a page's own
        // chunk carries its small parts). 20 KB gave no better Lighthouse figure for 40 % more in sum.
        chain.optimization.merge({ splitChunks: { chunks: 'all', minSize: 10_000 } })
        // Taro's H5 API brings fetch and AbortController polyfills into the first load; every browser of the
        // browserslist (package.json) has both
        // (false: webpack 5 leaves the module out; webpack-chain's types know only paths)
        const noModule = false as unknown as string
        chain.resolve.alias.set('whatwg-fetch', noModule).set('abortcontroller-polyfill/dist/abortcontroller-polyfill-only', noModule)
        // nor its JSONP transport, which only a call with the jsonp option uses (the app's calls never have it)
        chain.resolve.alias.set('jsonp-retry', noModule)
        // NutUI's lodash.kebabcase, for the names of ConfigProvider's CSS variables: a few lines do the same (the file says)
        chain.resolve.alias.set('lodash.kebabcase$', path.resolve(__dirname, 'kebabCase.cjs'))
        // mobx-react-lite reaches React's own useSyncExternalStore through a shim written for React 17; React 18 has it,
        // and so has preact/compat, which 'react' is on H5
        chain.resolve.alias.set('use-sync-external-store/shim$', 'react')
        // NutUI's icons as SVG files beside the scripts rather than base64 inside them (config/iconFiles.mjs)
        chain.module
          .rule('nutIconFiles')
          .test(/@nutui[\\/]icons-react-taro[\\/]dist[\\/]es[\\/]icons[\\/][^\\/]+\.js$/)
          .use('iconFiles')
          .loader(path.resolve(__dirname, 'iconFiles.mjs'))
        // spec §9: script chunk time-out 120 s
        chain.output.merge({ chunkLoadTimeout: 120_000 })
        // pdf.js's own minified ES modules (emitted as files for the report viewer) stay as Mozilla built them:
        // terser's quoted keys would turn their private class fields into invalid code
        const minimizers = (chain.optimization as unknown as { minimizers: { has(name: string): boolean } }).minimizers
        if (minimizers.has('terserPlugin')) chain.optimization.minimizer('terserPlugin').tap(([options]) => [{ ...options, exclude: /\.mjs$/ }])
        // what each script is made of, for the bench's list of the first load's largest modules
        if (process.env.NODE_ENV !== 'development') chain.plugin('bundleStats').use(BundleStatsPlugin, [`${buildRoot}/h5-bundle-stats.json`])
      },
    },
  }
  if (process.env.NODE_ENV === 'development') return merge({}, baseConfig, devConfig)
  return merge({}, baseConfig, prodConfig)
})
