// The raw-event message ingest publishes on the bus and the scoring worker consumes (versions 1 and 2).
import { z } from "zod";
import { MAX_AMOUNT_SCALE } from "./amount";
import { CAMPAIGN_ID_PATTERN } from "./campaign";
import { IDENTITY_TYPES } from "./identity";

// The same limit ingest applies to amounts (parseAmount), so every event ingest accepts travels.
const BUS_AMOUNT = new RegExp(`^\\d+(\\.\\d{1,${MAX_AMOUNT_SCALE}})?$`);

/** Where an event entered the service. */
export const EVENT_SOURCES = ["api", "batch", "csv", "indexer"] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

// Stryker disable next-line Regex: z.iso.datetime() already refuses text before or after the time; the pattern only limits its decimals
const UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const utcTime = (field: string) => z.iso.datetime().regex(UTC_MS, `${field} must be UTC with at most millisecond precision`);

/**
 * The longest account id a message may carry: longer than any ingest accepts (an e-mail address, at most 254 code
 * points, is the longest), short enough for PostgreSQL's index on identities (about 2,700 bytes a key): a longer one
 * would fail on that index every time, and is refused as undecodable instead.
 */
export const MAX_BUS_ACCOUNT_ID_LENGTH = 512;

/**
 * The raw event as it travels on the bus from ingest to the scoring worker. Already validated and
 * normalised by ingest; the worker re-checks the shape before applying it.
 *
 * Version 2 adds `occurred_at`, when the activity happened (the client's event time, or the time
 * received); ingest publishes version 2 only. Version 1 (no `occurred_at`: it happened when received)
 * is still accepted, so messages published before an upgrade are scored as they were meant.
 */
export const rawEventMessageSchema = z
  .object({
    v: z.union([z.literal(1), z.literal(2)]),
    event_id: z.uuid(),
    campaign_id: z.string().regex(CAMPAIGN_ID_PATTERN, "campaign_id must be a campaign id (xxxx-xxxx)"),
    reg_event_id: z.uuid(),
    identity_type: z.enum(IDENTITY_TYPES),
    account_id: z
      .string()
      .min(1, "account_id must not be empty")
      .max(MAX_BUS_ACCOUNT_ID_LENGTH, `account_id must be at most ${MAX_BUS_ACCOUNT_ID_LENGTH} characters`),
    // The log keeps NUMERIC(48,18) and TIMESTAMPTZ(3): finer amounts or times than that would be
    // rounded there, and the worker scores exactly what the log holds (as ingest's own rules allow).
    amount: z.string().regex(BUS_AMOUNT, `amount must be a decimal with at most ${MAX_AMOUNT_SCALE} digits after the point`),
    received_at: utcTime("received_at"),
    occurred_at: utcTime("occurred_at").optional(),
    source: z.enum(EVENT_SOURCES),
  })
  .strict()
  .superRefine((m, ctx) => {
    if (m.v === 2 && m.occurred_at === undefined) ctx.addIssue({ code: "custom", path: ["occurred_at"], message: "occurred_at is required in version 2" });
    if (m.v === 1 && m.occurred_at !== undefined) ctx.addIssue({ code: "custom", path: ["occurred_at"], message: "occurred_at is not part of version 1" });
  });

/** A raw event message on the bus (version 1 has no `occurred_at`: the event happened when received). */
export type RawEventMessage = z.infer<typeof rawEventMessageSchema>;

/** When the event of a message happened: its `occurred_at`, or for a version-1 message the time received. */
export function occurredAtOf(message: Pick<RawEventMessage, "occurred_at" | "received_at">): string {
  return message.occurred_at ?? message.received_at;
}
