import type { ApplyResult, RawEvent } from "@pointwise/rules";
import type { Pool } from "pg";
import { type InboxRow, nextInboxRows, removeInboxRows } from "./inbox";
import { tryLockCampaign } from "./locks";
import { appendToLog, resolveUsers } from "./log";
import type { RuleVersionCache } from "./rules";
import { scoreEvents } from "./store";
import { withTransaction } from "./tx";

/** What one apply transaction did for one campaign. */
export type BatchOutcome =
  | { status: "busy" }
  | { status: "empty" }
  | {
      status: "applied";
      /** Inbox rows consumed (including repeats of events already in the log). */
      rows: number;
      /** Events new to the log, ascending seq. */
      logged: RawEvent[];
      /** The engine's result, or null when no rule version is active. */
      result: ApplyResult | null;
      ruleVersion: number | null;
    };

/** What applying one batch needs. */
export interface BatchInput {
  pool: Pool;
  rules: RuleVersionCache;
  stream: string;
  campaignId: string;
  /** Only inbox rows at or below this stream seq are applied (everything below it has been staged). */
  floor: number;
  limit: number;
}

/** The first occurrence of each event id; a repeat (a publisher retry) is dropped. */
function firstOccurrences(rows: readonly InboxRow[]): InboxRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    if (seen.has(r.eventId)) return false;
    seen.add(r.eventId);
    return true;
  });
}

/**
 * Applies the campaign's next inbox rows in one transaction: under the campaign's apply lock it
 * resolves identities, appends the events to the log in stream order (each gets its seq there), runs
 * the engine with the stored state, writes ledger, scores and state, and removes the rows from the
 * inbox. Either all of it commits or none of it does, so a crash at any point loses and repeats nothing.
 */
export async function applyInboxBatch(input: BatchInput): Promise<BatchOutcome> {
  return withTransaction(input.pool, async (client) => {
    if (!(await tryLockCampaign(client, input.campaignId))) return { status: "busy" };
    const rows = await nextInboxRows(client, input.stream, input.campaignId, input.floor, input.limit);
    if (rows.length === 0) return { status: "empty" };
    const unique = firstOccurrences(rows);
    const users = await resolveUsers(client, input.campaignId, unique);
    const logged = await appendToLog(client, input.campaignId, unique, users);
    const rules = await input.rules.active(client, input.campaignId);
    const result = rules ? await scoreEvents(client, { kind: "live", campaignId: input.campaignId }, rules, logged) : null;
    await removeInboxRows(
      client,
      input.stream,
      rows.map((r) => r.streamSeq),
    );
    return { status: "applied", rows: rows.length, logged, result, ruleVersion: rules?.version ?? null };
  });
}
