import type { ChartCanvas } from './chartCanvas'

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()))

/**
 * H5: the `<canvas>` inside Taro's `<Canvas id={id}>`, sized in device pixels for a sharp line. Taro's web component
 * renders its canvas a few frames after the page: wait for it (at most about a second).
 */
export async function chartCanvas(id: string): Promise<ChartCanvas | null> {
  for (let frame = 0; frame < 60; frame += 1) {
    const host = document.getElementById(id)
    const canvas = host instanceof HTMLCanvasElement ? host : host?.querySelector('canvas')
    const box = (host ?? canvas)?.getBoundingClientRect()
    if (canvas && box && box.width && box.height) {
      const ratio = window.devicePixelRatio || 1
      canvas.width = Math.round(box.width * ratio)
      canvas.height = Math.round(box.height * ratio)
      const context = canvas.getContext('2d')
      return context ? { context, width: box.width, height: box.height, ratio } : null
    }
    await nextFrame()
  }
  return null
}
