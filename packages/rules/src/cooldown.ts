// Cooldowns in event time: the spans of a rule's counted times, and whether an instant is blocked by them.

/**
 * A run of counted times of one cooldown rule, `[first, last]` in epoch milliseconds: consecutive
 * counted times inside a span are less than twice the cooldown apart, and spans are sorted with
 * `last` of one before `first` of the next.
 */
export type Span = [first: number, last: number];

/*
 * Why spans are exact. Let S be the rule's counted times and c > 0 its cooldown. An instant m is
 * blocked when some s in S has |s - m| < c. Every two counted times are at least c apart (the
 * later-applied one would have been blocked otherwise). Cut sorted S into spans wherever two
 * consecutive times are at least 2c apart. Claim: m is blocked iff first - c < m < last + c for
 * some span [first, last].
 *   (only if) s lies in a span [f, l] with f <= s <= l, so f - c <= s - c < m < s + c <= l + c.
 *   (if) take a span with f - c < m < l + c. If m <= f, then f - m < c and f blocks m. If m >= l,
 *   l blocks m. Otherwise two consecutive counted times s_i <= m <= s_i+1 of the span are less
 *   than 2c apart, so the nearer of them is less than c from m and blocks it.
 * Adding an unblocked m keeps the spans those of S + {m}: m lies at least c outside every span, so
 * it falls between two spans (or before the first, after the last), and the only consecutive pairs
 * that change are (prev.last, m) and (m, next.first), which replace (prev.last, next.first), a gap
 * of at least 2c. So m joins prev when m - prev.last < 2c, next when next.first - m < 2c, both
 * (the three become one), or neither (a span of its own). The spans therefore depend on S alone,
 * not on the order its times were counted in, which is what makes late events exact.
 * Between spans the gap is at least 2c, so only the span starting at or before m and the one after
 * it can block m; `isBlocked` looks at those two.
 */

/** Index of the first span that starts after `ms` (spans.length when none does). */
function firstAfter(spans: readonly Span[], ms: number): number {
  let lo = 0;
  let hi = spans.length;
  // The common case, an event later than everything counted, needs no search.
  const last = spans[hi - 1];
  if (last === undefined || last[0] <= ms) return hi;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((spans[mid] as Span)[0] > ms) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** True when a counted time of the spans lies less than `cooldownMs` from `ms`, before or after it. */
export function isBlocked(spans: readonly Span[], ms: number, cooldownMs: number): boolean {
  const i = firstAfter(spans, ms);
  const before = spans[i - 1];
  if (before !== undefined && ms < before[1] + cooldownMs) return true;
  const after = spans[i];
  return after !== undefined && after[0] - cooldownMs < ms;
}

/**
 * Records `ms` as a counted time (it must not be blocked): extends or merges the neighbouring
 * spans or inserts a span of its own. Changes `spans` in place (the engine's own copy of the state).
 */
export function addCounted(spans: Span[], ms: number, cooldownMs: number): void {
  const i = firstAfter(spans, ms);
  const before = spans[i - 1];
  const after = spans[i];
  const joinBefore = before !== undefined && ms - before[1] < 2 * cooldownMs;
  const joinAfter = after !== undefined && after[0] - ms < 2 * cooldownMs;
  if (joinBefore && joinAfter) {
    before[1] = after[1];
    spans.splice(i, 1);
  } else if (joinBefore) {
    before[1] = ms;
  } else if (joinAfter) {
    after[0] = ms;
  } else {
    spans.splice(i, 0, [ms, ms]);
  }
}
