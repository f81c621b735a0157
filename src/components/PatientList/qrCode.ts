import { renderSVG } from 'uqr'
import { encodeBase64 } from '@/utils/base64'

/**
 * A QR code of `text` as an SVG data URL: no canvas, so it renders the same in H5 and the mini-programs
 * (base64, since the mini-programs have no btoa). Medium error correction survives a scratched phone screen.
 */
export function qrDataUrl(text: string): string {
  return `data:image/svg+xml;base64,${encodeBase64(renderSVG(text, { ecc: 'M', border: 2 }))}`
}
