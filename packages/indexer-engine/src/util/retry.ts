// Backoff and bounded concurrency for the engine's calls to chains, price sources and the Pointwise API.
/** Exponential backoff with full jitter: for attempt 0, 1, 2... a delay from base up to, not including, min(max, base * 2^attempt) (base when that is not above base). */
export function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** attempt);
  return baseMs + Math.floor(Math.random() * Math.max(0, ceiling - baseMs));
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
