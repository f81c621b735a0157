import { useEffect, useState, type ReactNode } from 'react'

/**
 * NutUI's components used by the pages, as plain DOM (NutUI's own bundle is not for jsdom, stack notes), keeping the
 * behaviour a test looks at: a disabled button does nothing, a dialog closes after its confirm.
 */
/** As NutUI's: other props (a role, tabIndex, a key handler) reach the element. */
export const Button = ({ children, onClick, disabled, loading: _loading, block: _block, type: _type, size: _size, ...rest }: Record<string, unknown> & { children?: ReactNode; onClick?: () => void; disabled?: boolean }) => (
  <button type='button' {...rest} disabled={disabled} onClick={disabled ? undefined : onClick}>
    {children}
  </button>
)

export const Dialog = (p: {
  visible?: boolean
  title?: ReactNode
  content?: ReactNode
  confirmText?: ReactNode
  cancelText?: ReactNode
  hideCancelButton?: boolean
  hideConfirmButton?: boolean
  onConfirm?: () => void
  onCancel?: () => void
  onClose?: () => void
}) =>
  p.visible ? (
    <div role='dialog'>
      <h2>{p.title}</h2>
      <p>{p.content}</p>
      {!p.hideCancelButton && (
        <button type='button' onClick={() => (p.onCancel?.(), p.onClose?.())}>
          {p.cancelText ?? '取消'}
        </button>
      )}
      {!p.hideConfirmButton && (
        <button type='button' onClick={() => (p.onConfirm?.(), p.onClose?.())}>
          {p.confirmText ?? '确定'}
        </button>
      )}
    </div>
  ) : null

export const DatePicker = ({ visible, title }: { visible?: boolean; title?: string }) => (visible ? <div role='dialog'>{title}</div> : null)

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

interface CascaderNode {
  text?: string
  value?: number | string
  leaf?: boolean
  children?: CascaderNode[]
}

/**
 * Cascader as NutUI runs it with `onLoad`: one pane per level, the deepest one showing; a branch asks `onLoad` for its
 * children, a leaf closes the picker and reports the codes and the path. Opening it finds `value` in the options.
 */
export function Cascader(p: {
  visible?: boolean
  title?: ReactNode
  options?: CascaderNode[]
  value?: (number | string)[]
  onLoad?: (node: CascaderNode, level: number) => Promise<CascaderNode[]>
  onChange?: (value: (number | string)[], path: CascaderNode[]) => void
  onClose?: () => void
}) {
  const [path, setPath] = useState<CascaderNode[]>([])
  useEffect(() => {
    if (!p.visible) return
    const found: CascaderNode[] = []
    let level = p.options ?? []
    for (const v of p.value ?? []) {
      const node = level.find((o) => o.value === v)
      if (!node) break
      found.push(node)
      level = node.children ?? []
    }
    setPath(found)
    // like NutUI, the value is read when the picker opens or its options arrive
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [p.visible, p.options])
  if (!p.visible) return null
  // the pane on show: the last chosen node's children, or its siblings when it has none (a district)
  const last = path[path.length - 1]
  const level = last && !last.children ? path.length - 1 : path.length
  const pane = (level === 0 ? p.options : path[level - 1]!.children) ?? []
  const choose = async (node: CascaderNode) => {
    const next = [...path.slice(0, level), node]
    if (!node.leaf && p.onLoad) node.children = await p.onLoad(node, level)
    if (node.leaf || !node.children?.length) {
      p.onClose?.()
      p.onChange?.(next.map((n) => n.value!), next)
    }
    setPath(next)
  }
  return (
    <div role='dialog' aria-label={typeof p.title === 'string' ? p.title : undefined}>
      <h2>{p.title}</h2>
      <button type='button' aria-label='关闭' onClick={p.onClose} />
      <ul role='listbox'>
        {pane.map((node) => (
          <li key={node.value} role='option' aria-selected={path[level]?.value === node.value} onClick={() => void choose(node)}>
            {node.text}
          </li>
        ))}
      </ul>
    </div>
  )
}
