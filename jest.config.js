const path = require('node:path')
/** Unit rules and page/store tests (jsdom). Server tests run on node:test (they need Node's own ESM loading), browser tests on Playwright: see scripts/test.mjs. */
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' }, module: { type: 'commonjs' } }]
const base = {
  transform: { '^.+\\.(t|j)sx?$': swc },
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' } }

/**
 * 'runtime': pages in Taro's own H5 runtime with @tarojs/test-utils-react: the real @tarojs/taro (taro-h5), router,
 * components and NutUI; only the server (fetch) and the chat socket are stand-ins. See test/runtime/app.ts.
 */
const taroTestUtils = path.join(path.dirname(require.resolve('@tarojs/test-utils-react/package.json')), 'dist/jest')
const taroJest = require('@tarojs/test-utils-react/dist/jest/initConfig.js').default
const { 'ts-jest': _tsJest, 'babel-jest': _babelJest, ...taroGlobals } = taroJest.globals
const taroBabel = path.join(taroTestUtils, 'babel-transformer.js')
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

module.exports = {
  projects: [
    { ...base, displayName: 'unit', testEnvironment: 'node', testMatch: ['<rootDir>/test/unit/**/*.test.ts?(x)'] },
    {
      ...base,
      displayName: 'page',
      testEnvironment: 'jsdom',
      testMatch: ['<rootDir>/test/page/**/*.test.ts?(x)'],
      globals: { API_BASE: '', WEBVIEW_ORIGINS: [], DEFAULT_APP_ID: 'wxdemo0000000000' },
      moduleNameMapper: {
        // a picture the page draws is its file name (webpack gives a URL)
        '\\.(svg|png)$': '<rootDir>/test/page/doubles/asset.ts',
        '^@/platform$': '<rootDir>/src/platform/index.h5.ts',
        '^@/platform/im$': '<rootDir>/src/platform/im.h5.ts',
        ...base.moduleNameMapper,
        '^@tarojs/taro$': '<rootDir>/test/page/doubles/taro.ts',
        '^@tarojs/components$': '<rootDir>/test/page/doubles/components.tsx',
        '^@nutui/nutui-react-taro$': '<rootDir>/test/page/doubles/nutui.tsx',
        '\\.(css|scss)$': '<rootDir>/test/page/doubles/style.ts',
      },
    },
    {
      displayName: 'runtime',
      testEnvironment: 'jsdom',
      testEnvironmentOptions: taroJest.testEnvironmentOptions,
      testMatch: ['<rootDir>/test/runtime/**/*.test.ts?(x)'],
      setupFiles: [path.join(taroTestUtils, 'jest.setup.js'), '<rootDir>/test/runtime/env.ts', '<rootDir>/test/runtime/preload.ts'],
      // The app and the test utils' @tarojs/taro (which gets Taro's React hooks attached) go through the test utils' babel
      // transform, with babel.config.js and so NutUI's per-component imports. Taro's packages ship ES modules (some
      // .mjs): the rest of node_modules is only turned into CommonJS, by swc (a cold run 9 s instead of 20 s with babel).
      transform: {
        'test-utils-react/dist/jest/runtime/taro-h5\\.js$': taroBabel,
        [`^${escape(__dirname)}/(src|test)/.+\\.tsx?$`]: taroBabel,
        '\\.(mjs|cjs|js|jsx)$': ['@swc/jest', { jsc: { target: 'es2019' }, module: { type: 'commonjs' } }],
      },
      transformIgnorePatterns: [],
      moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'jsx', 'json'],
      // Taro's runtime switches (ENABLE_INNER_HTML ...) as the test utils set them; the app's build constants as the page project's
      globals: { ...taroGlobals, API_BASE: '', WEBVIEW_ORIGINS: [], DEFAULT_APP_ID: 'wxdemo0000000000' },
      moduleNameMapper: {
        '\\.(svg|png)$': '<rootDir>/test/page/doubles/asset.ts',
        '\\.(css|scss)$': '<rootDir>/test/page/doubles/style.ts',
        // what webpack picks by the file suffix of the H5 build (src/platform/index.h5.ts, im.h5.ts)
        '^@/platform$': '<rootDir>/src/platform/index.h5.ts',
        '^@/platform/im$': '<rootDir>/src/platform/im.h5.ts',
        ...base.moduleNameMapper,
        ...taroJest.moduleNameMapper,
        // the components the H5 build draws (config/index.ts useHtmlComponents), with Preact as the H5 build draws them
        '^@tarojs/components$': '@tarojs/components-react',
        '^react$': 'preact/compat',
        '^react-dom$': 'preact/compat',
        '^react-dom/client$': 'preact/compat/client',
        '^react-dom/test-utils$': 'preact/test-utils',
        '^react/jsx-runtime$': 'preact/jsx-runtime',
        // as webpack, NutUI's icons by their ES modules: the package's main file is a UMD bundle with React's JSX inside
        '^@nutui/icons-react-taro$': '@nutui/icons-react-taro/dist/es/index.es.js',
      },
    },
  ],
}
