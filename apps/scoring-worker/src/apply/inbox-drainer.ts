// The applier: drains the inbox campaign by campaign, isolates a failing event by halving batches, and holds back campaigns on system failures.
import type { Database } from "@pointwise/db";
import type { Logger } from "@pointwise/logger";
import { describeFailure, isEventSpecific, isTransient } from "../failures";
import { campaignsWaiting, nextInboxRows, recordApplyFailure } from "../intake/inbox";
import type { RuleVersionCache } from "../scoring/rule-version-cache";
import { applyInboxBatch, type BatchOutcome } from "./apply-batch";

/** What the applier needs. */
export interface ApplierDeps {
  db: Database;
  logger: Logger;
  rules: RuleVersionCache;
  stream: string;
  /** Inbox rows per apply transaction. */
  batchSize: number;
  /** Events per engine call and per log and ledger statement within a transaction (default SLICE). */
  sliceSize?: number;
  /** Failed attempts after which an inbox row goes to the dead-letter table. */
  maxAttempts: number;
  /** First delay before a held-back campaign is tried again; it doubles up to 30 s. */
  retryDelayMs: number;
  /** The stream seq up to which every message has been staged (the consumer's ack floor). */
  floor(): Promise<number>;
  /** Called after each committed batch that logged something. */
  onApplied?(campaignId: string, outcome: Extract<BatchOutcome, { status: "applied" }>): void;
  /** Called when an event that could not be applied went to the dead-letter table. */
  onDeadLetter?(): void;
  /** Called after each pass with the number of campaigns held back by a failure that is not about one event. */
  onHeld?(count: number): void;
  /**
   * True once the worker is stopping: the applier starts no other transaction after the one in flight commits.
   * What is left stays staged in the inbox for the next pass of any replica.
   */
  stopping?(): boolean;
}

/** Moves staged events from the inbox into the log and the scores, campaign by campaign. */
export interface Applier {
  /** Applies everything staged at or below the current floor; returns the number of inbox rows consumed. */
  runOnce(): Promise<number>;
  /** Applies one campaign's rows at or below `floor` until none are left, another replica holds it or the worker stops. */
  drainCampaign(campaignId: string, floor: number): Promise<number>;
}

/** Creates an applier over the inbox of one stream. */
export function createApplier(deps: ApplierDeps): Applier {
  const { db, logger, stream } = deps;

  async function drainCampaign(campaignId: string, floor: number): Promise<number> {
    let consumed = 0;
    // After a batch fails for a reason that will repeat, its rows are retried in halves until the
    // failing row is alone: the rows before it are applied in order, and the failing one is charged
    // an attempt (and dead-lettered once it has failed maxAttempts times). `suspect` counts the rows
    // of the failed batch not yet applied; full batches resume once the failing row is gone. Halving
    // finds the row in a few transactions where going one row at a time through a batch of
    // thousands would take minutes.
    let suspect = 0;
    let limit = deps.batchSize;
    for (;;) {
      if (deps.stopping?.()) return consumed;
      // Read the head row first when it is alone, so a failure is charged to the row that failed.
      const [head] = limit === 1 ? await nextInboxRows(db, stream, campaignId, floor, 1) : [];
      let outcome: BatchOutcome;
      try {
        outcome = await applyInboxBatch({ db, rules: deps.rules, stream, campaignId, floor, limit, sliceSize: deps.sliceSize });
      } catch (err) {
        // Not about this event: hold the campaign back (runOnce retries it later) rather than dead-letter.
        if (!isEventSpecific(err)) throw err;
        if (!head) {
          logger.warn({ campaign_id: campaignId, rows: limit, err }, "apply batch failed; retrying its rows in smaller batches");
          if (suspect <= 0) suspect = limit;
          limit = Math.ceil(limit / 2);
          continue;
        }
        const error = describeFailure(err);
        const dead = await recordApplyFailure(db, stream, head, error, deps.maxAttempts);
        const fields = { campaign_id: campaignId, stream_seq: head.streamSeq, event_id: head.eventId, attempts: head.attempts + 1, error };
        if (dead) {
          deps.onDeadLetter?.();
          logger.error(fields, "event dead-lettered");
          consumed++;
          // The failing row is gone; another one in the rest of the batch fails a full batch again.
          suspect = 0;
          limit = deps.batchSize;
        } else {
          logger.warn(fields, "applying an event failed; retrying");
        }
        continue;
      }
      if (outcome.status !== "applied") return consumed;
      consumed += outcome.rows;
      if (suspect > 0) {
        suspect -= outcome.rows;
        if (suspect <= 0) limit = deps.batchSize;
      }
      deps.onApplied?.(campaignId, outcome);
    }
  }

  // Campaigns held back by a failure that is not about one event, and when to try them again.
  const backoff = new Map<string, { until: number; delay: number }>();
  const MAX_BACKOFF_MS = 30_000;

  return {
    drainCampaign,
    async runOnce() {
      const floor = await deps.floor();
      let consumed = 0;
      const waiting = await campaignsWaiting(db, stream, floor);
      // A campaign with nothing left to apply (its rows went another way) is no longer held.
      const stillWaiting = new Set(waiting);
      for (const campaignId of backoff.keys()) if (!stillWaiting.has(campaignId)) backoff.delete(campaignId);
      for (const campaignId of waiting) {
        if (deps.stopping?.()) break;
        const held = backoff.get(campaignId);
        if (held && held.until > Date.now()) continue;
        try {
          consumed += await drainCampaign(campaignId, floor);
          backoff.delete(campaignId);
        } catch (err) {
          const delay = Math.min(MAX_BACKOFF_MS, held ? held.delay * 2 : deps.retryDelayMs);
          backoff.set(campaignId, { until: Date.now() + delay, delay });
          const fields = { campaign_id: campaignId, err, retry_in_ms: delay };
          if (isTransient(err)) logger.warn(fields, "applying failed; retrying");
          else logger.error(fields, "applying failed for a reason that is not about one event; the campaign's events wait");
        }
      }
      deps.onHeld?.(backoff.size);
      return consumed;
    },
  };
}
