// Response schemas of the public read API: leaderboard entries, boards and a user's scores with tiers.
import { z } from "zod";
import type { JsonDecimal } from "./exact-json";

/**
 * Score of one currency as a client parses it: `total` is `score + referral_score`. On the wire each
 * figure is a JSON number literal with the exact decimal digits (up to the currency's 18 places and
 * any number of integer digits); JSON.parse into a JS number keeps only about 15 significant digits.
 */
export const scoreObjectSchema = z.object({ score: z.number(), referral_score: z.number(), total: z.number() }).strict();
export type ScoreObject = z.infer<typeof scoreObjectSchema>;

/**
 * What one currency leaves to spend on rewards: `spent`, `balance` (total - spent, never below 0) and
 * `shortfall` (spent - total when a recompute left less than was spent, else 0). Exact like a score object.
 */
export const balanceObjectSchema = z.object({ spent: z.number(), balance: z.number(), shortfall: z.number() }).strict();

const identitiesSchema = z.object({ x_username: z.string().optional() }).strict();

/** One leaderboard entry, exactly the spec's shape. */
export const leaderboardEntrySchema = z
  .object({
    rank: z.number().int().min(1),
    user_id: z.uuid(),
    display_name: z.string(),
    avatar_url: z.string(),
    identities: identitiesSchema,
    scores: z.record(z.string(), scoreObjectSchema),
    /** Only on the boards of campaigns that rank by balance. */
    balances: z.record(z.string(), balanceObjectSchema).optional(),
  })
  .strict();
export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;

/** GET /leaderboard response body; GET /leaderboard/around/{user_id} answers the same shape with the window as `entries`. */
export const leaderboardResponseSchema = z
  .object({
    campaign_id: z.string(),
    cached_at: z.iso.datetime(),
    currency_names: z.record(z.string(), z.string()),
    entries: z.array(leaderboardEntrySchema),
  })
  .strict();
export type LeaderboardResponse = z.infer<typeof leaderboardResponseSchema>;

/** A user's tier in one currency: the tier key and its display name from the active rules. */
export const tierViewSchema = z.object({ key: z.string(), name: z.string() }).strict();

/**
 * GET /users/{user_id}/scores response body: the spec's fields plus the user's tier per currency.
 * `rank` is the competition rank by the primary currency (a user without points there ranks with the zeros).
 */
export const userScoresResponseSchema = z
  .object({
    user_id: z.uuid(),
    rank: z.number().int().min(1),
    cached_at: z.iso.datetime(),
    display_name: z.string(),
    avatar_url: z.string(),
    identities: identitiesSchema,
    currency_names: z.record(z.string(), z.string()),
    scores: z.record(z.string(), scoreObjectSchema),
    balances: z.record(z.string(), balanceObjectSchema),
    tiers: z.record(z.string(), tierViewSchema.nullable()),
  })
  .strict();
export type UserScoresResponse = z.infer<typeof userScoresResponseSchema>;

/** A score object as the read API builds it: each figure's exact digits, which `stringifyJson` writes as a JSON number. */
export interface ExactScoreObject {
  score: JsonDecimal;
  referral_score: JsonDecimal;
  total: JsonDecimal;
}

/** A balance object as the read API builds it. */
export interface ExactBalanceObject {
  spent: JsonDecimal;
  balance: JsonDecimal;
  shortfall: JsonDecimal;
}

/** A leaderboard entry as the read API builds it, before `stringifyJson`. */
export type LeaderboardEntryBody = Omit<LeaderboardEntry, "scores" | "balances"> & {
  scores: Record<string, ExactScoreObject>;
  balances?: Record<string, ExactBalanceObject>;
};

/** A leaderboard (or around-me) response as the read API builds it, before `stringifyJson`. */
export type LeaderboardResponseBody = Omit<LeaderboardResponse, "entries"> & { entries: LeaderboardEntryBody[] };

/** A user-scores response as the read API builds it, before `stringifyJson`. */
export type UserScoresResponseBody = Omit<UserScoresResponse, "scores" | "balances"> & {
  scores: Record<string, ExactScoreObject>;
  balances: Record<string, ExactBalanceObject>;
};
