// The campaign's dates as the engine sees them: an event outside [startsAt, endsAt) earns nothing.
import { ValidationError } from "@pointwise/errors";
import { parseTime } from "./time";

/**
 * The campaign's start and end (ISO 8601 times; null means open on that side). An event whose
 * occurredAt is before `startsAt` or at or after `endsAt` earns nothing and changes no progress.
 */
export interface CampaignWindow {
  startsAt: string | null;
  endsAt: string | null;
}

/** A campaign window as epoch milliseconds: events with from <= ms < until are inside. */
export interface CompiledWindow {
  from: number;
  until: number;
}

function fail(message: string, field: string): never {
  throw new ValidationError(message, { field, code: "campaign-window-invalid" });
}

function bound(value: unknown, field: string, open: number): number {
  if (value === null) return open;
  if (typeof value !== "string") fail(`${field} must be an ISO 8601 time or null`, field);
  const ms = parseTime(value);
  if (ms === undefined) fail(`${field} must be an ISO 8601 time or null, got "${value.slice(0, 40)}"`, field);
  return ms;
}

/**
 * Checks a campaign window and turns it into milliseconds; undefined when there is none (every
 * event is inside). Throws ValidationError `campaign-window-invalid` naming the bad field.
 */
export function compileWindow(window: CampaignWindow | null | undefined): CompiledWindow | undefined {
  if (window === undefined || window === null) return undefined;
  if (typeof window !== "object") fail("campaignWindow must be an object { startsAt, endsAt } or null", "campaignWindow");
  const from = bound(window.startsAt, "campaignWindow.startsAt", Number.NEGATIVE_INFINITY);
  const until = bound(window.endsAt, "campaignWindow.endsAt", Number.POSITIVE_INFINITY);
  if (until <= from) fail("campaignWindow.endsAt must be later than campaignWindow.startsAt", "campaignWindow.endsAt");
  if (from === Number.NEGATIVE_INFINITY && until === Number.POSITIVE_INFINITY) return undefined;
  return { from, until };
}
