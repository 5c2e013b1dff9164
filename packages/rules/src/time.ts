// UTC time helpers for rules: parsing ISO times, weekdays, recurring windows and cap period keys.
import type { CapPeriod, RecurringWindow } from "./schema";
import { WEEKDAYS } from "./schema";

/** Milliseconds since the Unix epoch of an ISO time, or undefined when it does not parse. */
export function parseTime(iso: string): number | undefined {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : undefined;
}

/** Milliseconds of an ISO time that the schema has already validated. */
export function timeOf(iso: string): number {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) throw new RangeError(`not a time: ${iso}`);
  return ms;
}

// YYYY-MM-DDTHH:mm:ss.sssZ, what toISOString prints for years 0-9999: such strings sort in time order.
const CANONICAL_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * The later of a stored time and an event's time (`iso` from toISOString, `ms`), as the stored
 * string or `iso`. Two canonical UTC strings compare as text; anything else by its instant.
 */
export function laterTime(stored: string, iso: string, ms: number): string {
  if (iso.length === 24 && CANONICAL_UTC.test(stored)) return stored > iso ? stored : iso;
  const before = parseTime(stored);
  return before !== undefined && before > ms ? stored : iso;
}

/** The UTC weekday of an instant as written in rule documents ("mon" .. "sun"). */
export function weekdayOf(ms: number): (typeof WEEKDAYS)[number] {
  // getUTCDay counts from Sunday = 0; WEEKDAYS starts at Monday.
  const day = WEEKDAYS[(new Date(ms).getUTCDay() + 6) % 7];
  if (day === undefined) throw new RangeError("weekday out of range");
  return day;
}

/** True when the instant falls inside a recurring window (all in UTC; hours may wrap past midnight). */
export function inRecurringWindow(ms: number, window: RecurringWindow): boolean {
  if (window.days && !window.days.includes(weekdayOf(ms))) return false;
  if (window.hours) {
    const h = new Date(ms).getUTCHours();
    const { from, to } = window.hours;
    const inside = from < to ? h >= from && h < to : h >= from || h < to;
    if (!inside) return false;
  }
  return true;
}

/** The key of the cap period an instant falls in: the UTC day, the Monday of its ISO week, the month, or "all". */
export function periodKey(period: CapPeriod, ms: number): string {
  const d = new Date(ms);
  switch (period) {
    case "day":
      return d.toISOString().slice(0, 10);
    case "week": {
      const monday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * 86_400_000;
      return new Date(monday).toISOString().slice(0, 10);
    }
    case "month":
      return d.toISOString().slice(0, 7);
    case "campaign":
      return "all";
  }
}
