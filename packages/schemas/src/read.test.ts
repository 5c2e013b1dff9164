// Response schemas of the public read API: the spec's shapes accepted, and extra or malformed fields refused.
import { leaderboardEntrySchema, leaderboardResponseSchema, scoreObjectSchema, tierViewSchema, userScoresResponseSchema } from "./read";

const USER = "aaaaaaaa-0000-4000-8000-000000000001";
const score = { score: 12.5, referral_score: 0.5, total: 13 };
const entry = {
  rank: 1,
  user_id: USER,
  display_name: "Alice",
  avatar_url: "https://example.com/a.png",
  identities: { x_username: "alice" },
  scores: { xp: score },
};
const user = {
  user_id: USER,
  rank: 3,
  cached_at: "2026-11-26T12:00:00.000Z",
  display_name: "Alice",
  avatar_url: "",
  identities: {},
  currency_names: { xp: "Experience" },
  scores: { xp: score },
  tiers: { xp: { key: "gold", name: "Gold" }, gems: null },
  // What was spent on rewards beside what was earned (docs/rewards.md): always in a user's scores.
  balances: { xp: { spent: 3, balance: 10, shortfall: 0 } },
};

describe("read API response schemas", () => {
  it("accept the spec's leaderboard and user-scores bodies (with the service's tiers and balances) unchanged", () => {
    const board = { campaign_id: "ab12-cd34", cached_at: "2026-11-26T12:00:00.000Z", currency_names: { xp: "Experience" }, entries: [entry] };
    expect(leaderboardResponseSchema.parse(board)).toEqual(board);
    expect(userScoresResponseSchema.parse(user)).toEqual(user);
  });

  it("refuse a field the spec does not have, at every level", () => {
    expect(scoreObjectSchema.safeParse({ ...score, rank: 1 }).success).toBe(false);
    expect(leaderboardEntrySchema.safeParse({ ...entry, email: "a@example.com" }).success).toBe(false);
    expect(leaderboardEntrySchema.safeParse({ ...entry, identities: { x_username: "alice", email: "a@example.com" } }).success).toBe(false);
    expect(tierViewSchema.safeParse({ key: "gold", name: "Gold", rank: 1 }).success).toBe(false);
    expect(userScoresResponseSchema.safeParse({ ...user, email: "a@example.com" }).success).toBe(false);
    expect(userScoresResponseSchema.safeParse({ ...user, balances: { xp: { spent: 3, balance: 10, shortfall: 0, total: 13 } } }).success).toBe(false);
  });

  it("refuse a rank below 1 or not whole, a user id that is not a UUID and a cached_at that is not an ISO time", () => {
    expect(leaderboardEntrySchema.safeParse({ ...entry, rank: 0 }).success).toBe(false);
    expect(leaderboardEntrySchema.safeParse({ ...entry, rank: 1.5 }).success).toBe(false);
    expect(leaderboardEntrySchema.safeParse({ ...entry, user_id: "alice" }).success).toBe(false);
    expect(userScoresResponseSchema.safeParse({ ...user, cached_at: "yesterday" }).success).toBe(false);
  });

  it("refuse a score figure that is not a number and a score object missing one", () => {
    expect(scoreObjectSchema.safeParse({ ...score, total: "13" }).success).toBe(false);
    expect(scoreObjectSchema.safeParse({ score: 1, referral_score: 0 }).success).toBe(false);
    expect(userScoresResponseSchema.safeParse({ ...user, identities: { x_username: 7 } }).success).toBe(false);
  });
});
