// What the H5 build defines besides TARO_ENV (webpack5-runner's H5WebpackPlugin), before any Taro module reads it
process.env.TARO_PLATFORM = 'web'
process.env.FRAMEWORK = 'react'

// test-utils-react 0.1.1 acts through react-dom/test-utils, which React 18.3 marks deprecated on every call
const consoleError = console.error
console.error = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes('ReactDOMTestUtils.act` is deprecated')) return
  consoleError(...args)
}
