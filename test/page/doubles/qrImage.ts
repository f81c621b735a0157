import { encode } from 'uqr'

/**
 * A QR code of `text` as a camera would see it: grey-scale pixels (`scale` per module, a quiet zone of four modules,
 * centred on a `width`×`height` white background), as luma bytes; `rgba` gives them as an ImageData's bytes.
 */
export function qrLuma(text: string, width = 320, height = 240, scale = 4): Uint8Array {
  const { data, size } = encode(text, { border: 0 })
  const luma = new Uint8Array(width * height).fill(235)
  const side = size * scale
  const left = Math.floor((width - side) / 2)
  const top = Math.floor((height - side) / 2)
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      if (!data[y]![x]) continue
      for (let dy = 0; dy < scale; dy++) luma.fill(20, (top + y * scale + dy) * width + left + x * scale, (top + y * scale + dy) * width + left + (x + 1) * scale)
    }
  return luma
}

export function qrRgba(text: string, width = 320, height = 240, scale = 4): { data: Uint8ClampedArray; width: number; height: number } {
  const luma = qrLuma(text, width, height, scale)
  const data = new Uint8ClampedArray(width * height * 4)
  for (let i = 0; i < luma.length; i++) {
    data[i * 4] = data[i * 4 + 1] = data[i * 4 + 2] = luma[i]!
    data[i * 4 + 3] = 255
  }
  return { data, width, height }
}
