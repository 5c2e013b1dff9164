// How read-api presents stored scores: decayed with the engine's factor and rounded to the currency's decimals.
import { decayedValue } from "@pointwise/rules";
import { stringifyJson } from "@pointwise/schemas";
import Decimal from "decimal.js";
import { type CampaignRow, campaignView } from "./campaign";
import { decayFactors, presentBalances, presentScores, presentTiers } from "./scores";

const decay = { halfLifeSeconds: 86_400, epoch: "2025-01-01T00:00:00Z" };
const rules = {
  campaignId: "abcd-0001",
  version: 1,
  primaryCurrency: "xp",
  currencies: {
    xp: { name: "XP", decimals: 2, decay, tiers: [{ key: "bronze", name: "Bronze", minLifetime: "0" }] },
    gems: { name: "Gems", decimals: 0 },
  },
  rules: [],
};
const row = (document: unknown): CampaignRow => ({
  id: "abcd-0001",
  currencies: { xp: "Experience", gems: "Gems" },
  primary_currency: "xp",
  bad_words: ["spam"],
  document,
});

describe("presenting stored scores", () => {
  it("decays with the rules engine's factor, rounds to the currency's decimals, and keeps total = score + referral_score", () => {
    const view = campaignView(row(rules), ["admin"]);
    const at = new Date("2025-01-03T06:00:00Z");
    const stored = { currency: "xp", score: "12345.678", referral_score: "99.5", total: "12445.178", spent: "0", balance: "12445.178", tier: "bronze" };
    const scores = presentScores([stored], view, decayFactors(view, at));
    const expected = (v: string) => new Decimal(decayedValue(v, at, decay)).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);
    // Each figure is the exact text a JSON number is written with.
    expect(scores.xp?.score.text).toBe(expected(stored.score).toFixed());
    expect(scores.xp?.referral_score.text).toBe(expected(stored.referral_score).toFixed());
    expect(scores.xp?.total.text).toBe(expected(stored.score).add(expected(stored.referral_score)).toFixed());
    expect(stringifyJson(scores.gems)).toBe('{"score":0,"referral_score":0,"total":0}');
    expect(presentTiers([stored], view)).toEqual({ xp: { key: "bronze", name: "Bronze" }, gems: null });
    expect(view.badWords).toEqual(["admin", "spam"]);
  });

  it("shows stored values unchanged when the active rules have no decay or cannot be parsed", () => {
    const stored = { currency: "xp", score: "41.25", referral_score: "1.5", total: "42.75", spent: "0", balance: "42.75", tier: null };
    for (const document of [null, { rules: [{ per_unit: "2" }] }, { ...rules, currencies: { xp: { name: "XP" }, gems: { name: "G" } } }]) {
      const view = campaignView(row(document), []);
      expect(JSON.parse(stringifyJson(presentScores([stored], view, decayFactors(view, new Date()))))).toEqual({
        xp: { score: 41.25, referral_score: 1.5, total: 42.75 },
        gems: { score: 0, referral_score: 0, total: 0 },
      });
    }
  });

  it("shows spent, balance (decayed in one step from its stored value) and a shortfall where spent exceeds total", () => {
    const view = campaignView(row(rules), []);
    const at = new Date("2025-01-03T06:00:00Z");
    const rows = [
      { currency: "xp", score: "1000", referral_score: "0", total: "1000", spent: "400.5", balance: "599.5", tier: null },
      { currency: "gems", score: "3", referral_score: "0", total: "3", spent: "5", balance: "0", tier: null },
    ];
    const out = presentBalances(rows, view, decayFactors(view, at));
    const expected = (v: string) => new Decimal(decayedValue(v, at, decay)).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN).toFixed();
    expect([out.xp?.spent.text, out.xp?.balance.text, out.xp?.shortfall.text]).toEqual([expected("400.5"), expected("599.5"), "0"]);
    // gems has no decay and 0 places: 5 spent of 3 earned leaves a balance of 0 and a shortfall of 5 - 3 = 2.
    expect(stringifyJson(out.gems)).toBe('{"spent":5,"balance":0,"shortfall":2}');
  });

  it("computes a shortfall exactly, to every decimal place a currency has", () => {
    const view = campaignView(row({ ...rules, currencies: { xp: { name: "XP", decimals: 18 }, gems: { name: "Gems", decimals: 0 } } }), []);
    const rows = [
      {
        currency: "xp",
        score: "0.000000000000000001",
        referral_score: "0",
        total: "0.000000000000000001",
        spent: "100.123456789012345678",
        balance: "0",
        tier: null,
      },
    ];
    // 100.123456789012345678 - 0.000000000000000001, 21 significant digits (decimal.js's default context keeps 20).
    expect(presentBalances(rows, view, decayFactors(view, new Date())).xp?.shortfall.text).toBe("100.123456789012345677");
  });
});
