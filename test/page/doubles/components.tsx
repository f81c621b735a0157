import { forwardRef, type CSSProperties, type ReactNode } from 'react'

/** Taro's components as plain DOM elements: the props that reach the element in H5 (style, role, aria-*, tabIndex, keydown). */
type Props = {
  children?: ReactNode
  id?: string
  className?: string
  style?: CSSProperties
  onClick?: () => void
  role?: string
  tabIndex?: number
  onKeyDown?: (e: unknown) => void
  [k: string]: unknown
}

const pass = (Tag: 'div' | 'span') =>
  forwardRef<HTMLElement, Props>(function C(props, ref) {
    const { children, id, className, style, onClick, role, tabIndex, onKeyDown, ...rest } = props as Props
    const aria = Object.fromEntries(Object.entries(rest).filter(([k]) => k.startsWith('aria-')))
    return (
      <Tag ref={ref as never} id={id} className={className} style={style} onClick={onClick} role={role} tabIndex={tabIndex} onKeyDown={onKeyDown} {...aria}>
        {children}
      </Tag>
    )
  })

export const View = pass('div')
export const Text = pass('span')
export const Swiper = pass('div')
export const SwiperItem = pass('div')
/** As Taro's H5 Image: `imgProps` reach the <img>, other attributes stay on the wrapper around it. */
export const Image = ({ src, imgProps, ...rest }: { src: string; imgProps?: { alt?: string }; [k: string]: unknown }) => (
  <span aria-hidden={rest['aria-hidden'] as 'true' | undefined}>
    <img src={src} alt={imgProps?.alt ?? ''} />
  </span>
)
export const RichText = ({ nodes }: { nodes: string }) => <div dangerouslySetInnerHTML={{ __html: nodes }} />
type FieldProps = { value?: string; placeholder?: string; 'aria-label'?: string; nativeProps?: { 'aria-label'?: string }; onInput?: (e: { detail: { value: string } }) => void }
/** As Taro's H5 Input, a real <input> that takes its name as it is. */
export const Input = ({ value, placeholder, 'aria-label': name, onInput }: FieldProps) => (
  <input value={value} placeholder={placeholder} aria-label={name} onChange={(e) => onInput?.({ detail: { value: e.target.value } })} />
)
/** As Taro's H5 Textarea: `nativeProps` (the field's name among them) reach the <textarea> inside it. */
export const Textarea = ({ value, placeholder, nativeProps, onInput }: FieldProps) => (
  <textarea value={value} placeholder={placeholder} aria-label={nativeProps?.['aria-label']} onChange={(e) => onInput?.({ detail: { value: e.target.value } })} />
)
export const ScrollView = pass('div')
/**
 * As a mini-program's native <button>: with `openType='getPhoneNumber'` a tap stands for WeChat's phone-number sheet,
 * answering with the detail the test put in `data-detail` (a code, or none when the patient declines).
 */
export const Button = ({ children, className, disabled, onGetPhoneNumber }: { children?: ReactNode; className?: string; disabled?: boolean; onGetPhoneNumber?: (e: { detail: unknown }) => void }) => (
  <button className={className} disabled={disabled} onClick={(e) => onGetPhoneNumber?.({ detail: JSON.parse((e.currentTarget as HTMLButtonElement).dataset.detail ?? '{}') })}>
    {children}
  </button>
)
/** As a mini-program's <web-view>: the page it shows; the test fires `load` with the address it reached. */
export const WebView = ({ src, onLoad }: { src: string; onLoad?: (e: { detail: { src: string } }) => void }) => (
  <iframe title='web-view' src={src} data-testid='web-view' onLoad={(e) => onLoad?.({ detail: { src: (e.target as HTMLIFrameElement).dataset.reached ?? src } })} />
)
/** As Taro's H5 Canvas: a <canvas> the page draws on (the chart's pictures are not read by a test). */
export const Canvas = ({ id, className }: { id?: string; className?: string }) => <canvas id={id} className={className} aria-hidden='true' />
