/** lodash.kebabcase ships no types, and the build's stand-in for it (config/kebabCase.cjs) is plain JavaScript. */
declare module 'lodash.kebabcase' {
  export default function kebabCase(name?: string): string
}
declare module '*/kebabCase.cjs' {
  export default function kebabCase(name: string): string
}
