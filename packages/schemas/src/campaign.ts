// Wire formats of campaign ids, currency keys and names, and UUIDs shared by every service.
import { z } from "zod";

/** Campaign (season) id: two groups of four lowercase letters or digits, e.g. `ab12-cd34`. */
export const CAMPAIGN_ID_PATTERN = /^[a-z0-9]{4}-[a-z0-9]{4}$/;

/** Zod schema of a campaign id. */
export const campaignIdSchema = z.string().regex(CAMPAIGN_ID_PATTERN, "campaign_id must have the format xxxx-xxxx (lowercase letters and digits)");

/** True when `value` is a well-formed campaign id. */
export function isCampaignId(value: unknown): value is string {
  return typeof value === "string" && CAMPAIGN_ID_PATTERN.test(value);
}

/** A currency key: lowercase identifier such as `xp` or `gems`. */
export const currencyKeySchema = z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, "currency key must be a lowercase identifier of at most 32 characters");

/** Map from currency key to display name, at least one entry. */
export const currencyNamesSchema = z
  .record(currencyKeySchema, z.string().min(1).max(64))
  .refine((m) => Object.keys(m).length >= 1, "currencies must name at least one currency");

/** Canonical lowercase UUID (any version), as used for reg_event_id and user ids. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
