import type { ReactNode } from 'react'

/** NutUI's components used by the pages, as plain DOM (NutUI's own bundle is not for jsdom, stack notes). */
export const Button = ({ children, onClick }: { children?: ReactNode; onClick?: () => void }) => (
  <button type='button' onClick={onClick}>
    {children}
  </button>
)
export const Cell = ({ title, extra, onClick }: { title?: ReactNode; extra?: ReactNode; onClick?: () => void }) => (
  <div role='button' onClick={onClick}>
    {title}
    {extra}
  </div>
)
export const NoticeBar = ({ content }: { content: string }) => <div role='note'>{content}</div>
export const SearchBar = ({ placeholder, onChange }: { placeholder?: string; onChange?: (v: string) => void }) => (
  <input placeholder={placeholder} onChange={(e) => onChange?.(e.target.value)} />
)
