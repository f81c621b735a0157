/**
 * The stale-answer guard: `next()` hands out a check that holds until the next request (or `drop()`), so an answer to
 * an earlier request that arrives after a later one was made is dropped, never shown over the newer one.
 */
export class Latest {
  private seq = 0

  next(): () => boolean {
    const seq = ++this.seq
    return () => seq === this.seq
  }

  /** Whatever is on its way is no longer wanted. */
  drop() {
    this.seq++
  }
}
