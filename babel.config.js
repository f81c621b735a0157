// NutUI per-component imports keep its CSS tree-shaken (stack notes); the same rule runs under Jest.
module.exports = {
  presets: [['taro', { framework: 'react', ts: true, compiler: 'webpack5' }]],
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
  ],
}
