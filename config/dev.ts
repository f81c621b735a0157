import type { UserConfigExport } from '@tarojs/cli'

export default {
  logger: { quiet: false, stats: true },
  // Taro's dependency prebundling fails with this project's webpack set (enhanced-resolve's roots); without it the
  // development build compiles every dependency itself, as the production build does
  compiler: { type: 'webpack5', prebundle: { enable: false } },
  mini: {},
  h5: {},
} satisfies UserConfigExport<'webpack5'>
