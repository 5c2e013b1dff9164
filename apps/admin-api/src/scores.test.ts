// How the dashboard shows stored scores: decayed and rounded as the read API shows them, lifetime trimmed.
import { parseRuleVersion } from "@pointwise/rules";
import { readableScore } from "./scores";

describe("readableScore", () => {
  const rules = parseRuleVersion({
    campaignId: "abcd-2026",
    version: 1,
    primaryCurrency: "xp",
    currencies: { xp: { name: "XP", decay: { halfLifeSeconds: 86400, epoch: "2026-01-01T00:00:00Z" } }, gems: { name: "Gems" } },
    rules: [],
  });
  const row = { currency: "xp", score: "80.000", referral_score: "8", total: "88", lifetime: "50.50", tier: "gold" };

  it("decays score and referral_score, rounds them to the currency's decimals as the read API does, totals them and keeps lifetime", () => {
    // 2.5 half-lives after the epoch: 80 x 2^-2.5 = 14.142..., 8 x 2^-2.5 = 1.414..., at xp's default 2 places.
    const at = new Date("2026-01-03T12:00:00Z");
    const shown = readableScore(row, rules, at);
    expect(shown).toEqual({
      currency: "xp",
      score: "14.14",
      referral_score: "1.41",
      total: "15.55",
      lifetime: "50.5",
      tier: "gold",
    });
    expect(Number(shown.total)).toBeLessThan(88);
  });

  it("shows stored values of a currency without decay, or when no rules are active", () => {
    expect(readableScore({ ...row, currency: "gems" }, rules, new Date())).toMatchObject({ score: "80", total: "88" });
    expect(readableScore(row, null, new Date())).toMatchObject({ score: "80", referral_score: "8", total: "88" });
  });
});
