// `npm test` runs this with --max-warnings 0 (scripts/test.mjs). The lines it holds:
// - TypeScript's recommended rules, and the React hooks rules on the app's components;
// - screens (pages, subpackages, components) reach the server only through stores: no endpoint service imports;
// - observer comes from mobx-react-lite (the app has no class components), the stores from useStores() (src/stores);
// - no import circle in the server (its wiring reads top-down: app -> routes -> domain -> db, providers beside).
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import importX from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', '**/*.d.ts'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      // a leading underscore names what is left out on purpose (a destructured field dropped, an unused parameter)
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/**/*.tsx', 'test/page/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // one way to observe and to reach the stores: mobx-react-lite's observer, and useStores() (src/stores)
    files: ['src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'mobx-react', message: 'Import observer from mobx-react-lite; stores come from useStores() (src/stores).' }],
          patterns: [{ group: ['mobx-react-lite/*'], message: 'Import from mobx-react-lite.' }],
        },
      ],
    },
  },
  {
    files: ['src/pages/**', 'src/palm/**', 'src/internet/**', 'src/custom/**', 'src/components/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/services/*', '!@/services/request'],
              allowTypeImports: true,
              message: 'Screens talk to stores (useStores()); endpoint calls live in src/services and are made by a store.',
            },
            {
              group: ['@/services/request'],
              importNames: ['get', 'post', 'put', 'request', 'upload'],
              message: 'Screens talk to stores (useStores()); only the request layer’s ApiError may be named here.',
            },
            {
              group: ['@nutui/nutui-react-taro'],
              importNames: ['Button', 'Switch', 'Segmented'],
              message: 'Buttons, switches and segmented tabs come from @/components (Button, Toggle, Segmented): NutUI’s have no role or keyboard on H5.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // the rule reads every file an import reaches, with the TypeScript parser and the server's own paths (@/ included)
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'server/tsconfig.json' })],
    },
    rules: { 'import-x/no-cycle': 'error', 'import-x/no-unresolved': 'error' },
  },
  {
    // CommonJS files read by Jest and Babel: Jest's takes the Taro test utils' own settings with require(), Babel's
    // the framework the build draws with
    files: ['jest.config.js', 'babel.config.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // the tests' call helpers answer any envelope: what a test reads from it is what it asserts
    files: ['test/**/*.ts', 'test/**/*.tsx'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
)
