/** Debounce and throttle with the default 500 ms window (spec §9). */

/** A wrapped function whose pending call can be dropped with `cancel()`. */
export interface Cancelable<This, Args extends unknown[]> {
  (this: This, ...args: Args): void;
  cancel(): void;
}

/**
 * Trailing debounce (spec §9, default 500 ms): `fn` runs once, `wait` ms after the last
 * call, with that call's arguments and `this`. `cancel()` drops a pending call.
 */
export function debounce<This, Args extends unknown[]>(
  fn: (this: This, ...args: Args) => unknown,
  wait = 500,
): Cancelable<This, Args> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const debounced = function (this: This, ...args: Args): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      fn.apply(this, args);
    }, wait);
  } as Cancelable<This, Args>;
  debounced.cancel = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return debounced;
}

/**
 * Throttle (spec §9, default 500 ms): the first call runs immediately and opens a window
 * of `wait` ms; calls inside the window are dropped except that, if any came, one trailing
 * call with the latest arguments runs when the window ends (and opens a new window).
 * `cancel()` drops a pending trailing call and closes the window.
 */
export function throttle<This, Args extends unknown[]>(
  fn: (this: This, ...args: Args) => unknown,
  wait = 500,
): Cancelable<This, Args> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: { self: This; args: Args } | undefined;

  const endWindow = (): void => {
    timer = undefined;
    if (pending) {
      const { self, args } = pending;
      pending = undefined;
      timer = setTimeout(endWindow, wait);
      fn.apply(self, args);
    }
  };

  const throttled = function (this: This, ...args: Args): void {
    if (timer === undefined) {
      timer = setTimeout(endWindow, wait);
      fn.apply(this, args);
    } else {
      pending = { self: this, args };
    }
  } as Cancelable<This, Args>;
  throttled.cancel = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    pending = undefined;
  };
  return throttled;
}
