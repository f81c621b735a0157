// @tarojs/plugin-framework-react ships its runtime without typings; this is the part the H5 entry calls.
declare module '@tarojs/plugin-framework-react/dist/runtime' {
  import type { AppInstance } from '@tarojs/runtime'
  export function createReactApp(App: unknown, react: unknown, dom: unknown, config: unknown): AppInstance
}
