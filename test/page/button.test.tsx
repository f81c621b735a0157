import { fireEvent, render, screen } from '@testing-library/react'
import { Button } from '@/components/Button'

/** Every screen's button: NutUI's, with the role, state and keyboard that Taro's H5 element lacks (jsdom runs as H5). */
describe('Button', () => {
  test('a button named by its text, in the Tab order; Enter and Space do what a tap does', () => {
    const onClick = jest.fn()
    render(<Button onClick={onClick}>确认挂号</Button>)
    const button = screen.getByRole('button', { name: '确认挂号' })
    expect(button.tabIndex).toBe(0)
    fireEvent.keyDown(button, { key: 'Enter' })
    fireEvent.keyDown(button, { key: ' ' })
    fireEvent.keyDown(button, { key: 'a' })
    fireEvent.keyDown(button, { key: 'Enter', repeat: true })
    expect(onClick).toHaveBeenCalledTimes(2)
  })

  test('disabled or loading: said so, out of the Tab order, and no key fires it', () => {
    const onClick = jest.fn()
    const { rerender } = render(<Button disabled onClick={onClick}>提交</Button>)
    let button = screen.getByRole('button', { name: '提交' })
    expect([button.getAttribute('aria-disabled'), button.tabIndex]).toEqual(['true', -1])
    fireEvent.keyDown(button, { key: 'Enter' })
    rerender(<Button loading onClick={onClick}>提交</Button>)
    button = screen.getByRole('button', { name: '提交' })
    fireEvent.keyDown(button, { key: 'Enter' })
    expect(onClick).not.toHaveBeenCalled()
  })
})
