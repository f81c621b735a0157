/** Unit rules and page/store tests (jsdom). Server tests run on node:test (they need Node's own ESM loading), browser tests on Playwright: see scripts/test.mjs. */
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' }, module: { type: 'commonjs' } }]
const base = {
  transform: { '^.+\\.(t|j)sx?$': swc },
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' } }

module.exports = {
  projects: [
    { ...base, displayName: 'unit', testEnvironment: 'node', testMatch: ['<rootDir>/test/unit/**/*.test.ts?(x)'] },
    {
      ...base,
      displayName: 'page',
      testEnvironment: 'jsdom',
      testMatch: ['<rootDir>/test/page/**/*.test.ts?(x)'],
      globals: { API_BASE: '', DEFAULT_APP_ID: 'wxdemo0000000000' },
      moduleNameMapper: {
        // a picture the page draws is its file name (webpack gives a URL)
        '\\.(svg|png)$': '<rootDir>/test/page/doubles/asset.ts',
        '^@/platform$': '<rootDir>/src/platform/index.h5.ts',
        ...base.moduleNameMapper,
        '^@tarojs/taro$': '<rootDir>/test/page/doubles/taro.ts',
        '^@tarojs/components$': '<rootDir>/test/page/doubles/components.tsx',
        '^@nutui/nutui-react-taro$': '<rootDir>/test/page/doubles/nutui.tsx',
        '\\.(css|scss)$': '<rootDir>/test/page/doubles/style.ts',
      },
    },
  ],
}
