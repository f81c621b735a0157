// The framework Taro draws with, for the build (config/index.ts) and Babel's Taro preset (babel.config.js) alike:
// H5 draws with Preact (Taro's plugin puts preact/compat where react and react-dom are imported, the app's code and
// NutUI's alike; the first load 178.4 -> 143.7 KB gzip). The mini-programs keep React, which Taro's own reconciler
// draws there without react-dom. Jest's runtime tests (test/runtime) run on Preact as this build does; the page tests
// with their component doubles (test/page) on React.
module.exports = () => (process.env.TARO_ENV === 'h5' ? 'preact' : 'react')
