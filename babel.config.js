// NutUI per-component imports keep its CSS tree-shaken (stack notes); the same rule runs under Jest. Icons are taken
// one file each: through the package's index every icon the app uses anywhere rode along with the first page.
const framework = require('./config/framework.cjs')

module.exports = {
  // the framework the build draws with (config/framework.cjs): a development build's hot reload follows it
  presets: [['taro', { framework: framework(), ts: true, compiler: 'webpack5' }]],
  plugins: [
    [
      'import',
      {
        libraryName: '@nutui/nutui-react-taro',
        camel2DashComponentName: false,
        customName: (name) => `@nutui/nutui-react-taro/dist/es/packages/${name.toLowerCase()}`,
        style: (name) => `${name}/style/css`,
      },
      'nutui-react-taro',
    ],
    [
      'import',
      {
        libraryName: '@nutui/icons-react-taro',
        camel2DashComponentName: false,
        customName: (name) => `@nutui/icons-react-taro/dist/es/icons/${name}.js`,
      },
      'nutui-icons-react-taro',
    ],
  ],
}
