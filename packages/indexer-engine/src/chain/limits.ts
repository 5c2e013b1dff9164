// Admission limits of the JSON-RPC transport: requests in flight (a semaphore) and calls per second (a token bucket).
import { setTimeout as sleep } from "node:timers/promises";

/** At most `limit` holders at a time; others wait in arrival order. */
export class Semaphore {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(limit: number) {
    this.#free = Math.max(1, limit);
  }

  /** Waits for a slot; call the returned function once to give it back. */
  async acquire(): Promise<() => void> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      // A waiter takes the slot over directly, so a newcomer cannot overtake it.
      if (next !== undefined) next();
      else this.#free++;
    };
  }
}

/**
 * A token bucket of `perSecond` tokens refilled continuously, holding at most one second's worth. Taking more tokens
 * than the bucket can hold (a large batch under a small limit) waits for a full bucket and leaves it in debt, so the
 * average rate still holds. Takers are served in arrival order. `perSecond` 0 means no limit.
 */
export class TokenBucket {
  #tokens: number;
  #at: number;
  #queue: Promise<void> = Promise.resolve();

  constructor(
    readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#tokens = perSecond;
    this.#at = now();
  }

  /** Waits until `count` tokens (or a full bucket, for a larger count) are available and takes them. */
  take(count: number): Promise<void> {
    if (this.perSecond <= 0) return Promise.resolve();
    const turn = this.#queue.then(async () => {
      for (;;) {
        const t = this.now();
        this.#tokens = Math.min(this.perSecond, this.#tokens + ((t - this.#at) * this.perSecond) / 1000);
        this.#at = t;
        const needed = Math.min(count, this.perSecond);
        if (this.#tokens >= needed) {
          this.#tokens -= count;
          return;
        }
        await sleep(Math.ceil(((needed - this.#tokens) * 1000) / this.perSecond));
      }
    });
    this.#queue = turn;
    return turn;
  }
}
