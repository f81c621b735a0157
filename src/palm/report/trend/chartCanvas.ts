import Taro from '@tarojs/taro'

/** A drawing surface for the chart: the 2d context, sized in device pixels. */
export interface ChartCanvas {
  context: CanvasRenderingContext2D
  /** CSS pixels. */
  width: number
  height: number
  ratio: number
}

/** The mini-programs' Canvas 2D node of `<Canvas type='2d' id={id}>`, sized for the screen; null when there is none. */
export function chartCanvas(id: string): Promise<ChartCanvas | null> {
  return new Promise((resolve) => {
    Taro.createSelectorQuery()
      .select(`#${id}`)
      .fields({ node: true, size: true })
      .exec((res: { node?: HTMLCanvasElement; width?: number; height?: number }[] | null) => {
        const found = res?.[0]
        const canvas = found?.node
        if (!canvas || !found.width || !found.height) return resolve(null)
        const ratio = Taro.getSystemInfoSync().pixelRatio || 1
        canvas.width = found.width * ratio
        canvas.height = found.height * ratio
        const context = canvas.getContext('2d')
        resolve(context ? { context, width: found.width, height: found.height, ratio } : null)
      })
  })
}
