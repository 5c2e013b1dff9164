// The campaign's dates as the engine's window: events outside [starts_at, ends_at) earn nothing.
import type { Queryable } from "./statement-queue";

/** A campaign's [startsAt, endsAt) as ISO 8601 times, null where open: the rules engine's CampaignWindow. */
export interface CampaignDates {
  startsAt: string | null;
  endsAt: string | null;
}

/**
 * The campaign's current [starts_at, ends_at) window (null sides are open; an unknown campaign is
 * open on both). The scoring worker reads it per batch and per recompute job (a change of the dates
 * queues a recompute, which replays the log under the new dates), and a dry run reads it to replay as they do.
 */
export async function readCampaignWindow(db: Queryable, campaignId: string): Promise<CampaignDates> {
  const { rows } = await db.query<{ starts_at: Date | null; ends_at: Date | null }>("SELECT starts_at, ends_at FROM campaign WHERE id = $1", [campaignId]);
  const row = rows[0];
  return { startsAt: row?.starts_at?.toISOString() ?? null, endsAt: row?.ends_at?.toISOString() ?? null };
}
