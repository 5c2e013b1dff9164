// Seeded pseudo-random numbers for tests and benchmarks that must make the same choices on every run.

/** mulberry32: each call returns the next unsigned 32-bit integer of the seed's sequence. */
export function seededUint32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** The same sequence as numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  const next = seededUint32(seed);
  return () => next() / 4294967296;
}
