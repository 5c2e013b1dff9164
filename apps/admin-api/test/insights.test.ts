// admin-api insights: the leaderboard preview with shared ranks and each top user's points over time.
import { type Json, perUnitRules, setUpCampaign } from "./harness";
import { sharedProject } from "./project";
import { activateAsWorker, logEvents } from "./seed";

const suite = sharedProject();

const DAY = 86_400_000;
const wallet = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

/** Rules paying 2 xp per unit and 1 gem per event. */
function xpAndGems(regEventId: string) {
  return {
    primaryCurrency: "xp",
    currencies: { xp: { name: "Experience" }, gems: { name: "Gems", decimals: 0 } },
    rules: [
      { id: "volume", regEventId, currency: "xp", base: { kind: "perUnit", points: "2" } },
      { id: "count", regEventId, currency: "gems", base: { kind: "fixed", points: "1" } },
    ],
  };
}

describe("leaderboard preview", () => {
  it("ranks by the primary currency with shared ranks for ties (1, 1, 3) and shows every currency and identity", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const [a, b, c] = await logEvents(suite.h.deps.db, campaignId, [
      { identityType: "EVM_ADDRESS", accountId: wallet(1), amount: "20", regEventId },
      { identityType: "EVM_ADDRESS", accountId: wallet(2), amount: "10", regEventId },
      { identityType: "EVM_ADDRESS", accountId: wallet(3), amount: "10", regEventId },
      { identityType: "EVM_ADDRESS", accountId: wallet(3), amount: "10", regEventId },
    ]);
    await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: xpAndGems(regEventId) });
    await activateAsWorker(suite.h.deps.db, campaignId, 1);

    const board = await suite.op.call("GET", `/api/campaigns/${campaignId}/leaderboard`);
    expect(board.status).toBe(200);
    expect(board.body).toMatchObject({ campaign_id: campaignId, currency: "xp", currency_names: { xp: "Experience", gems: "Gems" }, rule_version: 1 });
    const ranks = board.body.entries.map((e: Json) => [e.rank, e.user_id, e.scores.xp.total, e.scores.gems.total]);
    expect(ranks.slice(0, 2).map((r: unknown[]) => r[0])).toEqual([1, 1]);
    expect(new Set(ranks.slice(0, 2).map((r: unknown[]) => r[1]))).toEqual(new Set([a, c]));
    expect(ranks[2]).toEqual([3, b, String(10 * 2), "1"]);
    expect(board.body.entries.find((e: Json) => e.user_id === c).scores.gems.total).toBe("2");
    expect(board.body.entries.find((e: Json) => e.user_id === a).identity).toEqual({ identity_type: "EVM_ADDRESS", account_id: wallet(1), handle: null });

    const byGems = await suite.op.call("GET", `/api/campaigns/${campaignId}/leaderboard?currency=gems&limit=1`);
    expect(byGems.body.entries.map((e: Json) => [e.rank, e.user_id])).toEqual([[1, c]]);
  });

  /**
   * Four users earning 2 xp per unit: 100, 80, 60 and 50 xp, of which rewards took 90, 0, 10 and 0, so
   * balances 10, 80, 50 and 50. The last two tie on balance; the fourth reached its value first.
   */
  async function spendingCampaign(ranking: "earned" | "balance") {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const users = await logEvents(
      suite.h.deps.db,
      campaignId,
      ["50", "40", "30", "25"].map((amount, i) => ({ identityType: "EVM_ADDRESS" as const, accountId: wallet(10 + i), amount, regEventId })),
    );
    await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: xpAndGems(regEventId) });
    await activateAsWorker(suite.h.deps.db, campaignId, 1);
    const spentAndReached: [string, string][] = [
      ["90", "2026-01-01T00:00:00Z"],
      ["0", "2026-01-01T00:00:00Z"],
      ["10", "2026-01-03T00:00:00Z"],
      ["0", "2026-01-02T00:00:00Z"],
    ];
    for (const [i, [spent, reachedAt]] of spentAndReached.entries()) {
      await suite.h.deps.db.query("UPDATE score SET spent = $3, reached_at = $4 WHERE campaign_id = $1 AND user_id = $2 AND currency = 'xp'", [
        campaignId,
        users[i],
        spent,
        reachedAt,
      ]);
    }
    const patched = await suite.op.call("PATCH", `/api/campaigns/${campaignId}`, { leaderboard_ranking: ranking });
    expect(patched.status).toBe(200);
    return { campaignId, users: users as [string, string, string, string] };
  }

  it("ranks by balance (total - spent) when the campaign's leaderboard ranks by balance, ties earliest-to-reach first", async () => {
    const { campaignId, users } = await spendingCampaign("balance");
    const board = await suite.op.call("GET", `/api/campaigns/${campaignId}/leaderboard`);
    expect(board.status).toBe(200);
    expect(board.body.ranking).toBe("balance");
    const rows = board.body.entries.map((e: Json) => [e.rank, e.user_id, e.scores.xp.total, e.balances.xp.spent, e.balances.xp.balance]);
    // Balances 80; 50 and 50 (the fourth user reached theirs on Jan 2, the third on Jan 3); 10.
    expect(rows).toEqual([
      [1, users[1], "80", "0", "80"],
      [2, users[3], "50", "0", "50"],
      [2, users[2], "60", "10", "50"],
      [4, users[0], "100", "90", "10"],
    ]);
    const top2 = await suite.op.call("GET", `/api/campaigns/${campaignId}/leaderboard?limit=2`);
    expect(top2.body.entries.map((e: Json) => [e.rank, e.user_id])).toEqual([
      [1, users[1]],
      [2, users[3]],
    ]);
    // The chart follows the board: its top two are the two best balances, not the two best totals.
    const chart = await suite.op.call("GET", `/api/campaigns/${campaignId}/chart?top=2`);
    expect(chart.body.series.map((s: Json) => s.user_id)).toEqual([users[1], users[3]]);
  });

  it("ranks by the earned total when the campaign's leaderboard ranks by what was earned, and still shows spent and balance", async () => {
    const { campaignId, users } = await spendingCampaign("earned");
    const board = await suite.op.call("GET", `/api/campaigns/${campaignId}/leaderboard`);
    expect(board.body.ranking).toBe("earned");
    expect(board.body.entries.map((e: Json) => [e.rank, e.user_id, e.scores.xp.total, e.balances.xp.spent, e.balances.xp.balance])).toEqual([
      [1, users[0], "100", "90", "10"],
      [2, users[1], "80", "0", "80"],
      [3, users[2], "60", "10", "50"],
      [4, users[3], "50", "0", "50"],
    ]);
    // A currency nobody spent in: spent 0, balance equal to the total (gems pay 1 per event).
    expect(board.body.entries[0].balances.gems).toEqual({ spent: "0", balance: "1" });
    const chart = await suite.op.call("GET", `/api/campaigns/${campaignId}/chart?top=2`);
    expect(chart.body.series.map((s: Json) => s.user_id)).toEqual([users[0], users[1]]);
  });

  it("refuses a currency the campaign does not have and a limit out of range", async () => {
    const { campaignId } = await setUpCampaign(suite.op);
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/leaderboard?currency=gold`)).body.error.message).toBe(
      "currency must be one of the campaign's currencies (xp, gems)",
    );
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/leaderboard?limit=1001`)).body.error.message).toBe("limit: must be between 1 and 1000");
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/leaderboard?limit=ten`)).body.error.message).toBe("limit: must be a whole number");
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/leaderboard`)).body.entries).toEqual([]);
  });
});

describe("points over time", () => {
  it("gives each top user's running total per day, placed at the time each event was received", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const today = Math.floor(Date.now() / DAY) * DAY;
    const at = (daysAgo: number) => new Date(today - daysAgo * DAY + 3_600_000).toISOString();
    const [a, b] = await logEvents(suite.h.deps.db, campaignId, [
      { identityType: "EVM_ADDRESS", accountId: wallet(1), amount: "10", regEventId, receivedAt: at(5) },
      { identityType: "EVM_ADDRESS", accountId: wallet(2), amount: "3", regEventId, receivedAt: at(2) },
      { identityType: "EVM_ADDRESS", accountId: wallet(1), amount: "5", regEventId, receivedAt: at(1) },
      { identityType: "EVM_ADDRESS", accountId: wallet(1), amount: "1", regEventId, receivedAt: at(1) },
    ]);
    await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "2") });
    await activateAsWorker(suite.h.deps.db, campaignId, 1);

    const chart = await suite.op.call("GET", `/api/campaigns/${campaignId}/chart?bucket=day&points=4&top=5`);
    expect(chart.status).toBe(200);
    expect(chart.body.buckets).toEqual([3, 2, 1, 0].map((d) => new Date(today - d * DAY).toISOString()));
    // a earned 10 x 2 five days ago (before the window), then (5 + 1) x 2 yesterday; b 3 x 2 two days ago.
    expect(chart.body.series.map((s: Json) => [s.user_id, s.values])).toEqual([
      [a, [String(10 * 2), String(10 * 2), String((10 + 5 + 1) * 2), String((10 + 5 + 1) * 2)]],
      [b, ["0", String(3 * 2), String(3 * 2), String(3 * 2)]],
    ]);

    const hourly = await suite.op.call("GET", `/api/campaigns/${campaignId}/chart?bucket=hour&top=1`);
    expect(hourly.body.buckets).toHaveLength(48);
    expect(hourly.body.series).toHaveLength(1);
    expect(hourly.body.series[0].values.at(-1)).toBe(String((10 + 5 + 1) * 2));
  });

  it("refuses an unknown bucket and too many points", async () => {
    const { campaignId } = await setUpCampaign(suite.op);
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/chart?bucket=week`)).body.error.message).toBe("bucket: must be hour or day");
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/chart?points=401`)).body.error.message).toBe("points: must be between 2 and 400");
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/chart?top=11`)).status).toBe(400);
  });

  it("places a backfilled event on the day it happened (occurred_at), not the day it was received", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const today = Math.floor(Date.now() / DAY) * DAY;
    const at = (daysAgo: number) => new Date(today - daysAgo * DAY + 3_600_000).toISOString();
    const [a] = await logEvents(suite.h.deps.db, campaignId, [
      // Happened three days ago, received today.
      { identityType: "EVM_ADDRESS", accountId: wallet(1), amount: "4", regEventId, occurredAt: at(3), receivedAt: at(0) },
      { identityType: "EVM_ADDRESS", accountId: wallet(1), amount: "1", regEventId, receivedAt: at(1) },
    ]);
    await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "2") });
    await activateAsWorker(suite.h.deps.db, campaignId, 1);
    const chart = await suite.op.call("GET", `/api/campaigns/${campaignId}/chart?bucket=day&points=4`);
    expect(chart.body.buckets).toEqual([3, 2, 1, 0].map((d) => new Date(today - d * DAY).toISOString()));
    // 4 x 2 = 8 on the day it happened, then 1 x 2 more yesterday; nothing new today.
    expect(chart.body.series).toEqual([
      expect.objectContaining({ user_id: a, values: [String(4 * 2), String(4 * 2), String((4 + 1) * 2), String((4 + 1) * 2)] }),
    ]);
  });
});
