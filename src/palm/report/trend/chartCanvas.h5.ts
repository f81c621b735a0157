import type { ChartCanvas } from './chartCanvas'

/** H5: the `<canvas>` inside Taro's `<Canvas id={id}>`, sized in device pixels for a sharp line. */
export async function chartCanvas(id: string): Promise<ChartCanvas | null> {
  const host = document.getElementById(id)
  const canvas = host instanceof HTMLCanvasElement ? host : host?.querySelector('canvas')
  if (!canvas) return null
  const box = (host ?? canvas).getBoundingClientRect()
  if (!box.width || !box.height) return null
  const ratio = window.devicePixelRatio || 1
  canvas.width = box.width * ratio
  canvas.height = box.height * ratio
  canvas.style.width = `${box.width}px`
  canvas.style.height = `${box.height}px`
  const context = canvas.getContext('2d')
  return context ? { context, width: box.width, height: box.height, ratio } : null
}
