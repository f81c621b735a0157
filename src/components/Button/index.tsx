import type { ComponentProps } from 'react'
// the one place NutUI's Button is drawn (the lint sends every screen here)
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import { Button as NutButton } from '@nutui/nutui-react-taro'
import platform from '@/platform'

type Props = ComponentProps<typeof NutButton>

const ACTIVATION_KEYS = ['Enter', ' ', 'Spacebar']

/**
 * NutUI's Button as every screen uses it, made a real button for a screen reader and a keyboard: on H5 NutUI renders
 * Taro's button, a div (`.taro-button-core`) with no role and no place in the Tab order. This adds the button role,
 * its disabled state, Tab, and Enter / Space doing what a tap does; a mini-program's native button has its own.
 * Screens import it instead of NutUI's (one way to draw a button).
 */
export function Button({ disabled, loading, onClick, ...rest }: Props) {
  const inactive = disabled || loading
  const a11y: Record<string, unknown> = platform.keyboard
    ? {
        role: 'button',
        'aria-disabled': inactive ? 'true' : undefined,
        tabIndex: inactive ? -1 : 0,
        onKeyDown: (e: { key: string; repeat?: boolean; target: unknown; currentTarget: unknown; preventDefault(): void }) => {
          if (e.target !== e.currentTarget || !ACTIVATION_KEYS.includes(e.key)) return
          e.preventDefault()
          if (!e.repeat && !inactive) onClick?.(e as never)
        },
      }
    : {}
  return <NutButton {...rest} {...a11y} disabled={disabled} loading={loading} onClick={onClick} />
}
