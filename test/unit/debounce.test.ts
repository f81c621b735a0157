import { debounce, throttle } from '../../src/utils/debounce';

describe('debounce (spec §9, 500 ms default)', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('runs once, 500 ms after the last call, with its arguments', () => {
    const fn = jest.fn((a: number, b: string) => `${a}${b}`);
    const d = debounce(fn);
    d(1, 'a');
    jest.advanceTimersByTime(300);
    d(2, 'b');
    jest.advanceTimersByTime(499);
    expect(fn).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith(2, 'b');
  });

  it('honours a custom wait', () => {
    const fn = jest.fn();
    const d = debounce(fn, 100);
    d();
    jest.advanceTimersByTime(100);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('cancel() drops the pending call', () => {
    const fn = jest.fn();
    const d = debounce(fn);
    d();
    d.cancel();
    jest.advanceTimersByTime(1000);
    expect(fn).not.toHaveBeenCalled();
    d();
    jest.advanceTimersByTime(500);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('keeps `this`', () => {
    const obj = {
      n: 7,
      seen: 0,
      run: debounce(function (this: { n: number; seen: number }) {
        this.seen = this.n;
      }),
    };
    obj.run();
    jest.advanceTimersByTime(500);
    expect(obj.seen).toBe(7);
  });
});

describe('throttle (spec §9, 500 ms default)', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('runs the first call immediately', () => {
    const fn = jest.fn();
    const t = throttle(fn);
    t('x');
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith('x');
  });

  it('drops calls in the window except one trailing call with the latest arguments', () => {
    const fn = jest.fn();
    const t = throttle(fn);
    t(1);
    t(2);
    jest.advanceTimersByTime(200);
    t(3);
    expect(fn).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(300);
    expect(fn).toHaveBeenCalledTimes(2);
    expect(fn).toHaveBeenLastCalledWith(3);
    jest.advanceTimersByTime(2000);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('has no trailing call when nothing came during the window', () => {
    const fn = jest.fn();
    const t = throttle(fn);
    t(1);
    jest.advanceTimersByTime(500);
    expect(fn).toHaveBeenCalledTimes(1);
    t(2);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('runs at most once per window under continuous calls', () => {
    const fn = jest.fn();
    const t = throttle(fn, 100);
    for (let i = 0; i < 50; i += 1) {
      t(i);
      jest.advanceTimersByTime(10);
    }
    // Calls at 0..490 ms: leading at 0, then one trailing call per window end
    // (100, 200, 300, 400, 500); the last carries the latest argument.
    expect(fn).toHaveBeenCalledTimes(6);
    expect(fn).toHaveBeenLastCalledWith(49);
    jest.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(6);
  });

  it('cancel() drops the trailing call and reopens', () => {
    const fn = jest.fn();
    const t = throttle(fn);
    t(1);
    t(2);
    t.cancel();
    jest.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(1);
    t(3);
    expect(fn).toHaveBeenCalledTimes(2);
    expect(fn).toHaveBeenLastCalledWith(3);
  });
});
