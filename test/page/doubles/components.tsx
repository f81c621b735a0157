import type { ReactNode } from 'react'

/** Taro's components as plain DOM elements. */
type Props = { children?: ReactNode; className?: string; onClick?: () => void; [k: string]: unknown }

const pass = (Tag: 'div' | 'span') =>
  function C({ children, className, onClick, role, ...rest }: Props) {
    const aria = Object.fromEntries(Object.entries(rest).filter(([k]) => k.startsWith('aria-')))
    return (
      <Tag className={className} onClick={onClick} role={role as string | undefined} {...aria}>
        {children}
      </Tag>
    )
  }

export const View = pass('div')
export const Text = pass('span')
export const Swiper = pass('div')
export const SwiperItem = pass('div')
export const Image = ({ src }: { src: string }) => <img src={src} alt='' />
export const RichText = ({ nodes }: { nodes: string }) => <div dangerouslySetInnerHTML={{ __html: nodes }} />
export const Input = ({ value, placeholder, onInput }: { value?: string; placeholder?: string; onInput?: (e: { detail: { value: string } }) => void }) => (
  <input value={value} placeholder={placeholder} onChange={(e) => onInput?.({ detail: { value: e.target.value } })} />
)
export const Textarea = ({ value, placeholder, onInput }: { value?: string; placeholder?: string; onInput?: (e: { detail: { value: string } }) => void }) => (
  <textarea value={value} placeholder={placeholder} onChange={(e) => onInput?.({ detail: { value: e.target.value } })} />
)
export const ScrollView = pass('div')
