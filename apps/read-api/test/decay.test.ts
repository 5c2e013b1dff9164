// read-api ranks and shows decayed scores at read time, keeps undecayed currencies, tiers from lifetime.
import { decayedValue } from "@pointwise/rules";
import { leaderboardResponseSchema, userScoresResponseSchema } from "@pointwise/schemas";
import { seedApiKey, seedCampaign, seedRuleVersion, seedScore, seedUser } from "@pointwise/testkit";
import Decimal from "decimal.js";
import { get, startReadApi, type TestReadApi } from "./support";

let api: TestReadApi;

beforeAll(async () => {
  api = await startReadApi();
});
afterAll(async () => {
  await api?.close();
});

const decay = { halfLifeSeconds: 7 * 86_400, epoch: "2026-01-01T00:00:00Z" };

/** What a stored value is worth at `at`, computed with the rules engine and rounded to the currency's 2 places. */
const worth = (stored: string, at: string) => new Decimal(decayedValue(stored, at, decay)).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);

describe("decayed scores", () => {
  it("ranks and shows decayed values at read time, keeps undecayed currencies as stored, and shows tiers from lifetime", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "XP", gems: "Gems" }, primary: "xp" });
    await seedRuleVersion(api.db, campaign, {
      campaignId: campaign,
      version: 1,
      primaryCurrency: "xp",
      currencies: {
        xp: {
          name: "XP",
          decimals: 2,
          decay,
          tiers: [
            { key: "fan", name: "Fan", minLifetime: "0" },
            { key: "hero", name: "Hero", minLifetime: "500" },
          ],
        },
        gems: { name: "Gems", decimals: 0 },
      },
      rules: [],
    });
    const key = (await seedApiKey(api.db, campaign)).key;
    const stored = [
      { score: "987654321.123456789012345678", referral: "12345.5", lifetime: "900", tier: "hero", gems: "7" },
      { score: "123456789.5", referral: "0", lifetime: "120", tier: "fan", gems: "70" },
    ];
    const ids: string[] = [];
    for (const s of stored) {
      const id = await seedUser(api.db, campaign);
      await seedScore(api.db, campaign, id, "xp", { score: s.score, referral: s.referral, lifetime: s.lifetime, tier: s.tier });
      await seedScore(api.db, campaign, id, "gems", { score: s.gems });
      ids.push(id);
    }
    const board = leaderboardResponseSchema.parse((await get(`${api.url}/leaderboard?campaign_id=${campaign}`)).body);
    expect(board.entries.map((e) => e.user_id)).toEqual(ids);
    board.entries.forEach((entry, i) => {
      const s = stored[i];
      if (!s) throw new Error("missing row");
      const score = worth(s.score, board.cached_at);
      const referral = worth(s.referral, board.cached_at);
      expect(entry.scores.xp).toEqual({ score: score.toNumber(), referral_score: referral.toNumber(), total: score.add(referral).toNumber() });
      expect(entry.scores.gems).toEqual({ score: Number(s.gems), referral_score: 0, total: Number(s.gems) });
      // Decay is real: the shown value is below what was stored.
      expect(score.lt(s.score)).toBe(true);
    });

    const mine = userScoresResponseSchema.parse((await get(`${api.url}/users/${ids[1]}/scores`, { "x-api-key": key })).body);
    expect(mine.rank).toBe(2);
    expect(mine.scores.xp?.score).toBe(worth("123456789.5", mine.cached_at).toNumber());
    expect(mine.tiers).toEqual({ xp: { key: "fan", name: "Fan" }, gems: null });

    const around = leaderboardResponseSchema.parse((await get(`${api.url}/leaderboard/around/${ids[1]}?campaign_id=${campaign}&n=1`)).body);
    expect(around.entries.map((e) => e.rank)).toEqual([1, 2]);
    expect(around.entries[1]?.scores.xp?.score).toBe(worth("123456789.5", around.cached_at).toNumber());
  });
});
