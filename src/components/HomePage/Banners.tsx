import { useEffect, useRef, useState } from 'react'
import { View, Text } from '@tarojs/components'
import Tappable from '../Tappable'
import Banner, { BANNER_INTERVAL_MS } from './Banner'
import type { AdBanner } from '../../../types/api/hospital'
import './Banners.scss'

const reducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches

/**
 * The H5 home banners: a row of slides that snaps (CSS scroll-snap), moved on every 3 s (spec §9), with a dot per
 * banner and a pause button (WCAG 2.2.2). It holds still while a finger, the mouse or the focus (a keyboard, a screen
 * reader) is on it, and starts stopped when the system asks for reduced motion. Taro's Swiper would bring the
 * swiper library (over 300 KB) into the first load; the mini-programs keep their native one (Banners.weapp.tsx).
 */
export default function Banners({ banners }: { banners: AdBanner[] }) {
  const root = useRef<HTMLElement | null>(null)
  const track = useRef<HTMLElement | null>(null)
  const [current, setCurrent] = useState(0)
  const [stopped, setStopped] = useState(reducedMotion)
  const [held, setHeld] = useState(false)
  const count = banners.length
  const playing = count > 1 && !stopped && !held

  const show = (index: number) => {
    const el = track.current
    el?.scrollTo?.({ left: index * el.clientWidth, behavior: reducedMotion() ? 'auto' : 'smooth' })
    setCurrent(index)
  }

  // the dot follows the slide on show, however it got there (a swipe, a dot, the timer)
  useEffect(() => {
    const el = track.current
    if (!el) return
    // once a slide has come to rest: on the way, the dot would flick back to the one being left
    const onScroll = () => {
      const at = el.clientWidth ? Math.round(el.scrollLeft / el.clientWidth) : 0
      if (Math.abs(el.scrollLeft - at * el.clientWidth) < 2) setCurrent(at)
    }
    el.addEventListener('scroll', onScroll, { passive: true })
    return () => el.removeEventListener('scroll', onScroll)
  }, [])

  useEffect(() => {
    const el = root.current
    if (!el) return
    const hold = () => setHeld(true)
    const release = () => setHeld(false)
    const blur = (e: FocusEvent) => !el.contains(e.relatedTarget as Node | null) && setHeld(false)
    const on: [string, EventListener][] = [
      ['touchstart', hold],
      ['touchend', release],
      ['touchcancel', release],
      ['mouseenter', hold],
      ['mouseleave', release],
      ['focusin', hold],
      ['focusout', blur as EventListener],
    ]
    for (const [type, fn] of on) el.addEventListener(type, fn, { passive: true })
    return () => on.forEach(([type, fn]) => el.removeEventListener(type, fn))
  }, [])

  // the next banner 3 s after this one came on show (a swipe or a dot starts the wait again)
  useEffect(() => {
    if (!playing) return
    const timer = setTimeout(() => show((current + 1) % count), BANNER_INTERVAL_MS)
    return () => clearTimeout(timer)
  }, [playing, count, current])

  return (
    <View ref={root} className='banners' role='region' aria-roledescription='轮播' aria-label='广告'>
      {/* a moving slide is not read out by itself; one the patient chose is */}
      <View ref={track} className='banners__track' aria-live={playing ? 'off' : 'polite'}>
        {banners.map((b, i) => (
          <View key={b.id} className='banners__slide' role='group' aria-roledescription='幻灯片' aria-label={`第${i + 1}张，共${count}张`}>
            <Banner banner={b} />
          </View>
        ))}
      </View>
      {count > 1 && (
        <View className='banners__controls'>
          <Tappable className='banners__toggle' label={stopped ? '播放轮播' : '暂停轮播'} onTap={() => setStopped(!stopped)}>
            <Text className='banners__toggle-text' aria-hidden>
              {stopped ? '播放' : '暂停'}
            </Text>
          </Tappable>
          {banners.map((b, i) => (
            <Tappable key={b.id} className='banners__dot' label={`第${i + 1}张：${b.title}`} pressed={i === current} onTap={() => show(i)} />
          ))}
        </View>
      )}
    </View>
  )
}
