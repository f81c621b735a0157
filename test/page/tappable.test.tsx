import { fireEvent, render, screen } from '@testing-library/react'
import Tappable from '@/components/Tappable'

/**
 * The one tappable view (STYLE.md "Accessible by construction"): what a screen reader and a keyboard find. Under
 * jsdom the platform is H5's (jest.config.js), so the keyboard half is on.
 */
describe('Tappable', () => {
  test('a button by default, named by its text, reachable by Tab', () => {
    const onTap = jest.fn()
    render(<Tappable onTap={onTap}>重新加载</Tappable>)
    const button = screen.getByRole('button', { name: '重新加载' })
    expect(button.tabIndex).toBe(0)
    fireEvent.click(button)
    expect(onTap).toHaveBeenCalledTimes(1)
  })

  test('a label names it when the text does not (an icon)', () => {
    render(<Tappable label='返回' onTap={() => undefined} />)
    expect(screen.getByRole('button', { name: '返回' })).toBeTruthy()
  })

  test('Enter and Space do what a tap does; other keys do nothing', () => {
    const onTap = jest.fn()
    render(<Tappable onTap={onTap}>关注</Tappable>)
    const button = screen.getByRole('button', { name: '关注' })
    fireEvent.keyDown(button, { key: 'Enter' })
    fireEvent.keyDown(button, { key: ' ' })
    fireEvent.keyDown(button, { key: 'a' })
    fireEvent.keyDown(button, { key: 'Tab' })
    expect(onTap).toHaveBeenCalledTimes(2)
  })

  test('Space does not scroll the page, and a held key fires once', () => {
    const onTap = jest.fn()
    render(<Tappable onTap={onTap}>关注</Tappable>)
    const button = screen.getByRole('button', { name: '关注' })
    expect(fireEvent.keyDown(button, { key: ' ' })).toBe(false) // default prevented
    fireEvent.keyDown(button, { key: ' ', repeat: true })
    expect(onTap).toHaveBeenCalledTimes(1)
  })

  test('a disabled one says so and fires on neither a tap nor a key', () => {
    const onTap = jest.fn()
    render(
      <Tappable disabled onTap={onTap}>
        约满
      </Tappable>,
    )
    const button = screen.getByRole('button', { name: '约满' })
    expect(button.getAttribute('aria-disabled')).toBe('true')
    fireEvent.click(button)
    fireEvent.keyDown(button, { key: 'Enter' })
    fireEvent.keyDown(button, { key: ' ' })
    expect(onTap).not.toHaveBeenCalled()
  })

  test('roles and their states: tab selected, radio and checkbox checked, pressed, expanded', () => {
    render(
      <>
        <Tappable role='tab' selected onTap={() => undefined}>
          全部
        </Tappable>
        <Tappable role='radio' checked={false} onTap={() => undefined}>
          男
        </Tappable>
        <Tappable role='checkbox' checked onTap={() => undefined}>
          我已阅读并同意
        </Tappable>
        <Tappable role='link' onTap={() => undefined}>
          查看全部
        </Tappable>
        <Tappable pressed onTap={() => undefined}>
          已关注
        </Tappable>
        <Tappable expanded={false} onTap={() => undefined}>
          2026-11-01
        </Tappable>
      </>,
    )
    expect(screen.getByRole('tab', { name: '全部', selected: true })).toBeTruthy()
    expect(screen.getByRole('radio', { name: '男', checked: false })).toBeTruthy()
    expect(screen.getByRole('checkbox', { name: '我已阅读并同意', checked: true })).toBeTruthy()
    expect(screen.getByRole('link', { name: '查看全部' })).toBeTruthy()
    expect(screen.getByRole('button', { name: '已关注', pressed: true })).toBeTruthy()
    expect(screen.getByRole('button', { name: '2026-11-01', expanded: false })).toBeTruthy()
  })

  test('a key pressed on a control inside it belongs to that control (a link inside a checkbox line)', () => {
    const outer = jest.fn()
    const inner = jest.fn()
    render(
      <Tappable role='checkbox' checked={false} onTap={outer}>
        我已阅读并同意
        <Tappable role='link' inline onTap={inner}>
          《互联网诊疗知情同意书》
        </Tappable>
      </Tappable>,
    )
    fireEvent.keyDown(screen.getByRole('link'), { key: 'Enter' })
    expect(inner).toHaveBeenCalledTimes(1)
    expect(outer).not.toHaveBeenCalled()
  })

  test('the class stays the page’s own; an inline link is text, without the touch-size class', () => {
    const { container } = render(
      <>
        <Tappable className='record' onTap={() => undefined}>
          记录
        </Tappable>
        <Tappable inline className='confirm__link' onTap={() => undefined}>
          切换
        </Tappable>
      </>,
    )
    const [block, inline] = Array.from(container.querySelectorAll('[role=button]'))
    expect(block!.tagName).toBe('DIV')
    expect(block!.className.split(' ')).toEqual(expect.arrayContaining(['record', 'tappable--target']))
    expect(inline!.tagName).toBe('SPAN')
    expect(inline!.className.split(' ')).toEqual(expect.arrayContaining(['confirm__link', 'tappable--inline']))
    expect(inline!.className).not.toContain('tappable--target')
  })

  test('without onTap it is a plain view: no role, not in the Tab order', () => {
    const { container } = render(<Tappable className='patient-card'>张三</Tappable>)
    expect(screen.queryByRole('button')).toBeNull()
    const card = container.querySelector('.patient-card')!
    expect(card.getAttribute('tabindex')).toBeNull()
  })
})
