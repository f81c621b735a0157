/** @qiun/ucharts ships no types: the part of its options the trend chart uses. */
declare module '@qiun/ucharts' {
  export interface UChartsOptions {
    type: 'line'
    context: CanvasRenderingContext2D
    width: number
    height: number
    pixelRatio: number
    categories: string[]
    series: { name: string; data: (number | null)[]; color?: string }[]
    animation?: boolean
    background?: string
    padding?: number[]
    fontSize?: number
    dataLabel?: boolean
    dataPointShape?: boolean
    legend?: { show: boolean }
    xAxis?: Record<string, unknown>
    yAxis?: Record<string, unknown>
    extra?: Record<string, unknown>
  }
  export default class UCharts {
    constructor(options: UChartsOptions)
  }
}
