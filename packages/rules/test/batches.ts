// Test support for the engine: applies a log batch by batch as the worker does, with optional redeliveries.
import {
  applyEvents,
  type CampaignState,
  type CampaignWindow,
  type LedgerEntry,
  mergeScoreDeltas,
  type OutsideCampaignEvent,
  type RawEvent,
  type RuleVersion,
  type ScoreRow,
  type UserState,
} from "../src/index";

/** What applying a log batch by batch leaves behind: score rows, every ledger entry and the stored states. */
export interface Applied {
  rows: ScoreRow[];
  entries: LedgerEntry[];
  users: Record<string, UserState>;
  campaign: CampaignState | null;
  /** Events the campaign window kept out, in the order they were met. */
  outsideCampaign: OutsideCampaignEvent[];
}

/** Cuts a list at the given ascending positions into consecutive non-empty slices. */
function slices<T>(items: readonly T[], cuts: readonly number[]): T[][] {
  const out: T[][] = [];
  let from = 0;
  for (const cut of [...cuts, items.length]) {
    if (cut > from) out.push(items.slice(from, cut));
    from = cut;
  }
  return out;
}

/** What else applyInBatches may be given: the campaign window, and what was applied before `events`. */
export interface BatchOptions {
  campaignWindow?: CampaignWindow | null;
  /** Rows, entries and stored states left by applying the log before `events` (default: nothing). */
  after?: Applied;
}

/**
 * Applies a log the way the worker does: batch by batch, state stored as JSON between batches,
 * score rows updated only through deltas; `redeliver` re-sends already applied events with a batch.
 */
export function applyInBatches(rv: RuleVersion, events: readonly RawEvent[], cuts: number[], redeliver: boolean[] = [], options: BatchOptions = {}): Applied {
  const before = options.after;
  const store: { users: Record<string, UserState>; campaign: CampaignState | null } = {
    users: { ...before?.users },
    campaign: before?.campaign ?? null,
  };
  let rows: ScoreRow[] = before ? [...before.rows] : [];
  const entries: LedgerEntry[] = before ? [...before.entries] : [];
  const outsideCampaign: OutsideCampaignEvent[] = before ? [...before.outsideCampaign] : [];
  let applied = 0;
  const batches = slices(events, cuts);
  if (batches.length === 0) batches.push([]); // an empty log is still one (empty) batch
  for (const fresh of batches) {
    const again = events.slice(0, applied).filter((_, i) => redeliver[i]);
    const batch = [...again, ...fresh].sort((a, b) => Number(BigInt(a.seq) - BigInt(b.seq)));
    const users: Record<string, UserState> = {};
    for (const e of batch) if (Object.hasOwn(store.users, e.userId)) users[e.userId] = store.users[e.userId] as UserState;
    const loaded = JSON.parse(JSON.stringify({ users, campaign: store.campaign }));
    const r = applyEvents({ rules: rv, events: batch, users: loaded.users, campaign: loaded.campaign, campaignWindow: options.campaignWindow });
    Object.assign(store.users, JSON.parse(JSON.stringify(r.users)));
    store.campaign = r.campaign;
    rows = mergeScoreDeltas(rows, r.scoreDeltas);
    entries.push(...r.entries);
    outsideCampaign.push(...r.outsideCampaign);
    applied += fresh.length;
  }
  return { rows, entries, users: store.users, campaign: store.campaign, outsideCampaign };
}
