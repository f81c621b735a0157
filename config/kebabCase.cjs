// NutUI imports lodash.kebabcase (14 KB before minification, with Unicode word rules) only to name the CSS variables
// of ConfigProvider's theme (nutuiColorPrimary -> --nutui-color-primary), and every NutUI component imports that
// module, so it came with the first load. The H5 build takes this instead (config/index.ts): the same answer for
// such ASCII names (a word begins at a capital after a small letter, before the small letter of a run of capitals,
// and where letters and digits meet), checked against lodash in test/unit/kebabCase.test.ts.
module.exports = function kebabCase(name) {
  return String(name)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-zA-Z])([0-9])/g, '$1 $2')
    .replace(/([0-9])([a-zA-Z])/g, '$1 $2')
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .join('-')
    .toLowerCase()
}
