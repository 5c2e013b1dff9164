// Runs the engine over a batch slice by slice and queues its writes; shared by the apply and recompute stages.
import type { StatementQueue, Transaction } from "@pointwise/db";
import {
  type ApplyResult,
  applyEvents,
  type CampaignState,
  type CampaignWindow,
  combineScoreDeltas,
  needsGlobalOrder,
  type RawEvent,
  type RuleVersion,
  type UserState,
} from "@pointwise/rules";
import { loadState, queueLedger, queueScores, queueStates, type StoredState, type Target } from "./result-store";

/** Events per engine call and per ledger statement within one batch. */
export const SLICE = 2500;

/**
 * Runs the engine over one batch in consecutive slices, carrying every user's state (and the
 * campaign's) from slice to slice. The combined result is what one engine call over the whole batch
 * returns: the engine gives the same entries and state however a log is cut (its property tests),
 * and combineScoreDeltas adds the slices' deltas up to the whole batch's.
 */
export class BatchScoring {
  private readonly users: Record<string, UserState>;
  private campaign: CampaignState | null;
  private readonly parts: ApplyResult[] = [];

  constructor(
    private readonly rules: RuleVersion,
    stored: StoredState,
    private readonly window: CampaignWindow | null = null,
  ) {
    this.users = { ...stored.users };
    this.campaign = stored.campaign;
  }

  /** Scores the next slice of the batch (ascending seq, after every slice before it). */
  apply(events: readonly RawEvent[]): ApplyResult {
    const part = applyEvents({ rules: this.rules, events, users: this.users, campaign: this.campaign, campaignWindow: this.window });
    for (const [userId, state] of Object.entries(part.users)) this.users[userId] = state;
    this.campaign = part.campaign;
    this.parts.push(part);
    return part;
  }

  /** The result of the whole batch, or null when no slice was scored. */
  result(): ApplyResult | null {
    const last = this.parts.at(-1);
    if (!last) return null;
    if (this.parts.length === 1) return last;
    const users: Record<string, UserState> = {};
    for (const part of this.parts) for (const [userId, state] of Object.entries(part.users)) users[userId] = state;
    return {
      entries: this.parts.flatMap((p) => p.entries),
      users,
      campaign: last.campaign,
      scoreDeltas: combineScoreDeltas(this.parts.map((p) => p.scoreDeltas)),
      skipped: this.parts.flatMap((p) => p.skipped),
      rejected: this.parts.flatMap((p) => p.rejected),
      outsideCampaign: this.parts.flatMap((p) => p.outsideCampaign),
    };
  }
}

const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Scores a batch slice by slice as its events become available and queues the writes: each slice's
 * ledger entries as soon as it is scored (PostgreSQL inserts them while the next slice is scored),
 * then one score upsert and one state upsert for the whole batch, so a user with several events in
 * the batch costs one row write, not one per event.
 */
export async function scoreInSlices(
  p: StatementQueue,
  t: Target,
  rules: RuleVersion,
  stored: StoredState,
  slices: readonly (Promise<readonly RawEvent[]> | readonly RawEvent[])[],
  window: CampaignWindow | null = null,
): Promise<ApplyResult | null> {
  const scoring = new BatchScoring(rules, stored, window);
  for (const slice of slices) {
    const events = await slice;
    if (events.length === 0) continue;
    queueLedger(p, t, rules, scoring.apply(events).entries);
    // A statement that finished while the engine ran is followed by the next queued one only once
    // the event loop gets a turn; give it one before scoring the next slice.
    await yieldToIo();
  }
  const result = scoring.result();
  if (result) {
    queueScores(p, t, result);
    queueStates(p, t, rules, result);
  }
  return result;
}

/** Cuts a list into consecutive slices of at most `size`. */
export function slicesOf<T>(items: readonly T[], size = SLICE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Runs the engine over events (ascending seq) with the target's stored state and writes what it
 * returns (ledger entries, score deltas, user and campaign state) in the caller's transaction.
 * Events already covered by a user's state are skipped by the engine, so repeating a batch is harmless.
 */
export async function scoreEvents(
  tx: Transaction,
  t: Target,
  rules: RuleVersion,
  events: readonly RawEvent[],
  options: { sliceSize?: number; window?: CampaignWindow | null } = {},
): Promise<ApplyResult | null> {
  if (events.length === 0) return null;
  return tx.queue(async (p) => {
    const stored = await loadState(p, t, [...new Set(events.map((e) => e.userId))], needsGlobalOrder(rules));
    return scoreInSlices(p, t, rules, stored, slicesOf(events, options.sliceSize), options.window ?? null);
  });
}
