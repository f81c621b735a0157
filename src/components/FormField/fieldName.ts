import type { InputProps } from '@tarojs/components'

/**
 * The name a screen reader gives a text field (a placeholder is not one); a mini-program's native fields ignore it.
 * On H5, Taro's Input is a real <input> (@tarojs/components-react, config/index.ts) and takes the name as it is.
 */
export const fieldName = (label: string): InputProps & { 'aria-label': string } => ({ 'aria-label': label })

/**
 * The same for Taro's Textarea, which on H5 is still a custom element around a real <textarea>: `nativeProps` is
 * what reaches that inner element.
 */
export const textareaName = (label: string) => ({ nativeProps: { 'aria-label': label } })
