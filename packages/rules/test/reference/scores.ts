// Reference engine (decimal.js) for the differential test: score deltas, merging them into rows, and ranking.
import { D, type Dec, dec, str, ZERO } from "./decimal";

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
  score: Dec;
  referralScore: Dec;
  lifetime: Dec;
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
      acc = { userId, currency, score: ZERO, referralScore: ZERO, lifetime: ZERO, tier: undefined, reachedAt: "" };
      this.map.set(k, acc);
    }
    return acc;
  }

  /** Records own points paid to the event's user at `at` (ISO). */
  own(userId: string, currency: string, paid: Dec, scaled: Dec, tier: string | null, at: string): void {
    const acc = this.at(userId, currency);
    acc.lifetime = acc.lifetime.add(paid);
    acc.score = acc.score.add(scaled);
    acc.tier = tier;
    this.grew(acc, at);
  }

  /** Records referral points paid to a referrer at `at` (ISO). */
  referral(userId: string, currency: string, scaled: Dec, at: string): void {
    const acc = this.at(userId, currency);
    acc.referralScore = acc.referralScore.add(scaled);
    this.grew(acc, at);
  }

  private grew(acc: Acc, at: string): void {
    if (at > acc.reachedAt) acc.reachedAt = at;
  }

  /** The collected deltas, ordered by user then currency so equal inputs give equal outputs. */
  list(): ScoreDelta[] {
    return [...this.map.values()].sort(compareRowKeys).map((a) => {
      const d: ScoreDelta = {
        userId: a.userId,
        currency: a.currency,
        score: str(a.score),
        referralScore: str(a.referralScore),
        lifetime: str(a.lifetime),
        reachedAt: a.reachedAt,
      };
      if (a.tier !== undefined) d.tier = a.tier;
      return d;
    });
  }
}

function compareRowKeys(a: { userId: string; currency: string }, b: { userId: string; currency: string }): number {
  if (a.userId !== b.userId) return a.userId < b.userId ? -1 : 1;
  if (a.currency !== b.currency) return a.currency < b.currency ? -1 : 1;
  return 0;
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
        if (ra === null) return 1;
        if (rb === null) return -1;
        return ra < rb ? -1 : 1;
      }
      return a.row.userId < b.row.userId ? -1 : a.row.userId > b.row.userId ? 1 : 0;
    });
  const ranked: RankedRow[] = [];
  sorted.forEach((x, i) => {
    const tiedWithPrevious = i > 0 && sorted[i - 1]?.total.eq(x.total);
    ranked.push({ ...x.row, rank: tiedWithPrevious ? (ranked[i - 1]?.rank ?? i + 1) : i + 1 });
  });
  return ranked;
}
