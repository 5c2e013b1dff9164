// Operator adjustments as score-row additions: the same digits wherever they are added (a grant, a recompute's switch).
import { scalePoints } from "./decay";
import { D, type Dec } from "./decimal";
import type { RuleVersion } from "./schema";

/** One operator adjustment: signed points in a currency for a user, at the time it was made. */
export interface Adjustment {
  userId: string;
  currency: string;
  /** Signed decimal text, at most 18 places. */
  points: string;
  createdAt: Date;
  /**
   * The time its decay counts from, when not its own: a reversal's is the time of the adjustment it reverses, so
   * that the two cancel to the last digit however long after the grant the reversal is made.
   */
  decaysFrom?: Date;
}

/** What a set of adjustments adds to one score row. */
export interface AdjustmentDelta {
  userId: string;
  currency: string;
  /** Added to `score` and `total`, in the stored form (decay-scaled to the currency's epoch by each adjustment's decaysFrom or time). */
  score: string;
  /** Added to `lifetime` (never decayed). */
  lifetime: string;
  /** The latest adjustment's time, ISO 8601. */
  at: string;
}

/** The stored form of one adjustment: a grant decays from the moment it was made, like points earned then. */
export function storedAdjustment(rules: RuleVersion | null, currency: string, points: string, at: Date): Dec {
  const p = new D(points);
  const decay = rules?.currencies[currency]?.decay;
  // Scaling rounds down; scaling the magnitude makes a deduction the exact negative of the grant it reverses.
  const scaled = scalePoints(p.abs(), at.getTime(), decay);
  return p.isNegative() ? scaled.neg() : scaled;
}

/**
 * Sums adjustments per user and currency into score-row additions under a rule version (its decay
 * settings); exact decimal arithmetic, so the order of adjustments does not change the digits.
 */
export function adjustmentDeltas(rules: RuleVersion | null, adjustments: readonly Adjustment[]): AdjustmentDelta[] {
  const rows = new Map<string, { userId: string; currency: string; score: Dec; lifetime: Dec; at: Date }>();
  for (const a of adjustments) {
    const key = `${a.userId}\u0000${a.currency}`;
    const row = rows.get(key) ?? { userId: a.userId, currency: a.currency, score: new D(0), lifetime: new D(0), at: a.createdAt };
    row.score = row.score.add(storedAdjustment(rules, a.currency, a.points, a.decaysFrom ?? a.createdAt));
    row.lifetime = row.lifetime.add(new D(a.points));
    // Stryker disable next-line EqualityOperator: at equal times either Date gives the same ISO string
    if (a.createdAt > row.at) row.at = a.createdAt;
    rows.set(key, row);
  }
  return [...rows.values()].map((r) => ({
    userId: r.userId,
    currency: r.currency,
    score: r.score.toFixed(),
    lifetime: r.lifetime.toFixed(),
    at: r.at.toISOString(),
  }));
}
