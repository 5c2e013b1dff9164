// The raw-event message ingest publishes on the bus and the scoring worker consumes (version 1).
import { z } from "zod";
import { MAX_AMOUNT_SCALE } from "./amount";
import { IDENTITY_TYPES } from "./identity";

// The same limit ingest applies to amounts (parseAmount), so every event ingest accepts travels.
const BUS_AMOUNT = new RegExp(`^\\d+(\\.\\d{1,${MAX_AMOUNT_SCALE}})?$`);

/** Where an event entered the service. */
export const EVENT_SOURCES = ["api", "batch", "csv", "indexer"] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

/**
 * The raw event as it travels on the bus from ingest to the scoring worker (version 1).
 * Already validated and normalised by ingest; the worker re-checks the shape before applying it.
 */
export const rawEventMessageSchema = z
  .object({
    v: z.literal(1),
    event_id: z.uuid(),
    campaign_id: z.string(),
    reg_event_id: z.uuid(),
    identity_type: z.enum(IDENTITY_TYPES),
    account_id: z.string().min(1),
    // The log keeps NUMERIC(48,18) and TIMESTAMPTZ(3): finer amounts or times than that would be
    // rounded there, and the worker scores exactly what the log holds (as ingest's own rules allow).
    amount: z.string().regex(BUS_AMOUNT, `amount must be a decimal with at most ${MAX_AMOUNT_SCALE} digits after the point`),
    received_at: z.iso.datetime().regex(/:\d{2}(\.\d{1,3})?Z$/, "received_at must be UTC with at most millisecond precision"),
    source: z.enum(EVENT_SOURCES),
  })
  .strict();

/** A raw event message on the bus. */
export type RawEventMessage = z.infer<typeof rawEventMessageSchema>;
