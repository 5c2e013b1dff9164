// Score rows and the additive, order-independent deltas one engine call makes to them.
import { FIXED_ZERO, type Fixed, fx } from "@pointwise/fixed";
import { D, dec, str } from "./decimal";

/**
 * A change to one score row (campaign, user, currency). score, referralScore and lifetime are
 * amounts to ADD (exact decimals, so additions commute); tier, when present, is the user's new tier
 * and replaces the stored one (absent means keep it); reachedAt is the latest time points were
 * paid into the row in this batch and is merged with GREATEST (so it commutes too).
 */
export interface ScoreDelta {
  userId: string;
  currency: string;
  /** Added to score (stored, decay-scaled representation). */
  score: string;
  /** Added to referral_score (stored, decay-scaled representation). */
  referralScore: string;
  /** Added to lifetime (undecayed own points). */
  lifetime: string;
  tier?: string | null;
  /** ISO time (UTC, milliseconds) of the latest award paid into this row in this batch. */
  reachedAt: string;
}

/**
 * A score row as the read side stores it: score and referralScore in the stored representation
 * (see decayedValue), total = score + referralScore, lifetime = undecayed sum of own paid points.
 */
export interface ScoreRow {
  userId: string;
  currency: string;
  score: string;
  referralScore: string;
  total: string;
  lifetime: string;
  tier: string | null;
  /** When the total last grew (the latest occurredAt of a paid award); null for a row never paid into. */
  reachedAt: string | null;
}

interface Acc {
  userId: string;
  currency: string;
  score: Fixed;
  referralScore: Fixed;
  lifetime: Fixed;
  tier: string | null | undefined;
  reachedAt: string;
}

const SEP = "\u0000";

/** Collects the score changes of one engine call, one entry per (user, currency). */
export class DeltaBook {
  private readonly map = new Map<string, Acc>();

  private at(userId: string, currency: string): Acc {
    const k = `${userId}${SEP}${currency}`;
    let acc = this.map.get(k);
    if (!acc) {
      acc = { userId, currency, score: FIXED_ZERO, referralScore: FIXED_ZERO, lifetime: FIXED_ZERO, tier: undefined, reachedAt: "" };
      this.map.set(k, acc);
    }
    return acc;
  }

  /** Records own points paid to the event's user at `at` (ISO). */
  own(userId: string, currency: string, paid: Fixed, scaled: Fixed, tier: string | null, at: string): void {
    const acc = this.at(userId, currency);
    acc.lifetime = acc.lifetime.add(paid);
    acc.score = acc.score.add(scaled);
    acc.tier = tier;
    this.grew(acc, at);
  }

  /** Records referral points paid to a referrer at `at` (ISO). */
  referral(userId: string, currency: string, scaled: Fixed, at: string): void {
    const acc = this.at(userId, currency);
    acc.referralScore = acc.referralScore.add(scaled);
    this.grew(acc, at);
  }

  private grew(acc: Acc, at: string): void {
    // Stryker disable next-line EqualityOperator: at equal times either string is the same
    if (at > acc.reachedAt) acc.reachedAt = at;
  }

  /** The collected deltas, ordered by user then currency so equal inputs give equal outputs. */
  list(): ScoreDelta[] {
    return [...this.map.values()].sort(compareRowKeys).map((a) => {
      const d: ScoreDelta = {
        userId: a.userId,
        currency: a.currency,
        score: a.score.toString(),
        referralScore: a.referralScore.toString(),
        lifetime: a.lifetime.toString(),
        reachedAt: a.reachedAt,
      };
      if (a.tier !== undefined) d.tier = a.tier;
      return d;
    });
  }
}

function compareRowKeys(a: { userId: string; currency: string }, b: { userId: string; currency: string }): number {
  // Stryker disable next-line EqualityOperator: the ids differ here, so < and <= agree
  if (a.userId !== b.userId) return a.userId < b.userId ? -1 : 1;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: map keys are unique, so no two entries share user and currency; in the branch the currencies differ, so < and <= agree
  if (a.currency !== b.currency) return a.currency < b.currency ? -1 : 1;
  return 0;
}

/**
 * Combines the score deltas of consecutive engine calls into one list, as if the events had been
 * applied in one call: amounts add up exactly, the later tier wins where one is given, reachedAt is
 * the latest. Writing the combined list changes the rows exactly as writing each list in turn does,
 * with one row write per (user, currency) instead of one per list. Sorted by user, then currency.
 */
export function combineScoreDeltas(lists: readonly (readonly ScoreDelta[])[]): ScoreDelta[] {
  // Stryker disable next-line ArrayDeclaration: with one list lists[0] exists; the fallback only satisfies noUncheckedIndexedAccess
  if (lists.length === 1) return [...(lists[0] ?? [])];
  const map = new Map<string, { d: ScoreDelta; score: Fixed; referralScore: Fixed; lifetime: Fixed }>();
  for (const list of lists) {
    for (const d of list) {
      const k = `${d.userId}${SEP}${d.currency}`;
      const acc = map.get(k);
      if (!acc) {
        map.set(k, { d: { ...d }, score: fx(d.score), referralScore: fx(d.referralScore), lifetime: fx(d.lifetime) });
        continue;
      }
      acc.score = acc.score.add(fx(d.score));
      acc.referralScore = acc.referralScore.add(fx(d.referralScore));
      acc.lifetime = acc.lifetime.add(fx(d.lifetime));
      if (d.tier !== undefined) acc.d.tier = d.tier;
      // Stryker disable next-line EqualityOperator: at equal times either string is the same
      if (d.reachedAt > acc.d.reachedAt) acc.d.reachedAt = d.reachedAt;
    }
  }
  return [...map.values()]
    .map((a) => ({ ...a.d, score: a.score.toString(), referralScore: a.referralScore.toString(), lifetime: a.lifetime.toString() }))
    .sort(compareRowKeys);
}

/**
 * Adds score deltas to score rows, exactly as the worker's SQL upsert must:
 * score += d.score, referral_score += d.referralScore, lifetime += d.lifetime,
 * total = score + referral_score, tier = d.tier when given, reached_at = GREATEST(reached_at, d.reachedAt).
 * Rows are returned sorted by user, currency.
 */
export function mergeScoreDeltas(rows: readonly ScoreRow[], deltas: readonly ScoreDelta[]): ScoreRow[] {
  const map = new Map<string, ScoreRow>();
  for (const r of rows) map.set(`${r.userId}${SEP}${r.currency}`, { ...r });
  for (const d of deltas) {
    const k = `${d.userId}${SEP}${d.currency}`;
    const cur = map.get(k) ?? {
      userId: d.userId,
      currency: d.currency,
      score: "0",
      referralScore: "0",
      // Stryker disable next-line StringLiteral: a new row's total is never read: the total written is score + referral
      total: "0",
      lifetime: "0",
      tier: null,
      reachedAt: null,
    };
    const score = dec(cur.score).add(d.score);
    const referralScore = dec(cur.referralScore).add(d.referralScore);
    map.set(k, {
      userId: d.userId,
      currency: d.currency,
      score: str(score),
      referralScore: str(referralScore),
      total: str(score.add(referralScore)),
      lifetime: str(dec(cur.lifetime).add(d.lifetime)),
      tier: d.tier === undefined ? cur.tier : d.tier,
      // Stryker disable next-line EqualityOperator: at equal times either string is the same
      reachedAt: cur.reachedAt === null || d.reachedAt > cur.reachedAt ? d.reachedAt : cur.reachedAt,
    });
  }
  return [...map.values()].sort(compareRowKeys);
}

/** A score row with its position on a currency's leaderboard. */
export interface RankedRow extends ScoreRow {
  rank: number;
}

/**
 * Ranks one currency's rows: stored total descending, then reachedAt ascending (who got there first;
 * never-grown rows last), then userId ascending. Ranks are competition ranks, as on the leaderboard:
 * equal totals share a rank and the next rank skips (1, 2, 2, 4). Stored totals of one currency share one
 * decay factor, so this is also the order of decayed totals. The read side's order is the same:
 * `ORDER BY total DESC, reached_at ASC NULLS LAST, user_id ASC`.
 */
export function rankRows(rows: readonly ScoreRow[], currency: string): RankedRow[] {
  const sorted = rows
    .filter((r) => r.currency === currency)
    .map((r) => ({ row: r, total: new D(r.total) }))
    .sort((a, b) => {
      const c = b.total.cmp(a.total);
      if (c !== 0) return c;
      const ra = a.row.reachedAt;
      const rb = b.row.reachedAt;
      if (ra !== rb) {
        // Stryker disable next-line ConditionalExpression: null < an ISO string is false, so the last line also answers 1
        if (ra === null) return 1;
        if (rb === null) return -1;
        // Stryker disable next-line EqualityOperator: the times differ here, so < and <= agree
        return ra < rb ? -1 : 1;
      }
      // Stryker disable next-line ConditionalExpression,EqualityOperator: a currency's rows have distinct user ids, so a < b decides alone, and V8's sort only asks whether an answer is below 0
      return a.row.userId < b.row.userId ? -1 : a.row.userId > b.row.userId ? 1 : 0;
    });
  const ranked: RankedRow[] = [];
  sorted.forEach((x, i) => {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,OptionalChaining: at i = 0 sorted[-1] is undefined and ?. answers undefined; past 0 the entry exists
    const tiedWithPrevious = i > 0 && sorted[i - 1]?.total.eq(x.total);
    // Stryker disable next-line OptionalChaining,ArithmeticOperator: a tie means i > 0, so ranked[i - 1] exists
    ranked.push({ ...x.row, rank: tiedWithPrevious ? (ranked[i - 1]?.rank ?? i + 1) : i + 1 });
  });
  return ranked;
}
