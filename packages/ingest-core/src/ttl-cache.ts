// A bounded in-process cache with expiring entries, for API keys and event types on the ingest hot path.
interface Entry<V> {
  value: V;
  expires: number;
}

/**
 * A bounded in-process map whose entries expire. When full, the oldest entry goes first, so a flood
 * of distinct keys (for example random API keys) cannot grow memory or flush the whole cache at once.
 */
export class TtlCache<V> {
  readonly #entries = new Map<string, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** The live value under `key`, or undefined when absent or expired. */
  get(key: string): V | undefined {
    const hit = this.#entries.get(key);
    if (hit === undefined) return undefined;
    if (hit.expires <= Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  /** Stores `value` for the cache's ttl and returns it. */
  set(key: string, value: V): V {
    if (this.ttlMs <= 0) return value;
    this.#entries.delete(key);
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next();
      // Stryker disable next-line ConditionalExpression: done only when the map is empty, where deleting undefined changes nothing
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { value, expires: Date.now() + this.ttlMs });
    return value;
  }

  /** How many entries are held (expired ones included until touched). */
  get size(): number {
    return this.#entries.size;
  }
}
