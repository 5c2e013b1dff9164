// Leaves excluded users' events out of what the engine scores (they stay in the log) and their referral shares unpaid.
import type { RawEvent } from "./types";

/**
 * The events the engine scores: those of users not excluded, each without its referrer when the
 * referrer is excluded (so an excluded user earns no referral share either). The log keeps every
 * event, so lifting an exclusion and recomputing scores them again.
 */
export function withoutExcluded(events: readonly RawEvent[], excluded: ReadonlySet<string>): RawEvent[] {
  if (excluded.size === 0) return events as RawEvent[];
  const out: RawEvent[] = [];
  for (const e of events) {
    if (excluded.has(e.userId)) continue;
    out.push(e.referrerId && excluded.has(e.referrerId) ? { ...e, referrerId: null } : e);
  }
  return out;
}
