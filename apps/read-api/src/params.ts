// Parses and bounds the read API's query and path parameters into 400s that name the parameter.
import { ValidationError } from "@pointwise/errors";
import { isCampaignId, UUID_PATTERN } from "@pointwise/schemas";

/** Default and bounds of the leaderboard `limit`. */
export const LIMIT = { default: 100, min: 1, max: 1000 } as const;
/** Default and bounds of the around-me `n` (neighbours on each side). */
export const NEIGHBOURS = { default: 5, min: 0, max: 100 } as const;

/** A query parameter given more than once (`?limit=1&limit=2`) arrives as an array; say so rather than that its value is malformed. */
function once(raw: unknown, name: string, code: string): void {
  if (raw !== undefined && typeof raw !== "string") throw new ValidationError(`${name} must be given once, as a single value`, { field: name, code });
}

function wholeNumber(raw: unknown, name: string, bounds: { default: number; min: number; max: number }): number {
  if (raw === undefined) return bounds.default;
  once(raw, name, `invalid-${name}`);
  const message = `${name} must be a whole number from ${bounds.min} to ${bounds.max}`;
  if (typeof raw !== "string" || !/^\d{1,7}$/.test(raw)) throw new ValidationError(message, { field: name, code: `invalid-${name}` });
  const value = Number(raw);
  if (value < bounds.min || value > bounds.max) throw new ValidationError(message, { field: name, code: `invalid-${name}` });
  return value;
}

/** Parses `limit`: absent means 100; otherwise a whole number from 1 to 1000 (400 `invalid-limit`). */
export function parseLimit(raw: unknown): number {
  return wholeNumber(raw, "limit", LIMIT);
}

/** Parses the around-me `n`: absent means 5; otherwise a whole number from 0 to 100 (400 `invalid-n`). */
export function parseNeighbours(raw: unknown): number {
  return wholeNumber(raw, "n", NEIGHBOURS);
}

/** Parses `campaign_id`: required (400 `missing-campaign-id`), format xxxx-xxxx (400 `invalid-campaign-id`). */
export function parseCampaignId(raw: unknown): string {
  if (raw === undefined || raw === "") throw new ValidationError("campaign_id is required", { field: "campaign_id", code: "missing-campaign-id" });
  once(raw, "campaign_id", "invalid-campaign-id");
  if (!isCampaignId(raw)) {
    throw new ValidationError("campaign_id must have the format xxxx-xxxx (lowercase letters and digits)", {
      field: "campaign_id",
      code: "invalid-campaign-id",
    });
  }
  return raw;
}

/** The 400 `invalid-user-id` of a path `user_id` that is not a uuid, or not even valid percent-encoding. */
export function invalidUserId(): ValidationError {
  return new ValidationError("user_id must be a uuid", { field: "user_id", code: "invalid-user-id" });
}

/** Parses a path `user_id`: a uuid in any case, returned lower-cased (400 `invalid-user-id`). */
export function parseUserId(raw: unknown): string {
  if (typeof raw !== "string" || !UUID_PATTERN.test(raw)) throw invalidUserId();
  return raw.toLowerCase();
}
