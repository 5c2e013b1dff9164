// Backoff, the retry loop and bounded concurrency for the engine's calls to chains, price sources and the Pointwise API.
import { setTimeout as sleep } from "node:timers/promises";
import { BaseError } from "@pointwise/errors";
import { scrubUrlCredentials } from "@pointwise/logger";

/** Exponential backoff with full jitter: for attempt 0, 1, 2... a delay from base up to, not including, min(max, base * 2^attempt) (base when that is not above base). */
export function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** attempt);
  return baseMs + Math.floor(Math.random() * Math.max(0, ceiling - baseMs));
}

/** A Retry-After header (delay in seconds or an HTTP date) in milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(header: unknown, now = Date.now()): number | undefined {
  if (typeof header !== "string") return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // The date form senders must use (IMF-fixdate, RFC 9110); Date.parse alone would take "-3" for a year.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The longest wait between two attempts that a Retry-After header may ask for. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** A backoff delay made as long as a Retry-After asks when that is longer (at most MAX_RETRY_AFTER_MS); never shortened. */
export function stretchToRetryAfter(delayMs: number, retryAfter: number | undefined): number {
  return retryAfter === undefined ? delayMs : Math.max(delayMs, Math.min(MAX_RETRY_AFTER_MS, retryAfter));
}

/** One attempt's outcome: its value, or a transient failure worth another attempt (after `retryAfterMs` when the server asked). */
export type AttemptOutcome<T> = { done: true; value: T } | { done: false; failure: string; retryAfterMs?: number | undefined };

/** How `retryTransient` retries, and what it throws and reports. */
export interface RetryLoop {
  maxAttempts: number;
  /** Backoff of attempt n: from baseMs up to min(maxMs, baseMs x 2^n), with full jitter (backoffMs). */
  baseMs: number;
  maxMs: number;
  /** Once `signal` (when there is one) is aborted, no attempt follows a failure and a wait ends at once, throwing `error()`. */
  stop?: { signal: AbortSignal | undefined; error: () => Error };
  /** The error thrown after `maxAttempts` failures, given the last failure. */
  exhausted: (failure: string) => Error;
  /** Called on every failure (the last one too), before the signal and the attempt budget are looked at. */
  onFailure?: () => void;
  /** Called before each wait with the attempt that failed (from 1), its failure and the wait, to log it. */
  onRetry: (retry: { attempt: number; failure: string; delayMs: number }) => void;
  /** Waits the delay; by default a sleep the signal cuts short. A caller that waits elsewhere (a shared limiter) passes its own. */
  wait?: (delayMs: number) => Promise<void>;
}

/**
 * Runs `attempt` until it is done: a transient failure (an outcome saying so, or a thrown error that is not a
 * BaseError, such as fetch's network errors, logged without URL credentials) is retried with backoff stretched to
 * the server's Retry-After; a BaseError is thrown at once. The Pointwise sink, its key check and the price client
 * retry through it; the RPC transport keeps a loop of its own, retrying only the missing calls of a batch.
 */
export async function retryTransient<T>(loop: RetryLoop, attempt: (n: number) => Promise<AttemptOutcome<T>>): Promise<T> {
  for (let n = 0; ; n++) {
    let failure: string;
    let retryAfter: number | undefined;
    try {
      const outcome = await attempt(n);
      if (outcome.done) return outcome.value;
      failure = outcome.failure;
      retryAfter = outcome.retryAfterMs;
    } catch (err) {
      if (err instanceof BaseError) throw err;
      failure = scrubUrlCredentials((err as Error).message);
    }
    loop.onFailure?.();
    const stop = loop.stop;
    if (stop?.signal?.aborted === true) throw stop.error();
    if (n + 1 >= loop.maxAttempts) throw loop.exhausted(failure);
    const delayMs = stretchToRetryAfter(backoffMs(n, loop.baseMs, loop.maxMs), retryAfter);
    loop.onRetry({ attempt: n + 1, failure, delayMs });
    if (loop.wait !== undefined) await loop.wait(delayMs);
    else
      await sleep(delayMs, undefined, { signal: stop?.signal }).catch(() => {
        // Only an abort rejects the sleep, and only a stop carries a signal.
        throw stop?.error();
      });
  }
}

/** Runs `tasks` with at most `limit` in flight, keeping result order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  // Stryker disable next-line ArrayDeclaration: every index is assigned before the array is returned, so preallocating its length is unobservable
  const results = new Array<R>(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
