/**
 * The name a screen reader gives a text field (a placeholder is not one). Taro's H5 Input and Textarea are custom
 * elements around a real <input> / <textarea>: `nativeProps` is what reaches that inner element (a mini-program,
 * whose fields are native, ignores it).
 */
export const fieldName = (label: string) => ({ nativeProps: { 'aria-label': label } })
