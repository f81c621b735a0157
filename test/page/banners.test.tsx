import { act, fireEvent, render, screen } from '@testing-library/react'
import Banners from '@/components/HomePage/Banners'
import type { AdBanner } from '../../types/api/hospital'

const BANNERS: AdBanner[] = [
  { id: 1, title: '互联网医院上线啦', image: '', url: '/internet/doctorList/index' },
  { id: 2, title: '老年人就医绿色通道', image: '', url: '' },
  { id: 3, title: '预约挂号 · 分时段就诊少排队', image: '', url: '/palm/register/index' },
]

/** Time passing, 3 s at a time (each move schedules the next). */
const wait = (seconds: number) => {
  for (let s = 0; s < seconds; s += 3) act(() => void jest.advanceTimersByTime(3000))
}

/** Which banner the dots say is on show (the pressed one). */
const shown = () =>
  screen
    .getAllByRole('button', { name: /^第\d张/ })
    .map((dot, i) => (dot.getAttribute('aria-pressed') === 'true' ? i + 1 : 0))
    .filter(Boolean)

function reducedMotion(on: boolean) {
  window.matchMedia = ((query: string) => ({ matches: on && query.includes('reduce'), media: query })) as unknown as typeof window.matchMedia
}

/** The H5 home banners (src/components/HomePage/Banners.tsx): a carousel a patient can stop, with a dot per banner. */
describe('首页 banners', () => {
  beforeEach(() => {
    jest.useFakeTimers()
    reducedMotion(false)
  })
  afterEach(() => jest.useRealTimers())

  test('each banner is a named slide; a banner with a page is a link to it', () => {
    render(<Banners banners={BANNERS} />)
    expect(screen.getByRole('region', { name: '广告' })).toBeTruthy()
    expect(screen.getAllByRole('group').map((g) => g.getAttribute('aria-label'))).toEqual(['第1张，共3张', '第2张，共3张', '第3张，共3张'])
    expect(screen.getByRole('link', { name: '互联网医院上线啦' })).toBeTruthy()
    expect(screen.queryByRole('link', { name: '老年人就医绿色通道' })).toBeNull()
    expect(screen.getByRole('button', { name: '第2张：老年人就医绿色通道' })).toBeTruthy()
  })

  test('moves on every 3 s and round again; 暂停轮播 stops it and 播放轮播 starts it again', () => {
    render(<Banners banners={BANNERS} />)
    expect(shown()).toEqual([1])
    wait(3)
    expect(shown()).toEqual([2])
    wait(6)
    expect(shown()).toEqual([1])

    fireEvent.click(screen.getByRole('button', { name: '暂停轮播' }))
    wait(9)
    expect(shown()).toEqual([1])
    fireEvent.click(screen.getByRole('button', { name: '播放轮播' }))
    wait(3)
    expect(shown()).toEqual([2])
  })

  test('holds still while a finger or the focus is on it; a dot shows its banner', () => {
    render(<Banners banners={BANNERS} />)
    const region = screen.getByRole('region', { name: '广告' })
    fireEvent.touchStart(region)
    wait(6)
    expect(shown()).toEqual([1])
    fireEvent.touchEnd(region)
    wait(3)
    expect(shown()).toEqual([2])

    const third = screen.getByRole('button', { name: '第3张：预约挂号 · 分时段就诊少排队' })
    fireEvent.focusIn(third)
    fireEvent.click(third)
    expect(shown()).toEqual([3])
    wait(6)
    expect(shown()).toEqual([3])
  })

  test('starts stopped when the system asks for reduced motion', () => {
    reducedMotion(true)
    render(<Banners banners={BANNERS} />)
    expect(screen.getByRole('button', { name: '播放轮播' })).toBeTruthy()
    wait(9)
    expect(shown()).toEqual([1])
  })

  test('one banner stands alone, with no controls', () => {
    render(<Banners banners={BANNERS.slice(0, 1)} />)
    expect(screen.getByRole('link', { name: '互联网医院上线啦' })).toBeTruthy()
    expect(screen.queryByRole('button')).toBeNull()
  })
})
