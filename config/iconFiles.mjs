// A webpack loader for the H5 build (config/index.ts): each NutUI icon module carries its SVG as a base64 data URL,
// which the icon draws as a CSS mask. Base64 hardly compresses, so the 26 icons of the home weighed about 13 KB
// of gzipped script in the first load. This loader writes each icon's SVG as a file of its own beside the scripts
// (static/icons/<Name>.<hash>.svg, cached for a year like them) and leaves its address in the module instead: the
// icon looks the same and the browser fetches it with the page's images, after the scripts have run. The
// mini-programs keep the data URLs (their packages hold everything; no request per icon).
import { createHash } from 'node:crypto'
import { basename } from 'node:path'

const DATA_URL = /"data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)"/g

export default function iconFiles(source) {
  const name = basename(this.resourcePath, '.js')
  return source.replace(DATA_URL, (_match, base64) => {
    const svg = Buffer.from(base64, 'base64')
    const file = `static/icons/${name}.${createHash('sha256').update(svg).digest('hex').slice(0, 8)}.svg`
    this.emitFile(file, svg)
    return `__webpack_public_path__ + ${JSON.stringify(file)}`
  })
}
