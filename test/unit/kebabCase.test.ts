import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import lodashKebabCase from 'lodash.kebabcase'
import kebabCase from '../../config/kebabCase.cjs'

// The H5 build gives NutUI config/kebabCase.cjs in place of lodash.kebabcase: for every theme variable NutUI declares,
// written the way ConfigProvider takes it (camelCase), both name the same CSS variable.
const css = readFileSync(join(__dirname, '../../node_modules/@nutui/nutui-react-taro/dist/style.css'), 'utf8')
const variables = [...new Set(css.match(/--nutui-[a-z0-9-]+/g))]
const camel = (v: string) => v.slice(2).replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())

test('names every NutUI theme variable as lodash does', () => {
  expect(variables.length).toBeGreaterThan(500)
  for (const v of variables) expect([v, kebabCase(camel(v))]).toEqual([v, lodashKebabCase(camel(v))])
  expect(kebabCase('nutuiColorPrimary')).toBe('nutui-color-primary')
})

test('splits capitals, digits and separators as lodash does', () => {
  for (const name of ['XMLHttpRequest', 'black10', 'radius2x', 'foo_bar baz', '2ndPlace', '--already-kebab', ''])
    expect([name, kebabCase(name)]).toEqual([name, lodashKebabCase(name)])
})
