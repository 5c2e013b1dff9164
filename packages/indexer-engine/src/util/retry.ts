// Backoff and bounded concurrency for the engine's calls to chains, price sources and the Pointwise API.
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
