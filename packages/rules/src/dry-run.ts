// Dry run of a candidate rule version: computes the served scores under both versions and diffs the leaderboard.
import { ValidationError } from "@pointwise/errors";
import { type Adjustment, adjustmentDeltas } from "./adjustments";
import { own } from "./award";
import type { CampaignWindow } from "./campaign-window";
import { D, str } from "./decimal";
import { withoutExcluded } from "./exclusions";
import { replayCampaign } from "./replay";
import type { RuleVersion } from "./schema";
import { mergeScoreDeltas, type RankedRow, rankRows, type ScoreRow } from "./scores";
import { shownFactor, shownScore } from "./shown";
import { parseTime } from "./time";
import type { RawEvent } from "./types";

/** A stored score row as a person is shown it at a moment, as decimal strings. */
export interface DecayedScores {
  score: string;
  referralScore: string;
  total: string;
}

/**
 * A score row as shown at `at` under the rule version's currency settings: the same digits the read
 * API and the dashboard show (`shownScore`: decayed, rounded half-even to the currency's decimals,
 * total = score + referral), so a dry run previews the points users will actually see.
 */
export function decayedScores(row: ScoreRow, rules: RuleVersion, at: string | Date): DecayedScores {
  const currency = own(rules.currencies, row.currency);
  const shown = shownScore({ score: row.score, referral_score: row.referralScore }, shownFactor(new Date(at), currency?.decay), currency?.decimals ?? null);
  return { score: shown.score, referralScore: shown.referral_score, total: shown.total };
}

/** What changes for one user when the rules change. */
export interface LeaderboardMove {
  userId: string;
  /** Rank under the current rules, null when the user has no row there. */
  rankBefore: number | null;
  /** Rank under the candidate rules, null when the user has no row there. */
  rankAfter: number | null;
  /** rankBefore - rankAfter: positive means the user moves up; null when either rank is missing. */
  rankChange: number | null;
  /** Shown total at `at` under the current rules (decayed and rounded as the read API shows it). */
  pointsBefore: string;
  /** Shown total at `at` under the candidate rules. */
  pointsAfter: string;
  pointsChange: string;
}

/**
 * Input of a dry run: the rules in force, the candidate rules, and what a recompute under either
 * reads besides them (the campaign log, dates, exclusions and adjustments), and when to compare.
 */
export interface DryRunInput {
  /** The rules in force; null when none are (nothing is served, not even adjustments: the board before is empty). */
  before: RuleVersion | null;
  after: RuleVersion;
  events: readonly RawEvent[];
  /** The moment decayed totals are compared at (ISO 8601); passed in so the function stays pure. */
  at: string;
  /** The leaderboard's currency; defaults to the candidate's primary currency. */
  currency?: string;
  /** The campaign's dates, applied to both versions (missing or null: no limit). */
  campaignWindow?: CampaignWindow | null;
  /** Excluded users: their events earn nothing, pay no referral share and take no budget, and they hold no row. */
  excludedUsers?: ReadonlySet<string>;
  /** The campaign's operator adjustments, added on top of each version's replay (decayed under its settings). */
  adjustments?: readonly Adjustment[];
}

/** The leaderboard diff a dry run returns. */
export interface DryRunResult {
  currency: string;
  at: string;
  /** Every user whose rank or points differ, ordered by new rank (users who drop off last). */
  moves: LeaderboardMove[];
  /** Users on either board whose rank and points are the same. */
  unchanged: number;
  usersBefore: number;
  usersAfter: number;
}

/**
 * The score rows a recompute under `rules` switches in: the log replayed within the campaign window
 * without excluded users' events, then every adjustment of a user not excluded added on top, as the
 * scoring worker's switch adds them (score, total and lifetime; reachedAt moves up to the latest).
 */
function servedRows(rules: RuleVersion, input: DryRunInput): ScoreRow[] {
  const excluded = input.excludedUsers ?? new Set<string>();
  const replayed = replayCampaign(rules, withoutExcluded(input.events, excluded), input.campaignWindow).rows;
  const adjustments = (input.adjustments ?? []).filter((a) => !excluded.has(a.userId));
  return mergeScoreDeltas(
    replayed,
    adjustmentDeltas(rules, adjustments).map((d) => ({
      userId: d.userId,
      currency: d.currency,
      score: d.score,
      referralScore: "0",
      lifetime: d.lifetime,
      reachedAt: d.at,
    })),
  );
}

function board(rules: RuleVersion | null, input: DryRunInput, currency: string): Map<string, { rank: number; points: string }> {
  const out = new Map<string, { rank: number; points: string }>();
  if (rules === null) return out;
  // Rules without the currency pay none of it, but adjustments in it are served all the same (undecayed and
  // unrounded, as the read API shows a currency the active rules do not name).
  const ranked: RankedRow[] = rankRows(servedRows(rules, input), currency);
  for (const r of ranked) out.set(r.userId, { rank: r.rank, points: decayedScores(r, rules, input.at).total });
  return out;
}

/**
 * Computes the scores a recompute would serve under each rule version (the log within the campaign
 * window, without excluded users, plus adjustments) and returns who moves on the leaderboard (rank
 * before and after, points before and after), without side effects.
 */
export function dryRunDiff(input: DryRunInput): DryRunResult {
  if (parseTime(input.at) === undefined) throw new ValidationError("at must be an ISO 8601 time", { field: "at" });
  const currency = input.currency ?? input.after.primaryCurrency;
  if (!Object.hasOwn(input.after.currencies, currency) && !(input.before !== null && Object.hasOwn(input.before.currencies, currency))) {
    throw new ValidationError(`currency must be a currency of either rule version, got ${currency}`, { field: "currency" });
  }
  const before = board(input.before, input, currency);
  const after = board(input.after, input, currency);
  const moves: LeaderboardMove[] = [];
  let unchanged = 0;
  for (const userId of new Set([...before.keys(), ...after.keys()])) {
    const b = before.get(userId);
    const a = after.get(userId);
    const pointsBefore = b?.points ?? "0";
    const pointsAfter = a?.points ?? "0";
    if (b && a && b.rank === a.rank && new D(pointsBefore).eq(pointsAfter)) {
      unchanged += 1;
      continue;
    }
    moves.push({
      userId,
      rankBefore: b?.rank ?? null,
      rankAfter: a?.rank ?? null,
      rankChange: b && a ? b.rank - a.rank : null,
      pointsBefore,
      pointsAfter,
      pointsChange: str(new D(pointsAfter).sub(pointsBefore)),
    });
  }
  const last = Number.MAX_SAFE_INTEGER;
  moves.sort((x, y) => (x.rankAfter ?? last) - (y.rankAfter ?? last) || (x.rankBefore ?? last) - (y.rankBefore ?? last) || (x.userId < y.userId ? -1 : 1));
  return { currency, at: input.at, moves, unchanged, usersBefore: before.size, usersAfter: after.size };
}
