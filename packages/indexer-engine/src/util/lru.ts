/** A map that keeps at most `capacity` entries, evicting the least recently used: memory stays bounded. */
export class Lru<K, V> {
  readonly #map = new Map<K, V>();
  constructor(readonly capacity: number) {
    if (capacity < 1) throw new RangeError("capacity must be at least 1");
  }

  /** The value for `key`, refreshed as most recently used. */
  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (value === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }

  /** True when `key` is present (without refreshing it). */
  has(key: K): boolean {
    return this.#map.has(key);
  }

  /** Stores `value`, evicting the oldest entry when full. */
  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.capacity) {
      const oldest = this.#map.keys().next();
      if (oldest.done !== true) this.#map.delete(oldest.value);
    }
  }

  /** Removes `key`. */
  delete(key: K): void {
    this.#map.delete(key);
  }

  /** Number of entries held. */
  get size(): number {
    return this.#map.size;
  }
}
