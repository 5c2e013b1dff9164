// A bounded least-recently-used map with O(1) operations, used to cap the indexer's in-memory caches.
interface Entry<K, V> {
  key: K;
  value: V;
  older: Entry<K, V> | undefined;
  newer: Entry<K, V> | undefined;
}

/**
 * A map that keeps at most `capacity` entries, evicting the least recently used: memory stays bounded.
 *
 * Recency is a doubly linked list beside the Map, so every operation is O(1). Evicting through the Map's own
 * insertion order (`keys().next()` after deletes) is not: V8 leaves deleted slots in place until it rehashes,
 * and each eviction walked past all of them, tens of microseconds per insert once the map was full.
 */
export class Lru<K, V> {
  readonly #map = new Map<K, Entry<K, V>>();
  #oldest: Entry<K, V> | undefined;
  #newest: Entry<K, V> | undefined;

  constructor(readonly capacity: number) {
    if (capacity < 1) throw new RangeError("capacity must be at least 1");
  }

  /** The value for `key`, refreshed as most recently used. */
  get(key: K): V | undefined {
    const entry = this.#map.get(key);
    if (entry === undefined) return undefined;
    this.#touch(entry);
    return entry.value;
  }

  /** True when `key` is present (without refreshing it). */
  has(key: K): boolean {
    return this.#map.has(key);
  }

  /** Stores `value` as most recently used, evicting the oldest entry when full. */
  set(key: K, value: V): void {
    const entry = this.#map.get(key);
    if (entry !== undefined) {
      entry.value = value;
      this.#touch(entry);
      return;
    }
    const added: Entry<K, V> = { key, value, older: this.#newest, newer: undefined };
    if (this.#newest === undefined) this.#oldest = added;
    else this.#newest.newer = added;
    this.#newest = added;
    this.#map.set(key, added);
    // Past capacity the map holds at least one entry, so there is an oldest.
    if (this.#map.size > this.capacity) this.delete(this.#oldest!.key);
  }

  /** Removes `key`. */
  delete(key: K): void {
    const entry = this.#map.get(key);
    if (entry === undefined) return;
    this.#map.delete(key);
    this.#unlink(entry);
  }

  /** Number of entries held. */
  get size(): number {
    return this.#map.size;
  }

  #unlink(entry: Entry<K, V>): void {
    if (entry.older === undefined) this.#oldest = entry.newer;
    else entry.older.newer = entry.newer;
    if (entry.newer === undefined) this.#newest = entry.older;
    else entry.newer.older = entry.older;
    entry.older = undefined;
    entry.newer = undefined;
  }

  #touch(entry: Entry<K, V>): void {
    if (entry === this.#newest) return;
    this.#unlink(entry);
    // The entry was not the newest, so another entry still is.
    const newest = this.#newest as Entry<K, V>;
    entry.older = newest;
    newest.newer = entry;
    this.#newest = entry;
  }
}
