// Reads for the dashboard: what a dry run replays (a campaign's bounded log, dates, exclusions, adjustments), and how users are labelled.
import type { Queryable } from "@pointwise/db";
import { type ActiveRuleVersion, activeRuleVersion, excludedUsers, readAdjustments, readCampaignLog, readCampaignWindow } from "@pointwise/db";
import { ConflictError } from "@pointwise/errors";
import type { Adjustment, CampaignWindow, RawEvent } from "@pointwise/rules";

/**
 * Reads a whole campaign's event log for a dry run, the way the scoring worker replays it (see
 * `readCampaignLog`). Refuses logs longer than `maxEvents`: the caller holds them in memory.
 */
export async function readDryRunLog(pool: Queryable, campaignId: string, maxEvents: number): Promise<RawEvent[]> {
  // One read that stops one event past the limit: it both refuses a long log and bounds the memory.
  const events = await readCampaignLog(pool, campaignId, { limit: maxEvents + 1 });
  if (events.length > maxEvents) {
    throw new ConflictError("log-too-large", `the campaign log has more than ${maxEvents} events; a dry run replays at most ${maxEvents} (DRY_RUN_MAX_EVENTS)`);
  }
  return events;
}

/** Everything besides the rule versions that a recompute reads, so a dry run computes what it would serve. */
export interface DryRunReads {
  /** The active rule version as stored (its number and document), or null when none is active. */
  active: ActiveRuleVersion | null;
  events: RawEvent[];
  campaignWindow: CampaignWindow;
  excludedUsers: Set<string>;
  adjustments: Adjustment[];
}

/**
 * Reads what the scoring worker's recompute reads (the same functions of `@pointwise/db`): the log,
 * the campaign's dates, its excluded users and its adjustments, with the active version. Run it in
 * one repeatable-read transaction: a recompute switches all of them in at once, so one snapshot
 * gives the "before" that is served now.
 */
export async function readDryRunInputs(q: Queryable, campaignId: string, maxEvents: number): Promise<DryRunReads> {
  return {
    active: await activeRuleVersion(q, campaignId),
    events: await readDryRunLog(q, campaignId, maxEvents),
    campaignWindow: await readCampaignWindow(q, campaignId),
    excludedUsers: await excludedUsers(q, campaignId),
    adjustments: await readAdjustments(q, campaignId),
  };
}

/** How the dashboard names a user: the name they set, else their first identity. */
export interface UserLabel {
  display_name: string | null;
  identity: { identity_type: string; account_id: string; handle: string | null } | null;
}

/** Looks up labels for users of one campaign (operators may see identities; the public board never does). */
export async function userLabels(pool: Queryable, campaignId: string, userIds: readonly string[]): Promise<Map<string, UserLabel>> {
  if (userIds.length === 0) return new Map();
  const { rows } = await pool.query<{
    id: string;
    display_name: string | null;
    identity_type: string | null;
    account_id: string | null;
    handle: string | null;
  }>(
    `SELECT u.id, u.display_name, i.identity_type, i.account_id, i.handle
       FROM app_user u
       LEFT JOIN LATERAL (SELECT identity_type, account_id, handle FROM identity WHERE user_id = u.id ORDER BY created_at, id LIMIT 1) i ON true
      WHERE u.campaign_id = $1 AND u.id = ANY($2::uuid[])`,
    [campaignId, [...userIds]],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        display_name: r.display_name,
        identity: r.identity_type && r.account_id ? { identity_type: r.identity_type, account_id: r.account_id, handle: r.handle } : null,
      },
    ]),
  );
}
