/**
 * Spaces requests at least `60000 / perMinute` ms apart. Pure bookkeeping: `reserve(now)` returns how long the
 * caller must wait before sending, and books that slot; `sent(now)` records when the request really went out, so a
 * wait that ran late (a busy event loop) pushes the slots booked after it rather than letting the next one follow
 * early. Slots already booked keep their times: over a minute the rate holds either way.
 */
export class IntervalLimiter {
  readonly #intervalMs: number;
  #nextFree = 0;

  constructor(perMinute: number) {
    if (!(perMinute > 0)) throw new RangeError("perMinute must be positive");
    this.#intervalMs = 60_000 / perMinute;
  }

  /** Books the next slot at or after `now` and returns the wait until it. */
  reserve(now: number): number {
    const slot = Math.max(now, this.#nextFree);
    this.#nextFree = slot + this.#intervalMs;
    return slot - now;
  }

  /** Records a send at `now`: the next free slot is at least an interval after it. */
  sent(now: number): void {
    this.#nextFree = Math.max(this.#nextFree, now + this.#intervalMs);
  }

  /** Pushes the next free slot to at least `until` (after a 429 with Retry-After). */
  pauseUntil(until: number): void {
    this.#nextFree = Math.max(this.#nextFree, until);
  }
}
