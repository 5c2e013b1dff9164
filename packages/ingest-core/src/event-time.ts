// The bounds of an event's occurred_at: clock skew, the campaign's dates and how far back a key may report.
import type { Problem } from "./envelope";

/** The service-wide limits on event time (ingest settings); both at least 0. */
export interface EventTimeLimits {
  /** How far ahead of the service's clock an occurred_at may be (client clock skew), in ms. */
  maxSkewMs: number;
  /** How far back an ordinary key may report, in ms; a key allowed to backfill may go back to the campaign's start. */
  maxAgeMs: number;
}

/** What the presented key allows: its campaign's dates and whether it may backfill. */
export interface EventTimeRights {
  backfill: boolean;
  /** The campaign's starts_at (ms) or null: open. */
  startsAt: number | null;
  /** The campaign's ends_at (ms, exclusive) or null: open. */
  endsAt: number | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

function duration(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/**
 * Checks an event's time against the limits, the campaign's dates and the key's rights; null when it
 * may be accepted. `occurredAt` is undefined for an event without one (it happens when received, so
 * only the campaign's dates can refuse it). Checked in this order: future, campaign start, campaign
 * end, age.
 */
export function checkEventTime(occurredAt: number | undefined, receivedAt: number, rights: EventTimeRights, limits: EventTimeLimits): Problem | null {
  const at = occurredAt ?? receivedAt;
  const what = occurredAt === undefined ? "the event (received now)" : `occurred_at ${iso(at)}`;
  // Without an occurred_at, `at` is receivedAt: never ahead of it nor older than it, as both limits are at least 0.
  if (at > receivedAt + limits.maxSkewMs) {
    return {
      message: `occurred_at ${iso(at)} is more than ${duration(limits.maxSkewMs)} ahead of the service's clock (${iso(receivedAt)})`,
      code: "occurred-at-in-future",
    };
  }
  if (rights.startsAt !== null && at < rights.startsAt) {
    return { message: `${what} is before the campaign starts (${iso(rights.startsAt)})`, code: "occurred-at-before-campaign" };
  }
  if (rights.endsAt !== null && at >= rights.endsAt) {
    return { message: `${what} is not before the campaign ends (${iso(rights.endsAt)})`, code: "occurred-at-after-campaign" };
  }
  if (!rights.backfill && at < receivedAt - limits.maxAgeMs) {
    return {
      message: `occurred_at ${iso(at)} is more than ${duration(limits.maxAgeMs)} in the past; this API key may not backfill (an operator can allow it for the key)`,
      code: "occurred-at-too-old",
    };
  }
  return null;
}
