// One apply transaction: a campaign's next inbox rows into the event log, the engine and the score tables, all or nothing.
import { type Database, excludedUsers, readCampaignWindow } from "@pointwise/db";
import { type ApplyResult, needsGlobalOrder, type RawEvent, withoutExcluded } from "@pointwise/rules";
import { type InboxRow, nextInboxRows, removeInboxRows } from "../intake/inbox";
import { loadState, type Target } from "../scoring/result-store";
import type { RuleVersionCache } from "../scoring/rule-version-cache";
import { scoreInSlices, slicesOf } from "../scoring/score-slices";
import { appendToLog, resolveUsers } from "./event-log";

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
  db: Database;
  rules: RuleVersionCache;
  stream: string;
  campaignId: string;
  /** Only inbox rows at or below this stream seq are applied (everything below it has been staged). */
  floor: number;
  limit: number;
  /** Events per engine call and per log and ledger statement (default SLICE). */
  sliceSize?: number;
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
  const { campaignId, stream } = input;
  return input.db.transaction(async (tx) => {
    // Whoever holds the campaign's apply lock is the only writer of its log, scores and state, so its
    // events are logged and applied in one order; another replica holding it means skip the campaign.
    if (!(await tx.tryLockCampaign("apply", campaignId))) return { status: "busy" };
    // Statements that do not depend on each other are queued together, and documents are
    // serialised while PostgreSQL runs the statement before (see StatementQueue).
    return tx.queue<BatchOutcome>(async (p) => {
      const nextRows = p.track(nextInboxRows(p, stream, campaignId, input.floor, input.limit));
      const activeRules = p.track(input.rules.active(p, campaignId));
      const window = p.track(readCampaignWindow(p, campaignId));
      const rows = await nextRows;
      if (rows.length === 0) return { status: "empty" };
      const unique = firstOccurrences(rows);
      const users = await resolveUsers(p, campaignId, unique);
      const rules = await activeRules;
      // Excluded users (and referrers) of the batch: their events are logged but earn nothing.
      const excluded = rules ? p.track(excludedUsers(p, campaignId, [...new Set(users.values())])) : null;
      const target: Target = { kind: "live", campaignId };
      // Every user of the batch: a superset of those whose events turn out new to the log, and known before the log answers.
      const stored = rules ? p.track(loadState(p, target, [...new Set(users.values())], needsGlobalOrder(rules))) : null;
      // The log insert goes in slices, each gets its seqs in order; slice k is scored while slice k+1 is inserted.
      // A slice's probe is queued once the slice before it has queued its COPY, so each COPY reaches
      // PostgreSQL right behind its own probe, while the engine runs, rather than behind every later
      // probe (which left all the copying for after the engine's last slice).
      const appended: Promise<RawEvent[]>[] = [];
      let previous: Promise<unknown> = Promise.resolve();
      for (const slice of slicesOf(unique, input.sliceSize)) {
        const next = previous.then(() => appendToLog(p, campaignId, slice, users));
        appended.push(p.track(next));
        previous = next;
      }
      p.track(previous.then(() => removeInboxRows(p, stream, campaignId, rows[0]?.streamSeq as string, rows.at(-1)?.streamSeq as string)));
      const scored = excluded ? appended.map((slice) => p.track(Promise.all([slice, excluded]).then(([events, ex]) => withoutExcluded(events, ex)))) : appended;
      const result = rules && stored ? await scoreInSlices(p, target, rules, await stored, scored, await window) : null;
      const logged: RawEvent[] = [];
      for (const slice of appended) for (const e of await slice) logged.push(e);
      return { status: "applied", rows: rows.length, logged, result, ruleVersion: rules?.version ?? null };
    });
  });
}
