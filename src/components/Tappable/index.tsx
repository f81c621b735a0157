import type { ReactNode } from 'react'
import { View, Text } from '@tarojs/components'
import platform from '@/platform'
import './index.scss'

/** What a tap hands to `onTap`: a click (or, on H5, the Enter / Space key that stands for one). */
export interface TapEvent {
  stopPropagation(): void
}

export type TappableRole = 'button' | 'link' | 'tab' | 'radio' | 'checkbox' | 'switch' | 'menuitem'

interface KeyEvent extends TapEvent {
  key: string
  repeat?: boolean
  target: unknown
  currentTarget: unknown
  preventDefault(): void
}

interface Props {
  /** What the tap does. Without it (and not `disabled`) the view is plain, e.g. a card only some modes can pick. */
  onTap?: (event: TapEvent) => void
  role?: TappableRole
  /** The accessible name, when the visible text is not it (an icon, a number, a short word that needs context). */
  label?: string
  /** The ids of the elements whose texts make the name, in order, when it is put together from several (aria-labelledby). */
  labelledBy?: string
  /** A tab's state (aria-selected). */
  selected?: boolean
  /** A radio's, checkbox's or switch's state (aria-checked). */
  checked?: boolean
  /** A toggle button's state (aria-pressed). */
  pressed?: boolean
  /** Whether what it opens is open (aria-expanded). */
  expanded?: boolean
  /** Said (aria-disabled), still reachable, and does nothing. */
  disabled?: boolean
  /** A text link inside a line: rendered as Text, in the line, without the minimum touch size. */
  inline?: boolean
  /** Fills its container (a table cell): the container keeps its own role, this is the control inside it. */
  fill?: boolean
  /** Lays out a small control's content in a row (a tick and its words, a short link), var(--tap-min) tall. */
  row?: boolean
  className?: string
  children?: ReactNode
}

const ACTIVATION_KEYS = ['Enter', ' ', 'Spacebar']

const aria = (value: boolean | undefined) => (value === undefined ? undefined : String(value))

/**
 * Every tappable view of the app (STYLE.md "Accessible by construction"): a role, an accessible name, its state,
 * and on H5 a place in the Tab order with Enter / Space doing what a tap does. Taro's H5 views are custom elements
 * with none of that of their own; the mini-programs take the role and the name and have no keyboard focus.
 */
export default function Tappable(props: Props) {
  const { onTap, role = 'button', label, labelledBy, selected, checked, pressed, expanded, disabled, inline, fill, row, className, children } = props
  const layout = [fill ? 'tappable--fill' : '', row ? 'tappable--row' : '', className ?? '']
  const Tag = inline ? Text : View
  if (!onTap && !disabled) return <Tag className={layout.filter(Boolean).join(' ') || undefined}>{children}</Tag>

  const classes = ['tappable', inline ? 'tappable--inline' : 'tappable--target', ...layout].filter(Boolean).join(' ')

  const tap = disabled ? undefined : onTap
  // Taro's H5 wrapper sets tabIndex as a property of the element and listens for keydown on it itself
  // (@tarojs/components/lib/react attachProps); neither prop is in its types, nor of use in a mini-program.
  const keyboard: Record<string, unknown> = platform.keyboard
    ? {
        tabIndex: 0,
        onKeyDown: (e: KeyEvent) => {
          // a key pressed in something inside (a nested link, a field) is that thing's own
          if (e.target !== e.currentTarget || !ACTIVATION_KEYS.includes(e.key)) return
          e.preventDefault()
          e.stopPropagation()
          if (!e.repeat) tap?.(e)
        },
      }
    : {}
  return (
    <Tag
      className={classes}
      role={role}
      aria-label={label}
      aria-labelledby={labelledBy}
      aria-selected={aria(selected)}
      aria-checked={aria(checked)}
      aria-pressed={aria(pressed)}
      aria-expanded={aria(expanded)}
      aria-disabled={disabled ? 'true' : undefined}
      onClick={tap}
      {...keyboard}
    >
      {children}
    </Tag>
  )
}
